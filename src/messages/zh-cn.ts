import type { Catalog } from "./catalog.ts";
import { chart } from "./zh-cn/chart.ts";
import { cli } from "./zh-cn/cli.ts";
import { collect } from "./zh-cn/collect.ts";
import { command } from "./zh-cn/command.ts";
import { common } from "./zh-cn/common.ts";
import { config } from "./zh-cn/config.ts";
import { help } from "./zh-cn/help.ts";

/**
 * 简体中文目录：与 `en.ts` 同一组 id、同样的参数；术语遵循 `glossary.md`。中文只有一个复数类别
 * (`other`)，所以不需要复数分支。
 */
export const zhCN: Catalog = {
  ...common,
  ...chart,
  ...command,
  ...help,
  ...config,
  ...collect,
  ...cli,
};
