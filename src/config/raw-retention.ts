import type { Config } from "./schema.ts";

/** Raw retention with a local, SSH or simulated source: the store is the only copy of the samples. */
export const LOCAL_RAW_RETENTION_DAYS = 8;
/** Raw retention when every source is a time-series engine: a day of the bot's own reads, no more. */
export const ENGINE_RAW_RETENTION_DAYS = 1;

/** `store.raw_retention_days`, or its default for the configured sources. */
export function rawRetentionDays(config: Pick<Config, "store" | "sources">): number {
  if (config.store.raw_retention_days !== undefined) return config.store.raw_retention_days;
  const engineOnly =
    config.sources.length > 0 && config.sources.every((source) => source.kind === "prometheus");
  return engineOnly ? ENGINE_RAW_RETENTION_DAYS : LOCAL_RAW_RETENTION_DAYS;
}
