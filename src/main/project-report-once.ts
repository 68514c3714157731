import type { BotContext } from "../main.ts";
import { systemClock } from "../shared/clock.ts";
import { createBotStateStore } from "../store/bot-state-store.ts";
import { createCostStores } from "../store/cost-stores.ts";
import { todayLocal } from "../usecases/ledger/ledger-report.ts";
import { type ProjectReport, readProjectReport } from "../usecases/ledger/project-report.ts";
import { withStoreFile } from "./with-store-file.ts";

/**
 * `gpu-warden report --by project`: opens the store read-write (the ledger and rollups are brought
 * up to date) and splits `month` (`YYYY-MM`, default this month, team time zone) among projects.
 * Throws {@link StoreMissingError} when there is no store, `StoreProblemError` for one it cannot open.
 */
export function projectReportOnce(
  context: Pick<BotContext, "loaded" | "clock">,
  month: string | undefined,
): ProjectReport {
  const { config } = context.loaded;
  const clock = context.clock ?? systemClock;
  return withStoreFile(config, (db, store) => {
    while (!store.rollup(clock.now(), config.policy.idle_util_pct, 24 * 7).complete) {}
    const stores = createCostStores(db);
    const state = createBotStateStore(db);
    const deps = {
      config,
      metrics: store,
      ledger: stores.ledger,
      rolledUpToMs: stores.rolledUpToMs,
      clock,
      claims: state.claims,
      queue: state.queue,
      workloads: state.workloads,
    };
    return readProjectReport(deps, month ?? todayLocal({ clock, config }).slice(0, 7));
  });
}
