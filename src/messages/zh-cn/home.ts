import type { AreaCatalog } from "../catalog.ts";
import type { home as en } from "../en/home.ts";

export const home: AreaCatalog<typeof en> = {
  "home.mine.noneTitle": "你的认领：",
  "home.mine.none": "无。{claimHost} 或 {claimCount} 可以认领 GPU；不指定时长的认领持续 {duration}。",
  "home.mine.more": "……另有 {count} 项：{example} 会全部列出。",
  "home.warden.title": "本月成本看守人：",
  "home.warden.noneTitle": "成本看守人：",
  "home.warden.none": "本月无人（请在配置中设置 {key}）。",
  "home.fleet": "机群",
  "home.asOf": "截至 {at}（{zone}）· {example} 可查看单台主机的详情",
  "home.board.util": "利用率 {utils} %",
  "home.board.alertOpen": "提醒未关闭",
  "home.board.omitted": "{omitted}：{example} 可查看其中任何一台。",
};
