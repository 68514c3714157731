import { alert } from "./en/alert.ts";
import { autopilot } from "./en/autopilot.ts";
import { chart } from "./en/chart.ts";
import { claim } from "./en/claim.ts";
import { cli } from "./en/cli.ts";
import { collect } from "./en/collect.ts";
import { command } from "./en/command.ts";
import { common } from "./en/common.ts";
import { config } from "./en/config.ts";
import { csv } from "./en/csv.ts";
import { eta } from "./en/eta.ts";
import { extend } from "./en/extend.ts";
import { heatmap } from "./en/heatmap.ts";
import { help } from "./en/help.ts";
import { home } from "./en/home.ts";
import { host } from "./en/host.ts";
import { hygiene } from "./en/hygiene.ts";
import { keep } from "./en/keep.ts";
import { ledger } from "./en/ledger.ts";
import { lint } from "./en/lint.ts";
import { money } from "./en/money.ts";
import { placement } from "./en/placement.ts";
import { playground } from "./en/playground.ts";
import { preempt } from "./en/preempt.ts";
import { priority } from "./en/priority.ts";
import { procurement } from "./en/procurement.ts";
import { project } from "./en/project.ts";
import { queue } from "./en/queue.ts";
import { reclaim } from "./en/reclaim.ts";
import { release } from "./en/release.ts";
import { report } from "./en/report.ts";
import { reserve } from "./en/reserve.ts";
import { start } from "./en/start.ts";
import { status } from "./en/status.ts";
import { stop } from "./en/stop.ts";
import { summary } from "./en/summary.ts";
import { warden } from "./en/warden.ts";
import { whatIf } from "./en/what-if.ts";

/**
 * The English catalog: every message id with its ICU MessageFormat text, one file per area in `en/`
 * (ids start with the area's name). It defines the ids (the other languages must have the same ids
 * with the same arguments); `zh-cn/` follows it and the glossary (`glossary.md`).
 *
 * Named formats the translator provides (see `translator.ts`): numbers `money` (team currency, whole
 * units), `moneyCents` (with cents), `pct` (a fraction: 0.42 → `42%`), `decimal1`; dates and times in the team
 * zone `day`, `dayYear`, `weekdayDay`, `weekday`, `month`, `time`, `dayTime`, `weekdayDayTime`,
 * `weekdayDayYear`, `monthYear`.
 *
 * A plural or select branch is never a single word (`one {is}`): the type-level argument finder
 * (`ArgNames` in `catalog.ts`) would read it as an argument; the catalog test checks this.
 */
export const en = {
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
} as const satisfies Record<string, string>;
