import { existsSync } from "node:fs";
import { isLocalDay, localDayStartMs } from "../checks/local-day.ts";
import type { LoadedConfig } from "../config/load-config.ts";
import type { WhatIfReport } from "../domain/what-if-report.ts";
import { type Clock, DAY_MS, HOUR_MS, systemClock } from "../shared/clock.ts";
import { createMetricsStore } from "../store/metrics-store.ts";
import { openDatabase } from "../store/open-database.ts";
import { inspectStorePath, storeProblemOf } from "../store/store-problem.ts";
import { replayWhatIf } from "../usecases/replay-what-if.ts";
import { StoreMissingError } from "./run-once.ts";

/** `--since` that is neither a span (`30d`, `12h`) nor a date (`YYYY-MM-DD`). */
export class WhatIfSinceError extends Error {
  readonly typed: string;
  constructor(typed: string) {
    super(`--since ${typed} is not a span or a date`);
    this.typed = typed;
  }
}

/** `30d` / `12h` back from `nowMs`, or local midnight of `YYYY-MM-DD` in `zone`. */
export function whatIfSinceMs(typed: string, nowMs: number, zone: string): number {
  const span = /^([1-9][0-9]{0,3})([dh])$/.exec(typed);
  if (span !== null) return nowMs - Number(span[1]) * (span[2] === "d" ? DAY_MS : HOUR_MS);
  if (isLocalDay(typed)) return localDayStartMs(typed, zone);
  throw new WhatIfSinceError(typed);
}

/**
 * `gpu-warden what-if`: the store's readings since `since` (default 30 days) replayed under each
 * policy. Throws {@link StoreMissingError} without a store, `StoreProblemError` for one it cannot
 * open, {@link WhatIfSinceError} and `WhatIfPolicyError` for bad options.
 */
export function whatIfOnce(
  context: { loaded: Pick<LoadedConfig, "config">; clock?: Clock },
  options: { since: string | undefined; policies: readonly string[] },
): WhatIfReport {
  const { config } = context.loaded;
  const nowMs = (context.clock ?? systemClock).now();
  const sinceMs = whatIfSinceMs(options.since ?? "30d", nowMs, config.team.timezone);
  if (!existsSync(config.store.path)) {
    throw new StoreMissingError(
      `no store at ${config.store.path}: it is written by 'gpu-warden start' (store.path in the config)`,
    );
  }
  inspectStorePath(config.store.path);
  let db: ReturnType<typeof openDatabase>;
  try {
    db = openDatabase(config.store.path);
  } catch (error) {
    throw storeProblemOf(config.store.path, error);
  }
  try {
    const metrics = createMetricsStore(db, { sampleSpanMaxMs: 2 * config.poll.interval_seconds * 1000 });
    return replayWhatIf({ config, metrics }, { sinceMs, policies: options.policies });
  } finally {
    db.close();
  }
}
