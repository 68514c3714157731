import { slotsBetween } from "../checks/cadence.ts";
import { DAY_MS } from "../shared/clock.ts";
import { summaryCadence } from "../usecases/ledger/build-summary.ts";
import { type PostSummaryDeps, postSummary, SUMMARY_ON_TIME_MS } from "../usecases/ledger/post-summary.ts";
import type { PersistedJob } from "./slot-runner.ts";

/**
 * The biweekly summary: every other `summary.weekday` at `summary.time` (team time zone) from
 * `summary.start_date` — a cadence cron cannot say, so the slots come from `cadence.ts`. Exactly
 * once per slot; after downtime the latest missed one is posted, marked late (within 14 days).
 * `graceMs`: a post within 30 minutes of its slot is on time (the last hour's rollup lands a few
 * minutes after it).
 */
export function summaryJob(deps: PostSummaryDeps): PersistedJob {
  const cadence = summaryCadence(deps.config);
  return {
    name: "summary",
    schedule: (afterMs, uptoMs) =>
      deps.config.summary.enabled ? slotsBetween(cadence, afterMs, uptoMs) : [],
    timezone: deps.config.team.timezone,
    catchUp: "once",
    catchUpWithinMs: 14 * DAY_MS,
    graceMs: SUMMARY_ON_TIME_MS,
    run: async (slot) => {
      await postSummary(deps, { atMs: slot.atMs, late: slot.late, commit: (effect) => slot.commit(effect) });
    },
  };
}
