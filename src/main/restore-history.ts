import type { Source } from "../domain/source.ts";
import type { Clock } from "../shared/clock.ts";
import type { Logger } from "../shared/logger.ts";
import { storeProblemOf } from "../store/store-problem.ts";
import { backfillSimulated } from "../usecases/backfill-simulated.ts";
import type { IdleAlerts } from "../usecases/idle-alerts.ts";
import { HISTORY_DEADLINE_MS, seedHistory } from "../usecases/seed-history.ts";
import type { BotStores } from "./bot-stores.ts";

/**
 * At start-up: a fresh store gets the simulated fleet's recent history, then the sources' history
 * (Prometheus) seeds the store, and the idle states are rebuilt from the last `windowMs`. A store
 * that cannot take these writes (a full disk) throws a `StoreProblemError` for the store at `storePath`.
 */
export async function restoreHistory(
  deps: {
    sources: Source[];
    store: BotStores["store"];
    storePath: string;
    alerts: IdleAlerts;
    clock: Clock;
    logger: Logger;
  },
  windowMs: number,
  stepMs: number,
): Promise<void> {
  const { sources, store, alerts, clock, logger } = deps;
  let history: Awaited<ReturnType<typeof seedHistory>>;
  try {
    if (store.hosts().length === 0) {
      const cycles = backfillSimulated(sources, store, { nowMs: clock.now(), windowMs, stepMs });
      if (cycles > 0) logger.info({ cycles }, "fresh store: wrote the simulated fleet's recent history");
    }
    history = await seedHistory(
      { sources, store, clock, logger },
      { pollStepMs: stepMs, windowMs },
      AbortSignal.timeout(HISTORY_DEADLINE_MS),
    );
  } catch (error) {
    throw storeProblemOf(deps.storePath, error);
  }
  alerts.restore(history?.prior);
}
