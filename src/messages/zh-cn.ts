import type { Catalog } from "./catalog.ts";
import { alert } from "./zh-cn/alert.ts";
import { autopilot } from "./zh-cn/autopilot.ts";
import { chart } from "./zh-cn/chart.ts";
import { claim } from "./zh-cn/claim.ts";
import { cli } from "./zh-cn/cli.ts";
import { collect } from "./zh-cn/collect.ts";
import { command } from "./zh-cn/command.ts";
import { common } from "./zh-cn/common.ts";
import { config } from "./zh-cn/config.ts";
import { csv } from "./zh-cn/csv.ts";
import { eta } from "./zh-cn/eta.ts";
import { extend } from "./zh-cn/extend.ts";
import { heatmap } from "./zh-cn/heatmap.ts";
import { help } from "./zh-cn/help.ts";
import { home } from "./zh-cn/home.ts";
import { host } from "./zh-cn/host.ts";
import { hygiene } from "./zh-cn/hygiene.ts";
import { keep } from "./zh-cn/keep.ts";
import { ledger } from "./zh-cn/ledger.ts";
import { lint } from "./zh-cn/lint.ts";
import { money } from "./zh-cn/money.ts";
import { placement } from "./zh-cn/placement.ts";
import { playground } from "./zh-cn/playground.ts";
import { preempt } from "./zh-cn/preempt.ts";
import { priority } from "./zh-cn/priority.ts";
import { procurement } from "./zh-cn/procurement.ts";
import { project } from "./zh-cn/project.ts";
import { queue } from "./zh-cn/queue.ts";
import { reclaim } from "./zh-cn/reclaim.ts";
import { release } from "./zh-cn/release.ts";
import { report } from "./zh-cn/report.ts";
import { reserve } from "./zh-cn/reserve.ts";
import { start } from "./zh-cn/start.ts";
import { status } from "./zh-cn/status.ts";
import { stop } from "./zh-cn/stop.ts";
import { summary } from "./zh-cn/summary.ts";
import { warden } from "./zh-cn/warden.ts";
import { whatIf } from "./zh-cn/what-if.ts";

/**
 * 简体中文目录：与 `en.ts` 同一组 id、同样的参数；术语遵循 `glossary.md`。中文只有一个复数类别
 * (`other`)，所以不需要复数分支。
 */
export const zhCN: Catalog = {
  ...common,
  ...chart,
  ...alert,
  ...autopilot,
  ...stop,
  ...start,
  ...status,
  ...host,
  ...keep,
  ...ledger,
  ...whatIf,
  ...claim,
  ...release,
  ...extend,
  ...queue,
  ...home,
  ...preempt,
  ...priority,
  ...procurement,
  ...project,
  ...money,
  ...summary,
  ...csv,
  ...warden,
  ...reclaim,
  ...report,
  ...command,
  ...help,
  ...config,
  ...collect,
  ...cli,
  ...lint,
  ...hygiene,
  ...reserve,
  ...eta,
  ...heatmap,
  ...placement,
  ...playground,
};
