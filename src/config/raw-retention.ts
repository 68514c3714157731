import type { Config } from "./schema.ts";

/** Raw retention with a local, SSH or simulated source: the store is the only copy of the samples. */
export const LOCAL_RAW_RETENTION_DAYS = 8;

/** `store.raw_retention_days`, or its default: how long raw samples of local, SSH and simulated hosts stay. */
export function rawRetentionDays(config: Pick<Config, "store">): number {
  return config.store.raw_retention_days ?? LOCAL_RAW_RETENTION_DAYS;
}

/**
 * How long raw samples of Prometheus-compatible sources' hosts stay (the engine keeps them):
 * `store.raw_retention_days` when set, else only the window a restart rebuilds idle states from
 * (`protect_minutes` + `idle_for_minutes` + 30 min, as `restoreWindowMinutes`; 3 h by default).
 */
export function engineRawRetentionDays(config: Pick<Config, "store" | "policy">): number {
  const { protect_minutes, idle_for_minutes } = config.policy;
  return config.store.raw_retention_days ?? (protect_minutes + idle_for_minutes + 30) / (24 * 60);
}
