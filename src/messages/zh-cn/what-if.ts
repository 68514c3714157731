import type { AreaCatalog } from "../catalog.ts";
import type { whatIf as en } from "../en/what-if.ts";

export const whatIf: AreaCatalog<typeof en> = {
  "whatIf.title": "假设回放 {from} … {to}（{zone}），{currency}：按每种策略回放机群的历史，无人应答",
  "whatIf.none": "自 {since} 起存储和时序数据库中都没有读数：无可回放",
  "whatIf.shorter":
    "此后的第一条读数在 {from}（存储保留原始读数 store.raw_retention_days 天，时序数据库按其自身的保留期）：回放从那里开始",
  "whatIf.fromEngine":
    "{hosts} 台主机来自时序数据库的历史，每 {seconds} 秒一步：每块 GPU 的利用率、显存、功耗和 Kubernetes Pod；时序数据库不保留登录会话和进程的负责人，因此只由 GPU 决定（与运行中的机器人相同），没有数据的一步视为未知，绝不视为闲置",
  "whatIf.fromStore": "{hosts} 台主机来自存储中的原始读数",
  "whatIf.engineFailed":
    "时序数据库没有应答（{error}）：其主机改用存储回放，而存储只保留这些主机 store.raw_retention_days 的原始读数（默认 3 小时）",
  "whatIf.header.policy": "策略",
  "whatIf.header.stops": "停机次数",
  "whatIf.header.offHours": "停机小时",
  "whatIf.header.capacity": "释放容量 {currency}",
  "whatIf.header.saved": "节省 {currency}",
  "whatIf.header.falseStops": "可能的误停机",
  "whatIf.stopsOf": "{policy}：",
  "whatIf.stopLine": "{host} 于 {at} 停机，{back} 恢复，停机 {hours} 小时，节省 {saved}",
  "whatIf.notBack": "结束前未恢复",
  "whatIf.falseStops.title": "可能的误停机（停机时有 GPU 进程或登录会话，或 {hours} 小时内主机上有工作）：",
  "whatIf.falseStop":
    "{policy}：{host} 于 {at}：{reason, select, process {有 GPU 进程占用显存} login {有登录会话} other {{when} 出现工作}}；负责人 {owner}",
  "whatIf.ownerUnknown": "未知（存储只保留最近一次轮询的进程；时序数据库不保留负责人）",
  "whatIf.unpriced": "— 主机 {hosts} 没有价格：请在 hosts.<name> 下设置 cost_per_hour 或 purchase_price",
  "whatIf.seam":
    "autopilot：按规格的空闲主机与陈旧会话规则（30 分钟 + 30 分钟警告；18 小时，在周一至周五 09:00–18:00 之后的晚上停机，休息日不停）",
  "whatIf.badPolicy":
    "未知策略 {policy}：请用 autopilot、process-autostop-N、skypilot-autostop-N、nightly 或 nightly-smart",
  "whatIf.badSince": "`--since {typed}` 不是时长或日期：请用 `30d`、`12h` 或 `YYYY-MM-DD`",
  "whatIf.col.policy": "策略",
  "whatIf.col.host": "主机",
  "whatIf.col.stopAt": "停机时间",
  "whatIf.col.idleSince": "闲置起始",
  "whatIf.col.backAt": "恢复时间",
  "whatIf.col.offHours": "停机小时",
  "whatIf.col.capacityFreed": "释放容量",
  "whatIf.col.moneySaved": "节省金额",
  "whatIf.col.currency": "货币",
  "whatIf.col.falseStop": "可能的误停机",
  "whatIf.col.falseAt": "误停机时间",
  "whatIf.col.owners": "负责人",
};
