import { setImmediate as yieldToLoop } from "node:timers/promises";
import { type LedgerDeps, updateLedger } from "../usecases/ledger/update-ledger.ts";
import type { CronJob } from "./schedule-jobs.ts";

/**
 * Keeps the daily cost ledger up to date, hourly after the rollup (and at start): every complete
 * local day without rows or with rows of old prices. One day per batch, with a turn of the event
 * loop between batches, so a long catch-up never holds up Slack acks.
 */
export function ledgerJob(deps: LedgerDeps): CronJob {
  return {
    name: "ledger",
    schedule: "0 20 * * * *",
    timezone: "UTC",
    runAtStart: true,
    run: async () => {
      while (!updateLedger(deps, { maxDays: 1 }).complete) await yieldToLoop();
    },
  };
}
