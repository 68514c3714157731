import type { AreaCatalog } from "../catalog.ts";
import type { money as en } from "../en/money.ts";

export const money: AreaCatalog<typeof en> = {
  "money.overQuota":
    "项目 `{project}` 同时最多占用 {max} 块 GPU：现已占用 {held} 块，本次又要 {asked} 块。请先释放一些，或加上 `--wait` 加入等候队列。",
  "money.overQuota.waiting":
    "项目 `{project}` 同时最多占用 {max} 块 GPU，现已占用 {held} 块：本请求将等到还能再占用 {asked} 块时。",
};
