import type { Catalog } from "./catalog.ts";
import { alert } from "./zh-cn/alert.ts";
import { chart } from "./zh-cn/chart.ts";
import { common } from "./zh-cn/common.ts";
import { host } from "./zh-cn/host.ts";
import { keep } from "./zh-cn/keep.ts";
import { status } from "./zh-cn/status.ts";
import { stop } from "./zh-cn/stop.ts";

/**
 * 简体中文目录：与 `en.ts` 同一组 id、同样的参数；术语遵循 `glossary.md`。中文只有一个复数类别
 * (`other`)，所以不需要复数分支。
 */
export const zhCN: Catalog = {
  ...common,
  ...chart,
  ...alert,
  ...stop,
  ...status,
  ...host,
  ...keep,
};
