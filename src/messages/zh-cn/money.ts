import type { AreaCatalog } from "../catalog.ts";
import type { money as en } from "../en/money.ts";

export const money: AreaCatalog<typeof en> = {
  "money.overQuota":
    "项目 `{project}` 同时最多占用 {max} 块 GPU：现已占用 {held} 块，本次又要 {asked} 块。请先释放一些，或加上 `--wait` 加入等候队列。",
  "money.overQuota.waiting":
    "项目 `{project}` 同时最多占用 {max} 块 GPU，现已占用 {held} 块：本请求将等到还能再占用 {asked} 块时。",
  "money.title": "按项目分摊成本，{month}（{from} … {to}，{zone}），{currency}",
  "money.noDay": "成本账本中还没有 {month} 的完整一天。",
  "money.header.project": "项目",
  "money.header.claimed": "认领 GPU 小时",
  "money.header.busy": "忙碌 GPU 小时",
  "money.header.usedCost": "使用 {currency}",
  "money.header.idleCost": "占用闲置 {currency}",
  "money.header.cost": "成本 {currency}",
  "money.header.share": "占比",
  "money.header.waited": "排队小时",
  "money.unattributed": "未归属",
  "money.total": "合计（成本账本）",
  "money.note.unattributed":
    "未归属：没有认领、命名空间、标签或登录名能对应到项目的 GPU 时间，以及无人占用的闲置和未知时间。",
  "money.note.ends": "本月成本账本截至 {day}（最后一个完整日）。",
  "money.col.project": "项目",
  "money.col.claimedGpuHours": "认领_GPU_小时",
  "money.col.busyGpuHours": "忙碌_GPU_小时",
  "money.col.usedCost": "使用成本",
  "money.col.idleCost": "闲置成本",
  "money.col.cost": "成本",
  "money.col.share": "占比",
  "money.col.waitedHours": "排队小时",
  "money.col.currency": "货币",
  "money.cli.byProject": "--by 只接受 ''project''（按项目的报表），而不是 ''{typed}''",
  "money.cli.notMonth": "--month 需要 YYYY-MM 形式的月份，例如 2026-11，而不是 ''{typed}''",
  "money.monthly.intro":
    "📊 {month} 已结束：本月成本按项目分摊如下，随成本看守人交接一并发布。附有每个项目一行的 CSV。",
  "money.slack.title": "按项目分摊成本，{month}",
  "money.slack.range": "{from} 至 {to}，{zone}；成本账本合计 {total}",
  "money.slack.line":
    "• {name}：{cost}（{share}）：使用 {used}，占用闲置 GPU {idle}；认领 {claimed} GPU 小时，忙碌 {busy} GPU 小时；在等候队列中等了 {waited} 小时",
  "money.slack.csvInDm": "CSV 已发到你与机器人的私信。",
  "money.csv.title": "按项目分摊的 GPU 成本，{month}（{currency}）",
  "money.csv.comment": "{title}：每个项目一行，共 {columns} 列。",
  "money.command.notMonth": "`{text}` 不是月份：请用 YYYY-MM，例如 `report project 2026-11`。",
  "money.budget.near": "💸 项目 `{project}` {month} 已花费 {spent}，预算 {budget}（{level}%）。",
  "money.budget.reached": "🛑 项目 `{project}` {month} 已花费 {spent}，预算 {budget} 已用完。",
  "money.budget.burning":
    "按主机的认领 GPU 小时：{hosts}。按人：{people}。占用的闲置 GPU：占其成本的 {idle}。",
  "money.budget.none": "无",
  "money.home.project": "（{project, select, other {项目 {project}} _none {无项目}}，优先级 {priority}）",
  "money.usedBy": "最近 30 天的认领方：{list}。",
  "money.usedBy.entry": "{project}（{hours} GPU 小时）",
  "money.usedBy.nobody": "最近 30 天无人认领。",
  "money.usedBy.separator": "，",
  "money.summary.title": "按项目分摊成本，{from} 至 {to}（完整日）：",
  "money.summary.line":
    "• {name}：{cost}（{share}），占用闲置 GPU {idle}；忙碌 {busy} GPU 小时；在等候队列中等了 {waited} 小时",
};
