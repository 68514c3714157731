import type { AreaCatalog } from "../catalog.ts";
import type { common as en } from "../en/common.ts";

export const common: AreaCatalog<typeof en> = {
  "common.period": "{from, date, day} 至 {to, date, dayYear}",
  "common.hosts": "{count} 台主机",
  "common.gpus": "{count} 块 GPU",
  "common.days": "{count} 天",
  "common.money": "{amount, number, money}",
  "common.moneyCents": "{amount, number, moneyCents}",
  "common.pct": "{ratio, number, pct}",
  "common.gpuHours": "{hours} GPU 小时",
  "common.badButton": "无法读取这个按钮（{problem}），什么也没有做。",

  "duration.minutes": "{minutes} 分钟",
  "duration.hours": "{hours} 小时",
  "duration.hoursMinutes": "{hours} 小时 {minutes} 分钟",
  "duration.days": "{days} 天",
  "duration.daysHours": "{days} 天 {hours} 小时",
  "duration.long": "{hours} 小时",
  "common.progress.thread": "提醒的线程",
};
