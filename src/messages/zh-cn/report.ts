import type { AreaCatalog } from "../catalog.ts";
import type { report as en } from "../en/report.ts";

export const report: AreaCatalog<typeof en> = {
  "report.title": "成本账本，最近 {days} 天",
  "report.empty": "{title}：成本账本中还没有完整的一天。每天（按 {zone} 时区）结束后，会根据每小时汇总写入。",
  "report.outOfRange": "{title}：该范围内没有成本账本记录。成本账本涵盖 {first} – {last}。",
  "report.range": "{from} – {to}，{zone}",
  "report.overview":
    "成本 {cost}，闲置成本 {idleCost}。实际使用率 {rate}：开机 {on} GPU 小时中忙碌 {busy}；{unknown} GPU 小时没有数据。",
  "report.overviewShare":
    "成本 {cost}，闲置成本 {idleCost}（占 {share}）。实际使用率 {rate}：开机 {on} GPU 小时中忙碌 {busy}；{unknown} GPU 小时没有数据。",
  "report.energy": "能耗 {kwh} kWh。",
  "report.saving": "若闲置时段停机，可省 {saving}（电费、云价格、按开机小时计的维护费；折旧照付）。",
  "report.top.title": "闲置成本最高",
  "report.top.line": "{host}：{cost} 中闲置 {idleCost}，使用率 {rate}",
  "report.months.title": "按月实际使用率",
  "report.months.line": "{month}：{rate}（开机 {on} GPU 小时中忙碌 {busy}）",
  "report.note.ends": "成本账本截至 {day}。",
  "report.note.starts": "从 {day} 开始。",
  "report.note.unpriced": "没有 `cost_per_hour` 或 `purchase_price` 的主机没有成本（—）。",
  "report.note.suspect":
    "❔ 可疑读数（利用率 100 % 但无显存占用、功耗处于闲置水平，一种已知的驱动故障）在这里计为忙碌：{spans}。",
  "report.note.suspectSpan": "{host} 的 GPU {gpu}：{hours} 小时",
  "report.note.suspectMore": "另有 {count} 项",
  "report.note.csvDm": "包含每台主机每天数据的 CSV 会私信发给你。",
  "report.text": "成本账本，最近 {days} 天：成本 {cost}，闲置成本 {idleCost}，实际使用率 {rate}",
  "report.day": "{year}年{at, date, weekdayDay}",
  "report.csv.title": "GPU 成本账本 {from} 至 {to}（{zone}，{currency}）",
  "report.csv.comment": "{title}：每台主机每天一行。",
  "report.csv.failed": "无法把 CSV 发给你；错误已记录，供机器人的运维人员查看。",
  "report.csv.failedCode": "无法把 CSV 发给你（{code}）；错误已记录，供机器人的运维人员查看。",
};
