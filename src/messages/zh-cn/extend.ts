import type { AreaCatalog } from "../catalog.ts";
import type { extend as en } from "../en/extend.ts";

export const extend: AreaCatalog<typeof en> = {
  "extend.extended": "{parts}{cap}。",
  "extend.part": "{what} 归你，至 {until}",
  "extend.capped": "：最长的认领是从现在起 {max}，已截至此时",
  "extend.none": "你在 {what} 上没有认领：{example} 即可认领。",
  "extend.refused": "{holders} 只有认领人可以延长认领。",
};
