import { chart } from "./en/chart.ts";
import { common } from "./en/common.ts";
import { eta } from "./en/eta.ts";
import { heatmap } from "./en/heatmap.ts";
import { placement } from "./en/placement.ts";

/**
 * The English catalog: every message id with its ICU MessageFormat text, one file per area in `en/`
 * (ids start with the area's name). It defines the ids (the other languages must have the same ids
 * with the same arguments); `zh-cn/` follows it and the glossary (`glossary.md`).
 *
 * Named formats the translator provides (see `translator.ts`): numbers `money` (team currency, whole
 * units), `moneyCents` (with cents), `pct` (a fraction: 0.42 → `42%`), `decimal1`; dates and times in the team
 * zone `day`, `dayYear`, `weekdayDay`, `weekday`, `month`, `time`, `dayTime`.
 *
 * A plural or select branch is never a single word (`one {is}`): the type-level argument finder
 * (`ArgNames` in `catalog.ts`) would read it as an argument; the catalog test checks this.
 */
export const en = {
  ...common,
  ...chart,
  ...eta,
  ...heatmap,
  ...placement,
} as const satisfies Record<string, string>;
