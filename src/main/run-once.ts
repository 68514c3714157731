import type { LedgerReport } from "../domain/ledger-report.ts";
import type { HostObservation } from "../domain/observation.ts";
import type { BotContext } from "../main.ts";
import { systemClock } from "../shared/clock.ts";
import { createSources } from "../sources/create-sources.ts";
import { type BackupResult, backupStore, type RestoreResult, restoreStore } from "../store/backup-store.ts";
import { createCostStores } from "../store/cost-stores.ts";
import { pollFleet } from "../usecases/fleet/poll-fleet.ts";
import { readLedgerReport, reportRange, todayLocal } from "../usecases/ledger/ledger-report.ts";
import { pollTimeoutMs } from "./create-poll.ts";
import { withStoreFile } from "./with-store-file.ts";

export { StoreMissingError } from "./with-store-file.ts";

// NOTE: the commands that run once and exit; nothing here loads the Slack app (Bolt), so they start
// in a fraction of the time `gpu-warden start` takes.

/** Polls every host once with the configured (or default) sources; nothing is written. */
export async function collectOnce(context: BotContext): Promise<HostObservation[]> {
  const { config } = context.loaded;
  const clock = context.clock ?? systemClock;
  const sources = createSources(config, { ...context, clock });
  const result = await pollFleet({
    sources,
    store: null,
    clock,
    logger: context.logger,
    metrics: null,
    timeoutMs: pollTimeoutMs(config.poll.interval_seconds),
  });
  return result.observations;
}

/**
 * `gpu-warden report`: rolls up what the store has not rolled up yet, brings the daily ledger up to
 * date for the range and reads it. Throws `ReportRangeError` for bad dates, {@link StoreMissingError}
 * when there is no store, `StoreProblemError` for a store it cannot open.
 */
export function reportOnce(
  context: Pick<BotContext, "loaded" | "clock">,
  range: { since: string; until: string | undefined },
): LedgerReport {
  const { config } = context.loaded;
  const clock = context.clock ?? systemClock;
  const days = reportRange(range.since, range.until, todayLocal({ clock, config }));
  return withStoreFile(config, (db, store) => {
    while (!store.rollup(clock.now(), config.policy.idle_util_pct, 24 * 7).complete) {}
    const stores = createCostStores(db);
    const ledger = {
      config,
      metrics: store,
      ledger: stores.ledger,
      rolledUpToMs: stores.rolledUpToMs,
      clock,
    };
    return readLedgerReport(ledger, days);
  });
}

/** `gpu-warden backup FILE`: an online copy of the store, safe while an instance runs. */
export function backupOnce(context: Pick<BotContext, "loaded">, file: string): Promise<BackupResult> {
  return backupStore(context.loaded.config.store.path, file);
}

/** `gpu-warden restore FILE`: the store replaced by a backup; refused while an instance runs. */
export function restoreOnce(
  context: Pick<BotContext, "loaded" | "clock">,
  file: string,
): Promise<RestoreResult> {
  return restoreStore(context.loaded.config.store.path, file, (context.clock ?? systemClock).now());
}
