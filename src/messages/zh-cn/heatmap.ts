import type { AreaCatalog } from "../catalog.ts";
import type { heatmap as en } from "../en/heatmap.ts";

export const heatmap: AreaCatalog<typeof en> = {
  "heatmap.title": "每周各小时的 GPU 使用情况，{from, date, day} 至 {to, date, dayYear}",
  "heatmap.subtitle":
    "每台主机在每小时（{zone}）忙碌的 GPU 占比，依据最近 {weeks} 周的每小时读数；灰色：读数太少，无法判断。",
  "heatmap.host": "{host}（{gpus} 块 GPU）",
  "heatmap.legend.idle": "闲置",
  "heatmap.legend.busy": "忙碌",
  "heatmap.legend.unknown": "无读数",
  "heatmap.more": "另有 {count} 台主机未绘出。",
  "heatmap.empty": "还没有主机有足够的每小时读数来得出每周各小时的使用情况。",
  "heatmap.alt": "{hosts} 台主机每周各小时 GPU 使用情况热力图，{from, date, day} 至 {to, date, dayYear}。",
  "heatmap.file.title": "每周各小时的 GPU 使用情况",
};
