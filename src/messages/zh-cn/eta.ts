import type { AreaCatalog } from "../catalog.ts";
import type { eta as en } from "../en/eta.ts";

export const eta: AreaCatalog<typeof en> = {
  "eta.around": "约 {at, date, weekday} {at, date, time}",
  "eta.tooLittle": "暂无预计：使用历史只有 {days, number, decimal1} 天，预计需要 {needed} 天",
  "eta.none": "暂无预计：最近几周的使用情况显示 {days} 天内都不会空闲",
  "eta.queue.title": "预计时间，依据最近 {weeks} 周每周各小时的使用情况",
  "eta.queue.line": "{position}. {estimate}",
  "eta.queued": "排队位置：{position}。预计：{estimate}。",
  "eta.status.title": "忙碌的主机通常何时空闲，依据最近 {weeks} 周每周各小时的使用情况",
  "eta.status.line": "{host}：{estimate}",
  "eta.home.title": "你的排队位置",
  "eta.home.line": "{position}. {want}：{estimate}",
  "eta.home.empty": "你没有在等待 GPU。",
  "eta.home.models": "GPU 型号",
  "eta.home.model": "{model}（{gpus} 块 GPU），下一块空闲：{estimate}",
  "eta.want.any": "{count} 块 GPU",
  "eta.want.model": "{count} 块 {model} GPU",
};
