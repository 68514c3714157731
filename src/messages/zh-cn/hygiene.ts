import type { AreaCatalog } from "../catalog.ts";
import type { hygiene as en } from "../en/hygiene.ts";

export const hygiene: AreaCatalog<typeof en> = {
  "hygiene.check.sshd": "sshd 配置",
  "hygiene.check.disk": "磁盘",
  "hygiene.check.docker": "Docker 空间",
  "hygiene.check.sessions": "登录会话",
  "hygiene.check.containers": "容器",
  "hygiene.line": "{check}：{text}",
  "hygiene.sshdUnset":
    "未设置 ClientAliveInterval，断开的 SSH 登录会话永不超时，主机一直显示为在用：请在 {file} 中任何 Match 块之前加上一行 ''{add}''",
  "hygiene.sshdTooLong": "ClientAliveInterval 为 {seconds} 秒：请把 {file} 第 {line} 行改为 ''{add}''",
  "hygiene.sshdTooLongNoLine": "ClientAliveInterval 为 {seconds} 秒：请在 {file} 中设置 ''{add}''",
  "hygiene.diskFull": "{mount} 已用 {pct}%（剩余 {gib, number, decimal1} GiB）",
  "hygiene.dockerImages": "Docker 可释放 {gib, number, decimal1} GB 未使用的镜像：{command}",
  "hygiene.dockerBuildCache": "Docker 可释放 {gib, number, decimal1} GB 构建缓存：{command}",
  "hygiene.oldImages":
    "{count} 个镜像没有任何容器使用且已超过 {days} 天（{gib, number, decimal1} GB）：{command}",
  "hygiene.idleSession":
    "{user} 在 {tty}{from, select, none {} other {（来自 {from}）}}上的登录会话已闲置 {days} 天：这样的登录会话会让主机无法算作闲置，请结束它",
  "hygiene.noMemoryCap":
    "容器 {container}（{image}）没有内存上限：请设置一个（docker run --memory，或 Compose 中的 mem_limit）",
  "hygiene.nothingToFix": "无需处理",
  "hygiene.noDocker": "这台主机上没有 Docker",
  "hygiene.couldNotCheck.timeout": "无法检查：{seconds} 秒内没有应答",
  "hygiene.couldNotCheck.noAccess": "无法检查：无法在这台主机上运行命令（只有 ssh 和 local 数据源可以）",
  "hygiene.couldNotCheck.failed": "无法检查：{detail}",
  "hygiene.unknownHost": "没有可通过 ssh 或本机访问的主机 {host}；可访问的有：{hosts}",
  "hygiene.noHosts": "没有可检查的主机：hygiene 只检查 ssh 和 local 数据源的主机",
  "hygiene.total":
    "{hosts} 台主机上{findings, plural, =0 {无需处理} other {有 {findings} 项需要处理}}{unchecked, plural, =0 {} other {；{unchecked} 项检查无法运行}}",
  "hygiene.checklistTitle": "主机卫生：自上次以来新增或变化的问题",
  "hygiene.checklistIntro": "由每周检查发现（只读）；每项只显示一次，直到它发生变化。",
  "hygiene.adviceTitle": "更省钱的运行方式",
  "hygiene.adviceSpot":
    "{count} 个不超过 {hours} 小时的任务正常结束：若用竞价实例，成本可少 {saving, number, money}（{cost, number, money} 打 {discount}% 折扣）",
  "hygiene.adviceValley":
    "{count} 个批处理任务在峰时启动：等到谷时运行可节省 {saving, number, moneyCents} 电费",
  "hygiene.adviceMixed": "{hosts} 上同时运行在线服务和实验任务：请拆分成不同的机器池",
  "hygiene.summaryTitle": "主机卫生",
};
