import type { AreaCatalog } from "../catalog.ts";
import type { project as en } from "../en/project.ts";

export const project: AreaCatalog<typeof en> = {
  "project.unknown":
    "没有项目 `{asked}`。{count, plural, =0 {尚未设置任何项目（配置中的 `projects:`）。} other {现有项目：{known}。}}",
  "project.notMember": "你不是项目 `{project}` 的成员：请管理员在配置的 `projects:` 中加入你。",
  "project.none": "无项目",
};
