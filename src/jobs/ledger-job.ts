import { setImmediate as yieldToLoop } from "node:timers/promises";
import { type LedgerDeps, updateLedger } from "../usecases/update-ledger.ts";
import type { CronJob } from "./schedule-jobs.ts";

/**
 * Keeps the daily cost ledger up to date, hourly after the rollup (and at start): every complete
 * local day without rows or with rows of old prices, and the last two days again. A few days per
 * batch, with a turn of the event loop between batches, so a long catch-up never holds up Slack acks.
 */
export function ledgerJob(deps: LedgerDeps): CronJob {
  return {
    name: "ledger",
    schedule: "0 20 * * * *",
    timezone: "UTC",
    runAtStart: true,
    run: async () => {
      while (!updateLedger(deps, { recentDays: 2, maxDays: 3 }).complete) await yieldToLoop();
    },
  };
}
