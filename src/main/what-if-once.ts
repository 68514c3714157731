import { isLocalDay, localDayStartMs } from "../checks/local-day.ts";
import type { WhatIfReport } from "../domain/what-if-report.ts";
import type { BotContext } from "../main.ts";
import { type Clock, DAY_MS, HOUR_MS, systemClock } from "../shared/clock.ts";
import { createSources } from "../sources/create-sources.ts";
import { replayWhatIf } from "../usecases/autopilot/replay-what-if.ts";
import { withStoreFileAsync } from "./with-store-file.ts";

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
 * `gpu-warden what-if`: the fleet's history since `since` (default 30 days) replayed under each
 * policy; the hosts of a Prometheus-compatible source from the engine's history, the others from the
 * store's readings. Throws {@link StoreMissingError} without a store, `StoreProblemError` for one it
 * cannot open, {@link WhatIfSinceError} and `WhatIfPolicyError` for bad options.
 */
export function whatIfOnce(
  context: Pick<BotContext, "loaded" | "logger" | "hostName" | "pathEnv"> & { clock?: Clock },
  options: { since: string | undefined; policies: readonly string[] },
): Promise<WhatIfReport> {
  const { config } = context.loaded;
  const clock = context.clock ?? systemClock;
  const nowMs = clock.now();
  const sinceMs = whatIfSinceMs(options.since ?? "30d", nowMs, config.team.timezone);
  const sources = createSources(config, { ...context, clock });
  return withStoreFileAsync(config, (_db, metrics) =>
    replayWhatIf({ config, metrics, sources }, { sinceMs, untilMs: nowMs, policies: options.policies }),
  );
}
