import type { AreaCatalog } from "../catalog.ts";
import type { priority as en } from "../en/priority.ts";

export const priority: AreaCatalog<typeof en> = {
  "priority.heading": "*优先级与项目*",
  "priority.entry": "{position}. {who}：优先级 {priority}，{project}",
  "priority.project": "项目 {name}",
};
