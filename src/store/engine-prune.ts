import type { Database } from "better-sqlite3";
import type { MetaStore } from "./meta-store.ts";
import { cycleKeyRange, MAX_ENTITY_ID } from "./sample-key.ts";

/** Meta key: the engine hosts' raw samples of every cycle up to this id are deleted. */
const ENGINE_PRUNED_KEY = "metrics.engine_pruned_cycle";
/** The source kind whose hosts' samples a time-series engine keeps (Prometheus, VictoriaMetrics…). */
const ENGINE_SOURCE = "prometheus";

/**
 * Deletes the raw samples of hosts a time-series engine reports, cycle by cycle, for cycles before
 * `cutoffMs` (the caller keeps it before what is rolled up), at most `maxCycles` a call; other hosts'
 * samples and the cycles themselves stay. Resumes where the last call stopped.
 */
export function createEnginePrune(
  db: Database,
  meta: MetaStore,
): (cutoffMs: number, maxCycles: number) => { cycles: number; complete: boolean } {
  const engineCycles = db
    .prepare("SELECT id FROM cycle WHERE id > ? AND at_ms < ? ORDER BY id LIMIT ?")
    .pluck();
  const deleteGpuSamples = db.prepare(
    `DELETE FROM gpu_sample WHERE id BETWEEN ? AND ? AND (id & ${MAX_ENTITY_ID}) IN
      (SELECT gpu.id FROM gpu JOIN host ON host.id = gpu.host_id WHERE host.source = '${ENGINE_SOURCE}')`,
  );
  const deleteHostSamples = db.prepare(
    `DELETE FROM host_sample WHERE id BETWEEN ? AND ? AND (id & ${MAX_ENTITY_ID}) IN
      (SELECT id FROM host WHERE source = '${ENGINE_SOURCE}')`,
  );
  const deleteCycles = db.transaction((ids: readonly number[]) => {
    for (const id of ids) {
      const [lo, hi] = cycleKeyRange(id);
      deleteGpuSamples.run(lo, hi);
      deleteHostSamples.run(lo, hi);
    }
    if (ids.length > 0) meta.set(ENGINE_PRUNED_KEY, String(ids.at(-1)));
  });
  return (cutoffMs, maxCycles) => {
    const after = Number(meta.get(ENGINE_PRUNED_KEY) ?? 0);
    const ids = engineCycles.all(after, cutoffMs, maxCycles + 1) as number[];
    const batch = ids.slice(0, maxCycles);
    deleteCycles(batch);
    return { cycles: batch.length, complete: ids.length <= maxCycles };
  };
}
