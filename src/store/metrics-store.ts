import type { Database } from "better-sqlite3";
import { MINUTE_MS } from "../shared/clock.ts";
import { createCycleWriter } from "./cycle-writer.ts";
import { loadFleetCache } from "./fleet-cache.ts";
import { createMetaStore } from "./meta-store.ts";
import { createMetricsReads } from "./metrics-reads.ts";
import type { MetricsStore } from "./metrics-types.ts";
import { createMaintenance } from "./rollup.ts";

export interface MetricsStoreOptions {
  /**
   * The longest time one cycle's readings stand for (until the next cycle) in rollups; beyond it
   * the time is unknown. Pass about twice the poll interval. Default 5 minutes.
   */
  sampleSpanMaxMs?: number;
}

/**
 * The metrics repository over a database opened with `openDatabase`. Keeps the hosts, GPUs and
 * latest evidence in memory (loaded here), so only one store may write to a database at a time.
 */
export function createMetricsStore(db: Database, options: MetricsStoreOptions = {}): MetricsStore {
  const cache = loadFleetCache(db);
  const writeCycle = createCycleWriter(db, cache);
  const reads = createMetricsReads(db, cache);
  const maintenance = createMaintenance(db, createMetaStore(db), options.sampleSpanMaxMs ?? 5 * MINUTE_MS);
  return { writeCycle, ...reads, ...maintenance };
}
