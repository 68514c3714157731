import type { Database } from "better-sqlite3";
import { DAY_MS, HOUR_MS } from "../shared/clock.ts";
import { createEnginePrune } from "./engine-prune.ts";
import { createHourPacks, PACK_DAYS } from "./hour-packs.ts";
import type { MetaStore } from "./meta-store.ts";
import type { MetricsStore } from "./metrics-types.ts";
import { cycleKeyRange, ENTITY_SPAN, MAX_ENTITY_ID } from "./sample-key.ts";

/** The most hours without a pack one rollup call packs (an hour of 80,000 GPUs takes ~0.2 s). */
const PACK_FILL_HOURS = 6;

/** Meta key: every clock hour before this instant (epoch ms) is rolled up. */
export const ROLLED_UP_TO_KEY = "metrics.rolled_up_to_ms";

/**
 * Each cycle's readings stand for the time until the next cycle, at most `sampleSpanMaxMs`; what
 * no reading covers is unknown. One statement per hour: cycles near the hour get their weight
 * (clipped to the hour), then their samples, one key range per cycle, are summed per GPU.
 */
const ROLLUP_HOUR_SQL = `
  WITH ordered AS (
    SELECT id, at_ms, lead(at_ms) OVER (ORDER BY at_ms, id) AS next_ms
    FROM cycle WHERE at_ms >= :fromMs - :spanMs AND at_ms < :toMs + :spanMs
  ),
  weighted AS (
    SELECT id, min(coalesce(next_ms, at_ms + :spanMs), at_ms + :spanMs, :toMs) - max(at_ms, :fromMs) AS w
    FROM ordered WHERE at_ms < :toMs
  ),
  s AS (
    SELECT x.id & ${MAX_ENTITY_ID} AS gpu_id, x.util_pct, x.mem_used_mib, x.power_w,
      CASE WHEN x.util_pct >= :idlePct THEN weighted.w ELSE 0 END AS busy_w,
      CASE WHEN x.util_pct < :idlePct THEN weighted.w ELSE 0 END AS idle_w,
      x.util_pct * weighted.w AS util_w,
      CASE WHEN x.mem_used_mib IS NULL THEN 0 ELSE weighted.w END AS mem_known_w,
      x.mem_used_mib * weighted.w AS mem_w,
      x.power_w * weighted.w AS power_w_ms
    FROM weighted
    JOIN gpu_sample x ON x.id BETWEEN weighted.id * ${ENTITY_SPAN} AND weighted.id * ${ENTITY_SPAN} + ${MAX_ENTITY_ID}
    WHERE weighted.w > 0
  ),
  g AS (
    SELECT gpu_id, total(busy_w) AS busy_w, total(idle_w) AS idle_w, total(util_w) AS util_w, max(util_pct) AS util_max,
      total(mem_known_w) AS mem_known_w, total(mem_w) AS mem_w, max(mem_used_mib) AS mem_max,
      sum(power_w_ms) AS power_w_ms
    FROM s GROUP BY gpu_id
  )
  INSERT OR REPLACE INTO gpu_hour
    (hour_ms, gpu_id, util_mean_pct, util_max_pct, busy_min, idle_min, unknown_min, mem_mean_mib, mem_max_mib, energy_wh)
  SELECT :fromMs, gpu_id,
    CASE WHEN busy_w + idle_w > 0 THEN util_w / (busy_w + idle_w) END,
    util_max,
    busy_w / 60000.0,
    idle_w / 60000.0,
    (:toMs - :fromMs - busy_w - idle_w) / 60000.0,
    CASE WHEN mem_known_w > 0 THEN mem_w / mem_known_w END,
    mem_max,
    power_w_ms / ${HOUR_MS}.0
  FROM g`;

type Maintenance = Pick<MetricsStore, "rollup" | "prune">;

export function createMaintenance(db: Database, meta: MetaStore, sampleSpanMaxMs: number): Maintenance {
  const firstCycleAt = db.prepare("SELECT min(at_ms) FROM cycle").pluck();
  const nextCycleAt = db.prepare("SELECT min(at_ms) FROM cycle WHERE at_ms >= ?").pluck();
  const rollupHour = db.prepare(ROLLUP_HOUR_SQL);
  const oldCycles = db.prepare("SELECT id FROM cycle WHERE at_ms < ? ORDER BY at_ms LIMIT ?").pluck();
  const deleteGpuSamples = db.prepare("DELETE FROM gpu_sample WHERE id BETWEEN ? AND ?");
  const deleteHostSamples = db.prepare("DELETE FROM host_sample WHERE id BETWEEN ? AND ?");
  const deleteCycle = db.prepare("DELETE FROM cycle WHERE id = ?");
  const deleteRollups = db.prepare("DELETE FROM gpu_hour WHERE hour_ms < ?");
  const pruneEngine = createEnginePrune(db, meta);
  const packs = createHourPacks(db);

  const rolledUpTo = (): number | null => {
    const value = meta.get(ROLLED_UP_TO_KEY);
    return value === null ? null : Number(value);
  };
  const saveRolledUpTo = (ms: number) => meta.set(ROLLED_UP_TO_KEY, String(ms));
  const rollOneHour = db.transaction((fromMs: number, idlePct: number) => {
    rollupHour.run({ fromMs, toMs: fromMs + HOUR_MS, spanMs: sampleSpanMaxMs, idlePct });
    packs.pack(fromMs);
    saveRolledUpTo(fromMs + HOUR_MS);
  });
  const deleteCycles = db.transaction((ids: readonly number[]) => {
    for (const id of ids) {
      const [lo, hi] = cycleKeyRange(id);
      deleteGpuSamples.run(lo, hi);
      deleteHostSamples.run(lo, hi);
      deleteCycle.run(id);
    }
  });

  return {
    rollup(uptoMs, idleUtilPct, maxHours = 24) {
      const completeBefore = floorHour(uptoMs - sampleSpanMaxMs);
      let fromMs = rolledUpTo();
      if (fromMs === null) {
        const first = firstCycleAt.get() as number | null;
        if (first === null) return { hours: 0, rolledUpToMs: null, complete: true };
        fromMs = floorHour(first);
      }
      let hours = 0;
      while (fromMs < completeBefore) {
        const next = nextCycleAt.get(fromMs - sampleSpanMaxMs) as number | null;
        if (next === null || next >= fromMs + HOUR_MS) {
          fromMs = next === null ? completeBefore : Math.min(floorHour(next), completeBefore);
          saveRolledUpTo(fromMs);
          continue;
        }
        if (hours >= maxHours) return { hours, rolledUpToMs: fromMs, complete: false };
        rollOneHour(fromMs, idleUtilPct);
        fromMs += HOUR_MS;
        hours++;
      }
      // NOTE: hours rolled up before the packs existed (schema step 15) are packed here, a budget at a time.
      const packBudget = Math.min(maxHours - hours, PACK_FILL_HOURS);
      const packed = packBudget > 0 ? packs.fill(fromMs - PACK_DAYS * DAY_MS, fromMs, packBudget) : 0;
      return { hours, rolledUpToMs: rolledUpTo(), complete: packBudget <= 0 || packed < packBudget };
    },

    prune(nowMs, rawRetentionDays, rollupRetentionDays, maxCycles = 240, engineRawRetentionDays) {
      const watermark = rolledUpTo();
      let cycles = 0;
      let complete = true;
      if (watermark !== null) {
        const cutoffMs = Math.min(nowMs - rawRetentionDays * DAY_MS, watermark - sampleSpanMaxMs);
        const ids = oldCycles.all(cutoffMs, maxCycles + 1) as number[];
        complete = ids.length <= maxCycles;
        const batch = ids.slice(0, maxCycles);
        deleteCycles(batch);
        cycles = batch.length;
        if (engineRawRetentionDays !== undefined && engineRawRetentionDays < rawRetentionDays) {
          const engineCutoffMs = Math.min(
            nowMs - engineRawRetentionDays * DAY_MS,
            watermark - sampleSpanMaxMs,
          );
          const engine = pruneEngine(engineCutoffMs, maxCycles);
          cycles += engine.cycles;
          complete &&= engine.complete;
        }
      }
      const gpuHours = deleteRollups.run(nowMs - rollupRetentionDays * DAY_MS).changes;
      packs.prune(nowMs - Math.min(PACK_DAYS, rollupRetentionDays) * DAY_MS);
      return { cycles, gpuHours, complete };
    },
  };
}

function floorHour(ms: number): number {
  return Math.floor(ms / HOUR_MS) * HOUR_MS;
}
