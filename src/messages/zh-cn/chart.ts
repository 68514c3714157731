import type { AreaCatalog } from "../catalog.ts";
import type { chart as en } from "../en/chart.ts";

export const chart: AreaCatalog<typeof en> = {
  "chart.title.cost": "每日闲置成本（按主机），{from, date, day} 至 {to, date, dayYear}（{currency}）",
  "chart.title.hours": "每日闲置 GPU 小时（按主机），{from, date, day} 至 {to, date, dayYear}",
  "chart.subtitle.cost":
    "{days} 天内 {hosts} 台主机（{gpus} 块 GPU）闲置成本共 {total, number, money}；没有读数的 GPU 时间从不计为闲置。",
  "chart.subtitle.hours":
    "{days} 天内 {hosts} 台主机（{gpus} 块 GPU）共闲置 {total, number, decimal1} GPU 小时；没有读数的 GPU 时间从不计为闲置。",
  "chart.axis.cost": "闲置成本（{currency}）",
  "chart.axis.hours": "闲置 GPU 小时",
  "chart.legend.title.cost": "闲置成本，{count} 天",
  "chart.legend.title.hours": "闲置 GPU 小时，{count} 天",
  "chart.legend.others": "其他 {count} 台主机",
  "chart.weekend": "周末",
  "chart.empty": "本周期内没有闲置的 GPU 时间。",
  "chart.note.unpriced": "{count} 块 GPU 的部分闲置时段没有价格，未计入成本。",
  "chart.note.noPrice":
    "没有主机设置价格，因此图表统计闲置 GPU 小时：请在 hosts 下设置 cost_per_hour 或 purchase_price。",
  "chart.alt.cost":
    "每日闲置成本堆叠柱状图，{from, date, day} 至 {to, date, dayYear}，按主机（{shown} 台{others, plural, =0 {} other {，另有 # 台归为其他}}）：共 {total, number, money}。",
  "chart.alt.hours":
    "每日闲置 GPU 小时堆叠柱状图，{from, date, day} 至 {to, date, dayYear}，按主机（{shown} 台{others, plural, =0 {} other {，另有 # 台归为其他}}）：共 {total, number, decimal1} GPU 小时。",
  "chart.file.title": "每日闲置成本（按主机）",
  "chart.file.title.hours": "每日闲置 GPU 小时（按主机）",
};
