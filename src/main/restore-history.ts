import type { Source } from "../domain/source.ts";
import type { Clock } from "../shared/clock.ts";
import type { Logger } from "../shared/logger.ts";
import { storeProblemOf } from "../store/store-problem.ts";
import type { IdleAlerts } from "../usecases/alerts/idle-alerts.ts";
import { backfillSimulated } from "../usecases/fleet/backfill-simulated.ts";
import { HISTORY_DEADLINE_MS, seedHistory } from "../usecases/fleet/seed-history.ts";
import type { BotStores } from "./bot-stores.ts";

/**
 * At start-up: a fresh store gets the simulated fleet's recent history; the sources' history
 * (Prometheus, the look-back) is read only when the store knows nothing recent about some host (a
 * fresh store, or a gap longer than `windowMs`), and then only those hosts' older history is used;
 * the idle states are rebuilt from the last `windowMs`, in slices that let `/healthz` and Slack answer
 * meanwhile. Open alerts stay open (never posted again).
 * A store that cannot take these writes (a full disk) throws a `StoreProblemError` for the store at
 * `storePath`. Returns whether the look-back ran.
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
): Promise<boolean> {
  const { sources, store, alerts, clock, logger } = deps;
  let history: Awaited<ReturnType<typeof seedHistory>> = null;
  const recent = recentHostsIfNotAll(store, clock.now() - windowMs);
  try {
    if (store.hosts().length === 0) {
      const cycles = backfillSimulated(sources, store, { nowMs: clock.now(), windowMs, stepMs });
      if (cycles > 0) logger.info({ cycles }, "fresh store: wrote the simulated fleet's recent history");
    }
    if (recent !== null) {
      history = await seedHistory(
        { sources, store, clock, logger },
        { pollStepMs: stepMs, windowMs },
        AbortSignal.timeout(HISTORY_DEADLINE_MS),
      );
    }
  } catch (error) {
    throw storeProblemOf(deps.storePath, error);
  }
  if (history !== null && recent !== null && recent.size > 0) {
    const byHost = new Map([...history.prior.byHost].filter(([host]) => !recent.has(host)));
    await alerts.restoreInSlices({ ...history.prior, byHost });
  } else {
    await alerts.restoreInSlices(history?.prior);
  }
  if (recent === null) logger.info("the store knows every host recently: no look-back");
  return recent !== null;
}

/**
 * The hosts the store has a recent reading of (since `sinceMs`) when some known host has none;
 * `null` when every host it knows is recent (no look-back needed); an empty set for a fresh store.
 */
function recentHostsIfNotAll(store: BotStores["store"], sinceMs: number): Set<string> | null {
  const latest = store.latestSampleTimes();
  if (latest.size === 0) return new Set();
  const recent = new Set([...latest].filter(([, atMs]) => atMs >= sinceMs).map(([host]) => host));
  return recent.size === latest.size ? null : recent;
}
