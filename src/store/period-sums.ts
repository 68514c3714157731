import type { HourPack } from "./hour-packs.ts";
import type { GpuPeriodTotals } from "./summary-store.ts";

type GpuNames = ReadonlyMap<number, { host: string; index: number }>;

/** Sums of some hours as {@link PeriodSums.saved} gives them: per GPU id, {@link FIELDS} numbers each. */
export interface SavedSums {
  gpuIds: Int32Array;
  sums: Float64Array;
}

/**
 * Per GPU: rows, rows with energy, then each sum followed by its error term (utilisation × known
 * minutes, known minutes, busy, idle, unknown, energy).
 */
const FIELDS = 14;
const ROWS = 0;
const ENERGY_ROWS = 1;
const UTIL_MINUTES = 2;
const KNOWN = 4;
const BUSY = 6;
const IDLE = 8;
const UNKNOWN = 10;
const ENERGY = 12;

/**
 * Per-GPU sums of hourly rollups the way SQLite's `total()` and `sum()` add (Kahan-Babuška-Neumaier, in
 * the order the hours are added), for the GPUs in `names`: what the `GROUP BY gpu_id` of `gpu_hour`
 * answers, to the bit. The running sums with their error terms can be saved and resumed: adding later
 * hours to restored sums gives what adding every hour gives.
 */
export class PeriodSums {
  private readonly ids: number[];
  private readonly rank: Int32Array;
  private readonly values: Float64Array;
  private lastIds: Int32Array = new Int32Array(0);
  private ats: Int32Array = new Int32Array(0);

  constructor(names: GpuNames) {
    this.ids = [...names.keys()].sort((a, b) => a - b);
    this.rank = new Int32Array((this.ids.at(-1) ?? -1) + 1).fill(-1);
    this.ids.forEach((id, at) => {
      if (id >= 0) this.rank[id] = at;
    });
    this.values = new Float64Array(this.ids.length * FIELDS);
  }

  /** Adds one hour's rows, read with their unknown minutes (rows of GPUs not in `names` are left out). */
  add(hour: HourPack): void {
    const { gpuIds, busyMinutes, idleMinutes, utilMeanPct, unknownMinutes, energyWh } = hour;
    if (unknownMinutes === null) throw new Error("period sums: an hour read without its unknown minutes");
    const ats = this.placesOf(gpuIds);
    const s = this.values;
    for (let k = 0; k < ats.length; k++) {
      const at = ats[k]!;
      if (at < 0) continue;
      const o = at * FIELDS;
      s[o + ROWS]!++;
      const busy = busyMinutes[k]!;
      const idle = idleMinutes[k]!;
      const util = utilMeanPct[k]!;
      if (!Number.isNaN(util)) {
        const known = busy + idle;
        addAt(s, o + UTIL_MINUTES, util * known);
        addAt(s, o + KNOWN, known);
      }
      const wh = energyWh[k]!;
      if (!Number.isNaN(wh)) {
        addAt(s, o + ENERGY, wh);
        s[o + ENERGY_ROWS]!++;
      }
      addAt(s, o + BUSY, busy);
      addAt(s, o + IDLE, idle);
      addAt(s, o + UNKNOWN, unknownMinutes[k]!);
    }
  }

  /** The totals of the GPUs with rows, by GPU id. */
  totals(names: GpuNames): GpuPeriodTotals[] {
    const s = this.values;
    const totals: GpuPeriodTotals[] = [];
    for (let at = 0; at < this.ids.length; at++) {
      const o = at * FIELDS;
      if (s[o + ROWS] === 0) continue;
      const known = names.get(this.ids[at]!)!;
      const knownMinutes = totalAt(s, o + KNOWN);
      totals.push({
        host: known.host,
        index: known.index,
        hours: s[o + ROWS]!,
        utilMeanPct: knownMinutes === 0 ? null : totalAt(s, o + UTIL_MINUTES) / knownMinutes,
        busyMinutes: totalAt(s, o + BUSY),
        idleMinutes: totalAt(s, o + IDLE),
        unknownMinutes: totalAt(s, o + UNKNOWN),
        energyWh: s[o + ENERGY_ROWS]! > 0 ? totalAt(s, o + ENERGY) : null,
      });
    }
    return totals;
  }

  /** The running sums of the GPUs with rows, to {@link restore} later. */
  saved(): SavedSums {
    const s = this.values;
    const places: number[] = [];
    for (let at = 0; at < this.ids.length; at++) if (s[at * FIELDS + ROWS]! > 0) places.push(at);
    const sums = new Float64Array(places.length * FIELDS);
    places.forEach((at, j) => {
      sums.set(s.subarray(at * FIELDS, (at + 1) * FIELDS), j * FIELDS);
    });
    return { gpuIds: Int32Array.from(places, (at) => this.ids[at]!), sums };
  }

  /** Starts from `saved` (call before any {@link add}); GPUs no longer in `names` are left out. */
  restore(saved: SavedSums): void {
    const { gpuIds, sums } = saved;
    for (let j = 0; j < gpuIds.length; j++) {
      const id = gpuIds[j]!;
      const at = id >= 0 && id < this.rank.length ? this.rank[id]! : -1;
      if (at >= 0) this.values.set(sums.subarray(j * FIELDS, (j + 1) * FIELDS), at * FIELDS);
    }
  }

  private placesOf(gpuIds: Int32Array): Int32Array {
    // NOTE: an hour usually has the GPUs of the hour before: they are not looked up again.
    if (sameIds(gpuIds, this.lastIds)) return this.ats;
    const { rank } = this;
    this.ats = Int32Array.from(gpuIds, (id) => (id >= 0 && id < rank.length ? rank[id]! : -1));
    this.lastIds = gpuIds;
    return this.ats;
  }
}

/** {@link FIELDS} numbers per GPU in a saved blob. */
export const SAVED_FIELDS = FIELDS;

/**
 * Adds `value` to `s[at]` with its error in `s[at + 1]` (Kahan-Babuška-Neumaier, as SQLite's `total()`).
 * Adding zero changes neither, so it is skipped.
 */
function addAt(s: Float64Array, at: number, value: number): void {
  if (value === 0) return;
  const sum = s[at]!;
  const t = sum + value;
  s[at + 1]! += Math.abs(sum) > Math.abs(value) ? sum - t + value : value - t + sum;
  s[at] = t;
}

/** What SQLite's `total()` answers: the sum plus its error term (unless that overflowed). */
function totalAt(s: Float64Array, at: number): number {
  const e = s[at + 1]!;
  return Number.isFinite(e) ? s[at]! + e : s[at]!;
}

/** Whether two id columns hold the same ids. */
export function sameIds(a: Int32Array, b: Int32Array): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(
    Buffer.from(b.buffer, b.byteOffset, b.byteLength),
  );
}
