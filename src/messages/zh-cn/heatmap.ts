import type { AreaCatalog } from "../catalog.ts";
import type { heatmap as en } from "../en/heatmap.ts";

export const heatmap: AreaCatalog<typeof en> = {
  "heatmap.title": "每周各小时的 GPU 使用情况，{from, date, day} 至 {to, date, dayYear}",
  "heatmap.subtitle":
    "每台主机在每小时（{zone}）忙碌的 GPU 占比，依据最近 {weeks} 周的每小时读数；灰色：读数太少，无法判断。",
  "heatmap.title.project": "{project}：每周各小时的 GPU 使用情况，{from, date, day} 至 {to, date, dayYear}",
  "heatmap.subtitle.project":
    "每台主机在每小时（{zone}）为 {project} 忙碌的 GPU 占比，依据最近 {weeks} 周的每小时读数：先按其认领，再按其命名空间、标签和登录名；灰色：读数太少，无法判断。",
  "heatmap.alt.project":
    "{project} 在 {hosts} 台主机上每周各小时 GPU 使用情况热力图，{from, date, day} 至 {to, date, dayYear}。",
  "heatmap.command.sent": "热力图“{title}”已通过私信发给你。",
  "heatmap.command.noUse":
    "最近 8 周没有可通过认领、命名空间、标签或登录名归到 {project} 的 GPU 时间：私信中的热力图为空。",
  "heatmap.command.unknownProject": "没有名为 `{project}` 的项目。现有项目：{known}。",
  "heatmap.host": "{host}（{gpus} 块 GPU）",
  "heatmap.legend.idle": "闲置",
  "heatmap.legend.busy": "忙碌",
  "heatmap.legend.unknown": "无读数",
  "heatmap.more": "另有 {count} 台主机未绘出。",
  "heatmap.empty": "还没有主机有足够的每小时读数来得出每周各小时的使用情况。",
  "heatmap.alt": "{hosts} 台主机每周各小时 GPU 使用情况热力图，{from, date, day} 至 {to, date, dayYear}。",
  "heatmap.file.title": "每周各小时的 GPU 使用情况",
};
