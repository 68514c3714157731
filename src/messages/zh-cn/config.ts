import type { AreaCatalog } from "../catalog.ts";
import type { config as en } from "../en/config.ts";

export const config: AreaCatalog<typeof en> = {
  "config.ok": "配置正确：{file}",
  "config.okEmpty": "配置正确：{file}（空文件：全部使用默认值）",
  "config.embedded": "内置默认值（没有 gpu-warden.yaml）",
  "config.sources": "数据源：",
  "config.noSources": "未配置：PATH 中有 nvidia-smi 时读本机 GPU，否则用模拟机群",
  "config.channel": "频道：{channel}",
  "config.channelAdmins": "频道：{channel}（管理员：{admins}）",
  "config.team": "团队：{name}，时区 {zone}，货币 {currency}，语言 {language}",
  "config.policy":
    "策略：GPU 利用率低于 {idlePct} % 即为闲置；所有 GPU 都闲置且无人登录满 {idleMinutes} 分钟，主机即为闲置；开始工作后 {protectMinutes} 分钟内不停机；{escalateMinutes} 分钟后升级提醒",
  "config.poll":
    "轮询：每 {seconds} 秒一次；原始样本保留 {rawDays} 天（Prometheus 兼容数据源的主机保留 {engineHours} 小时），每小时汇总保留 {rollupDays} 天，存于 {path}",
  "config.secretMissing": "警告：{path} 从 {source} 读取密钥，但此处目前无法读取",
  "config.hostSettings": "主机设置：{count} 台（{names}）",
  "config.source.local": "本机 nvidia-smi（{command}），作为主机 {host}",
  "config.source.localHost": "（本机主机名）",
  "config.source.ssh": "通过 ssh 连接 {count} 台主机：{names}（并发 {concurrency}，时限 {deadline} 秒）",
  "config.source.prometheus": "prometheus {url}（主机标签 {label}）",
  "config.source.prometheusContainers": "prometheus {url}（主机标签 {label}，含容器）",
  "config.source.simulated": "模拟机群：{hosts} 台主机 × {gpus} 块 GPU（种子 {seed}）",
  "config.error.count": "{file}：{count} 个问题",
  "config.error.anyFile": "配置",
  "config.error.at": "位置 {path}",
  "config.error.top": "（顶层）",
  "config.error.expected": "应为：{text}",
  "config.error.found": "实际：{text}",
  "config.error.hint": "提示：{text}",
  "config.error.more": "……还有 {count} 个（文件选对了吗？）",
};
