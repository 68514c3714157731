import type { Config } from "../../config/schema.ts";
import type { Clock } from "../../shared/clock.ts";
import type { MetricsStore } from "../../store/metrics-types.ts";

/** The most hours one read rolls up before answering; a longer backlog is the rollup job's. */
export const CATCH_UP_MAX_HOURS = 24 * 7;

/**
 * Rolls up every clock hour completed since the last rollup (at most {@link CATCH_UP_MAX_HOURS}),
 * so that a summary or a report read between the hourly rollups — right after a start — sees the
 * hours the store has.
 */
export function catchUpRollups(
  metrics: Pick<MetricsStore, "rollup">,
  config: Pick<Config, "policy">,
  clock: Clock,
): void {
  metrics.rollup(clock.now(), config.policy.idle_util_pct, CATCH_UP_MAX_HOURS);
}
