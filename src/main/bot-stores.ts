import type { Database } from "better-sqlite3";
import type { Config } from "../config/schema.ts";
import { createMetrics } from "../observability/metrics.ts";
import type { Clock } from "../shared/clock.ts";
import { createBotStateStore } from "../store/bot-state-store.ts";
import { createCostStores } from "../store/cost-stores.ts";
import { createMetricsStore } from "../store/metrics-store.ts";
import { createReclaimStore, type ReclaimStore } from "../store/reclaim-store.ts";
import { costWardenDepsOf } from "../usecases/warden/cost-warden-deps.ts";
import type { ReclaimLookup } from "../usecases/warden/warden-checklist.ts";

/**
 * The bot's repositories over its open, migrated store (production: `openOwnedStore`'s database, locked
 * while the bot runs), its Prometheus metrics and the cost warden's deps.
 */
export function botStoresOf(db: Database, config: Config, clock: Clock) {
  const store = createMetricsStore(db, { sampleSpanMaxMs: 2 * config.poll.interval_seconds * 1000 });
  const state = createBotStateStore(db);
  const metrics = createMetrics({
    outboxPending: () => state.outbox.pendingCount(),
    outboxOldestAgeMs: () => {
      const oldest = state.outbox.next();
      return oldest === null ? 0 : Math.max(0, clock.now() - oldest.createdAtMs);
    },
  });
  const reclaims = createReclaimStore(db);
  const costStores = createCostStores(db);
  const costWarden = costWardenDepsOf({
    config,
    metrics: store,
    stores: costStores,
    audit: state.audit,
    clock,
    pendingReclaims: pendingReclaimsOf(reclaims),
  });
  return { db, store, state, metrics, reclaims, costStores, costWarden };
}

export type BotStores = ReturnType<typeof botStoresOf>;

/** The reclaim cases awaiting the cost warden, as the warden's checklist reads them. */
function pendingReclaimsOf(reclaims: Pick<ReclaimStore, "allOpen">): ReclaimLookup {
  return {
    pending: () =>
      reclaims.allOpen().map((open) => ({
        host: open.host,
        sinceMs: open.startedAtMs,
        decideByMs: open.state === "due" ? null : open.observeUntilMs,
        meanUtilPct: open.windowMeanPct,
      })),
  };
}
