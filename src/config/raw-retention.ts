import type { Config } from "./schema.ts";

/** Raw retention with a local, SSH or simulated source: the store is the only copy of the samples. */
export const LOCAL_RAW_RETENTION_DAYS = 8;
/** Raw retention of hosts a time-series engine reports: none once their hour is rolled up (the engine keeps them). */
export const ENGINE_RAW_RETENTION_DAYS = 0;

/** `store.raw_retention_days`, or its default: how long raw samples of local, SSH and simulated hosts stay. */
export function rawRetentionDays(config: Pick<Config, "store">): number {
  return config.store.raw_retention_days ?? LOCAL_RAW_RETENTION_DAYS;
}

/** How long raw samples of Prometheus-compatible sources' hosts stay: `store.raw_retention_days` when set, else 0. */
export function engineRawRetentionDays(config: Pick<Config, "store">): number {
  return config.store.raw_retention_days ?? ENGINE_RAW_RETENTION_DAYS;
}
