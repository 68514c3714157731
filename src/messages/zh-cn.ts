import type { Catalog } from "./catalog.ts";
import { chart } from "./zh-cn/chart.ts";
import { common } from "./zh-cn/common.ts";
import { eta } from "./zh-cn/eta.ts";
import { heatmap } from "./zh-cn/heatmap.ts";
import { placement } from "./zh-cn/placement.ts";

/**
 * 简体中文目录：与 `en.ts` 同一组 id、同样的参数；术语遵循 `glossary.md`。中文只有一个复数类别
 * (`other`)，所以不需要复数分支。
 */
export const zhCN: Catalog = {
  ...common,
  ...chart,
  ...eta,
  ...heatmap,
  ...placement,
};
