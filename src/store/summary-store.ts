import type { Database } from "better-sqlite3";
import type { AuditEntry } from "../domain/audit-entry.ts";
import type { Claim } from "../domain/claim.ts";
import type { GpuRollupTotals } from "../domain/metrics.ts";
import { type Pause, paceSteps, runSteps } from "../shared/steps.ts";
import { createAuditStore } from "./audit-store.ts";
import { createHourPacks } from "./hour-packs.ts";
import { createPeriodTotals } from "./period-totals.ts";
import { gpuTotalsSteps, hourRowsOfPacks, sumHoursSteps } from "./summary-packs.ts";

/**
 * Hourly GPU rollups as columns, one chunk per clock hour (one typed array per field, no object per
 * row): what the summary reads for 80,000 GPUs × 14 days (27 M rows) without the garbage, each
 * hour's columns straight from its pack, read as the hours are iterated (one hour held at a time).
 * `NaN` is "no value".
 */
export interface HourRows {
  /** Rows in all the chunks. */
  length: number;
  /** The GPUs the rows refer to; a chunk's `gpu[k]` indexes this list. */
  gpus: readonly { host: string; index: number }[];
  /**
   * The rows hour by hour, oldest first (an hour may span several chunks; rows keep their order). From
   * the store, each iteration reads them again: iterate once, keeping what is needed of each hour.
   */
  hours: Iterable<HourChunk>;
}

/** Rows of one clock hour. */
export interface HourChunk {
  hourMs: number;
  gpu: Int32Array;
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
   * `rollupsBetween` returns, without an object per row. The GPUs are read at once; the hours as they
   * are iterated.
   */
  hourRows(fromMs: number, toMs: number): HourRows;
  /**
   * Per-GPU sums of the hourly rollups with `fromMs <= hourMs < toMs` (what the trend needs of
   * `rollupTotals`): the sums kept by {@link keepTotals} for a period starting at `fromMs`, with the
   * hours after them added, or else every hour's pack read.
   */
  gpuTotals(fromMs: number, toMs: number): GpuPeriodTotals[];
  /** {@link gpuTotals}, awaiting `pause()` between hours (other work runs meanwhile). */
  gpuTotalsPaced(fromMs: number, toMs: number, pause: Pause): Promise<GpuPeriodTotals[]>;
  /**
   * Reads the hours with `fromMs <= hourMs < toMs` (awaiting `pause()` between them) and keeps their
   * per-GPU sums (schema step 17), so that {@link gpuTotals} of this period (the next summary's trend)
   * resumes them instead of reading its hours; false when not kept (an hour without a pack).
   */
  keepTotals(fromMs: number, toMs: number, pause: Pause): Promise<boolean>;
  /** Audit entries with one of `actions` and `fromMs <= atMs < toMs`, oldest first. */
  auditBetween(actions: readonly string[], fromMs: number, toMs: number): AuditEntry[];
}

export function createSummaryStore(db: Database): SummaryStore {
  const audit = createAuditStore(db);
  const insertFlag = db.prepare(
    `INSERT INTO renewal_flag (host, slot_ms, util_pct, previous_util_pct) VALUES (?, ?, ?, ?)
     ON CONFLICT DO NOTHING`,
  );
  const selectGpus = db
    .prepare("SELECT g.id, h.name, g.idx FROM gpu g JOIN host h ON h.id = g.host_id")
    .raw();
  const packs = createHourPacks(db);
  const periodTotals = createPeriodTotals(db);
  const gpusById = () => {
    const gpuOf = new Map<number, { host: string; index: number }>();
    for (const [id, host, index] of selectGpus.all() as [number, string, number][])
      gpuOf.set(id, { host, index });
    return gpuOf;
  };
  const totalsSteps = (fromMs: number, toMs: number) => {
    const kept = periodTotals.kept(fromMs, toMs);
    return gpuTotalsSteps(packs.hours(kept?.coveredMs ?? fromMs, toMs), gpusById(), kept ?? undefined);
  };
  return {
    hourRows: (fromMs, toMs) =>
      hourRowsOfPacks(
        packs.gpuIds(fromMs, toMs),
        () => packs.hours(fromMs, toMs, { unknown: false }),
        gpusById(),
      ),
    async keepTotals(fromMs, toMs, pause) {
      const { sums, hoursRead } = await paceSteps(
        sumHoursSteps(packs.hours(fromMs, toMs), gpusById()),
        pause,
      );
      return periodTotals.keep(fromMs, sums, hoursRead);
    },
    gpuTotals: (fromMs, toMs) => runSteps(totalsSteps(fromMs, toMs)),
    gpuTotalsPaced: (fromMs, toMs, pause) => paceSteps(totalsSteps(fromMs, toMs), pause),
    flagRenewal: (flag) =>
      insertFlag.run(flag.host, flag.slotMs, flag.utilPct, flag.previousUtilPct).changes === 1,
    auditBetween: (actions, fromMs, toMs) => audit.between(actions, fromMs, toMs),
  };
}
