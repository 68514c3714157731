import type { Database } from "better-sqlite3";
import { DAY_MS, HOUR_MS } from "../shared/clock.ts";
import { PACK_DAYS } from "./hour-packs.ts";
import { SAVED_FIELDS, type SavedSums } from "./period-sums.ts";

/** Running sums kept for a period (schema step 17): of its hours that start before `coveredMs`. */
export interface KeptSums extends SavedSums {
  coveredMs: number;
}

/** The `period_totals` table: each summary period's per-GPU sums, for the summary after it. */
export interface PeriodTotals {
  /** The sums kept for the period starting at `fromMs` that cover no hour starting at or after `toMs`; `null`: none. */
  kept(fromMs: number, toMs: number): KeptSums | null;
  /**
   * Keeps `sums`, of the `hoursRead` hours with rollups from `fromMs` to `coveredMs`, when each of
   * them was read from its pack (a pack written later deletes them again); drops sums of periods
   * older than the packs. False when not kept.
   */
  keep(fromMs: number, sums: KeptSums, hoursRead: number): boolean;
}

export function createPeriodTotals(db: Database): PeriodTotals {
  const select = db
    .prepare("SELECT covered_ms, gpu_ids, sums FROM period_totals WHERE from_ms = ? AND covered_ms <= ?")
    .raw();
  const packCount = db
    .prepare("SELECT count(*) FROM gpu_hour_pack WHERE hour_ms >= ? AND hour_ms < ?")
    .pluck();
  const insert = db.prepare(
    "INSERT OR REPLACE INTO period_totals (from_ms, covered_ms, gpus, gpu_ids, sums) VALUES (?, ?, ?, ?, ?)",
  );
  const prune = db.prepare("DELETE FROM period_totals WHERE from_ms < ?");
  const write = db.transaction((fromMs: number, sums: KeptSums) => {
    prune.run(fromMs - PACK_DAYS * DAY_MS);
    insert.run(fromMs, sums.coveredMs, sums.gpuIds.length, bytes(sums.gpuIds), bytes(sums.sums));
  });
  return {
    kept(fromMs, toMs) {
      const row = select.get(fromMs, Math.ceil(toMs / HOUR_MS) * HOUR_MS) as
        | [number, Buffer, Buffer]
        | undefined;
      if (row === undefined) return null;
      const [coveredMs, ids, sums] = row;
      const gpuIds = new Int32Array(ids.buffer.slice(ids.byteOffset, ids.byteOffset + ids.byteLength));
      const values = new Float64Array(sums.buffer.slice(sums.byteOffset, sums.byteOffset + sums.byteLength));
      if (values.length !== gpuIds.length * SAVED_FIELDS) return null;
      return { coveredMs, gpuIds, sums: values };
    },
    keep(fromMs, sums, hoursRead) {
      if (hoursRead === 0 || packCount.get(fromMs, sums.coveredMs) !== hoursRead) return false;
      try {
        write(fromMs, sums);
        return true;
      } catch {
        // NOTE: the kept sums only spare the next summary a read: that summary reads the packs instead.
        return false;
      }
    },
  };
}

function bytes(values: Int32Array | Float64Array): Buffer {
  return Buffer.from(values.buffer, values.byteOffset, values.byteLength);
}
