import type { IdlePolicy } from "../../checks/idle-policy.ts";
import type { Config } from "../../config/schema.ts";

/**
 * The idle checks' policy from the configuration. A sample is stale after three poll intervals
 * (one late or lost poll is not a gap).
 */
export function idlePolicyOf(config: Config): IdlePolicy {
  const { policy } = config;
  return {
    idleUtilPct: policy.idle_util_pct,
    idleForMinutes: policy.idle_for_minutes,
    protectMinutes: policy.protect_minutes,
    staleAfterMinutes: (3 * config.poll.interval_seconds) / 60,
    noDataPolls: policy.no_data_polls,
    suspectIdlePowerW: policy.suspect_idle_power_watts,
    stopGraceMinutes: policy.stop_grace_minutes,
  };
}

/**
 * How much stored history a restart replays to rebuild the idle states: the protection window and
 * the idle window, plus half an hour. An idle stretch older than that is rebuilt from the window's
 * start (the alert keeps its own idle-since); a busy stretch older than that protects a little longer.
 */
export function restoreWindowMinutes(policy: IdlePolicy): number {
  return policy.protectMinutes + policy.idleForMinutes + 30;
}
