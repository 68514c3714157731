import type { Database } from "better-sqlite3";
import type { AuditEntry } from "../domain/audit-entry.ts";
import type { Claim } from "../domain/claim.ts";
import type { GpuRollupTotals } from "../domain/metrics.ts";
import { createAuditStore } from "./audit-store.ts";

/**
 * Hourly GPU rollups as columns (one typed array per field, no object per row): what the summary
 * reads for 1,000 GPUs × 14 days (336,000 rows) without the garbage. `NaN` is "no value".
 */
export interface HourRows {
  length: number;
  /** The GPUs the rows refer to; `gpu[i]` indexes this list. */
  gpus: readonly { host: string; index: number }[];
  gpu: Int32Array;
  hourMs: Float64Array;
  /** `NaN`: no utilisation reading in the hour. */
  utilMeanPct: Float64Array;
  busyMinutes: Float64Array;
  idleMinutes: Float64Array;
  /** `NaN`: no power reading in the hour. */
  energyWh: Float64Array;
}

/** One GPU's rollups summed over a period: the fields of `GpuRollupTotals` the summary uses. */
export type GpuPeriodTotals = Pick<
  GpuRollupTotals,
  "host" | "index" | "hours" | "utilMeanPct" | "busyMinutes" | "idleMinutes" | "unknownMinutes" | "energyWh"
>;

/** A claim as the summary needs it: who held which GPUs, from when to when (`null` GPU: the whole host). */
export type ClaimSpan = Pick<Claim, "host" | "gpuIndex" | "user" | "fromMs" | "untilMs" | "releasedAtMs">;

/** What the biweekly summary reads beyond the metrics, and the do-not-renew flags sent. */
export interface SummaryStore {
  /** Records a do-not-renew flag; false when this host was already flagged for this slot. */
  flagRenewal(flag: { host: string; slotMs: number; utilPct: number; previousUtilPct: number }): boolean;
  /**
   * The hourly rollups with `fromMs <= hourMs < toMs` as columns, by hour then GPU: what
   * `rollupsBetween` returns, without an object per row.
   */
  hourRows(fromMs: number, toMs: number): HourRows;
  /** Per-GPU sums of the hourly rollups with `fromMs <= hourMs < toMs` (what the trend needs of `rollupTotals`). */
  gpuTotals(fromMs: number, toMs: number): GpuPeriodTotals[];
  /** Audit entries with one of `actions` and `fromMs <= atMs < toMs`, oldest first. */
  auditBetween(actions: readonly string[], fromMs: number, toMs: number): AuditEntry[];
}

const HOUR_MS = 3_600_000;

export function createSummaryStore(db: Database): SummaryStore {
  const audit = createAuditStore(db);
  const insertFlag = db.prepare(
    `INSERT INTO renewal_flag (host, slot_ms, util_pct, previous_util_pct) VALUES (?, ?, ?, ?)
     ON CONFLICT DO NOTHING`,
  );
  const selectGpus = db
    .prepare("SELECT g.id, h.name, g.idx FROM gpu g JOIN host h ON h.id = g.host_id")
    .raw();
  // NOTE: one row per hour, its GPUs packed as a JSON array of numbers: the 336,000 rows of two
  // weeks of 1,000 GPUs cross into JavaScript as 336 strings instead of 336,000 row objects.
  // SQLite (3.53) writes a REAL as the shortest text that reads back to the same double: lossless.
  const selectPackedHours = db
    .prepare(
      `SELECT hour_ms, '[' || group_concat(gpu_id || ',' || ifnull(util_mean_pct, 'null') || ',' || busy_min
         || ',' || idle_min || ',' || ifnull(energy_wh, 'null'), ',') || ']'
       FROM gpu_hour WHERE hour_ms >= ? AND hour_ms < ? GROUP BY hour_ms ORDER BY hour_ms`,
    )
    .raw();
  const selectTotals = db
    .prepare(
      `SELECT gpu_id, count(*),
         total(util_mean_pct * (busy_min + idle_min)) / nullif(total(iif(util_mean_pct IS NULL, 0, busy_min + idle_min)), 0),
         total(busy_min), total(idle_min), total(unknown_min), sum(energy_wh)
       FROM gpu_hour WHERE hour_ms >= ? AND hour_ms < ? GROUP BY gpu_id`,
    )
    .raw();
  return {
    hourRows(fromMs, toMs) {
      const gpuOf = new Map<number, { host: string; index: number }>();
      for (const [id, host, index] of selectGpus.all() as [number, string, number][])
        gpuOf.set(id, { host, index });
      // NOTE: at most one row per GPU and clock hour (the primary key): an upper bound, no count(*) scan.
      const hours = Math.max(0, Math.ceil(toMs / HOUR_MS) - Math.ceil(fromMs / HOUR_MS));
      const capacity = hours * gpuOf.size;
      const gpu = new Int32Array(capacity);
      const hourMs = new Float64Array(capacity);
      const utilMeanPct = new Float64Array(capacity);
      const busyMinutes = new Float64Array(capacity);
      const idleMinutes = new Float64Array(capacity);
      const energyWh = new Float64Array(capacity);
      const slots = new Map<number, number>();
      const gpus: { host: string; index: number }[] = [];
      let i = 0;
      for (const [hour, packed] of selectPackedHours.iterate(fromMs, toMs) as Iterable<[number, string]>) {
        const values = JSON.parse(packed) as (number | null)[];
        for (let k = 0; k + 4 < values.length && i < capacity; k += 5, i++) {
          const gpuId = values[k] as number;
          let slot = slots.get(gpuId);
          if (slot === undefined) {
            slot = gpus.length;
            gpus.push(gpuOf.get(gpuId) ?? { host: `gpu#${gpuId}`, index: gpuId });
            slots.set(gpuId, slot);
          }
          gpu[i] = slot;
          hourMs[i] = hour;
          utilMeanPct[i] = values[k + 1] ?? Number.NaN;
          busyMinutes[i] = values[k + 2] as number;
          idleMinutes[i] = values[k + 3] as number;
          energyWh[i] = values[k + 4] ?? Number.NaN;
        }
      }
      return {
        length: i,
        gpus,
        gpu: gpu.subarray(0, i),
        hourMs: hourMs.subarray(0, i),
        utilMeanPct: utilMeanPct.subarray(0, i),
        busyMinutes: busyMinutes.subarray(0, i),
        idleMinutes: idleMinutes.subarray(0, i),
        energyWh: energyWh.subarray(0, i),
      };
    },
    gpuTotals(fromMs, toMs) {
      const gpuOf = new Map<number, { host: string; index: number }>();
      for (const [id, host, index] of selectGpus.all() as [number, string, number][])
        gpuOf.set(id, { host, index });
      return (selectTotals.all(fromMs, toMs) as (number | null)[][]).flatMap((row) => {
        const known = gpuOf.get(row[0] as number);
        if (known === undefined) return [];
        return [
          {
            host: known.host,
            index: known.index,
            hours: row[1] as number,
            utilMeanPct: row[2] ?? null,
            busyMinutes: row[3] as number,
            idleMinutes: row[4] as number,
            unknownMinutes: row[5] as number,
            energyWh: row[6] ?? null,
          },
        ];
      });
    },
    flagRenewal: (flag) =>
      insertFlag.run(flag.host, flag.slotMs, flag.utilPct, flag.previousUtilPct).changes === 1,
    auditBetween: (actions, fromMs, toMs) => audit.between(actions, fromMs, toMs),
  };
}
