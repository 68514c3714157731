import { runSteps, type Steps } from "../shared/steps.ts";
import type { HourPack } from "./hour-packs.ts";
import type { GpuPeriodTotals, HourChunk, HourRows } from "./summary-store.ts";

type GpuNames = ReadonlyMap<number, { host: string; index: number }>;

/** Each GPU id's place in the order of first appearance (a table for the known ids, a map beyond). */
class Slots {
  readonly ids: number[] = [];
  private readonly table: Int32Array;
  private readonly beyond = new Map<number, number>();

  constructor(names: GpuNames) {
    let max = -1;
    for (const id of names.keys()) max = Math.max(max, id);
    this.table = new Int32Array(max + 1).fill(-1);
  }

  of(id: number): number {
    const inTable = id >= 0 && id < this.table.length;
    const slot = inTable ? this.table[id]! : (this.beyond.get(id) ?? -1);
    if (slot >= 0) return slot;
    const added = this.ids.length;
    this.ids.push(id);
    if (inTable) this.table[id] = added;
    else this.beyond.set(id, added);
    return added;
  }
}

/**
 * {@link HourRows} of the hours' packs, by hour then GPU id (the order of `gpu_hour`'s key): their own
 * columns. The GPUs come from a first read of the hours' ids only (`ids`); the hours' values are read
 * as they are iterated (`hours()`, once per iteration), so only the hour being read is held.
 */
export function hourRowsOfPacks(
  ids: Iterable<{ gpuIds: Int32Array }>,
  hours: () => Iterable<HourPack>,
  names: GpuNames,
): HourRows {
  const slots = new Slots(names);
  let length = 0;
  let lastIds: Int32Array = new Int32Array(0);
  for (const hour of ids) {
    // NOTE: an hour usually has the GPUs of the hour before: they are not looked up again.
    if (!sameIds(hour.gpuIds, lastIds)) {
      for (const id of hour.gpuIds) slots.of(id);
      lastIds = hour.gpuIds;
    }
    length += hour.gpuIds.length;
  }
  return {
    length,
    gpus: slots.ids.map((id) => names.get(id) ?? { host: `gpu#${id}`, index: id }),
    hours: { [Symbol.iterator]: () => chunksOf(hours(), slots)[Symbol.iterator]() },
  };
}

/** Each pack as a chunk, its GPU ids as places in `slots` (every id already placed). */
function* chunksOf(hours: Iterable<HourPack>, slots: Slots): Generator<HourChunk> {
  let lastIds: Int32Array = new Int32Array(0);
  let lastSlots = new Int32Array(0);
  for (const hour of hours) {
    if (!sameIds(hour.gpuIds, lastIds)) {
      lastSlots = Int32Array.from(hour.gpuIds, (id) => slots.of(id));
      lastIds = hour.gpuIds;
    }
    yield {
      hourMs: hour.hourMs,
      gpu: lastSlots,
      utilMeanPct: hour.utilMeanPct,
      busyMinutes: hour.busyMinutes,
      idleMinutes: hour.idleMinutes,
      energyWh: hour.energyWh,
    };
  }
}

function sameIds(a: Int32Array, b: Int32Array): boolean {
  if (a.length !== b.length) return false;
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(
    Buffer.from(b.buffer, b.byteOffset, b.byteLength),
  );
}

/** Adds `value` to `sum[at]` the way SQLite's `total()` and `sum()` do: Kahan-Babuška-Neumaier, the error kept in `err[at]`. */
function addTo(sum: Float64Array, err: Float64Array, at: number, value: number): void {
  const s = sum[at]!;
  const t = s + value;
  err[at] = err[at]! + (Math.abs(s) > Math.abs(value) ? s - t + value : value - t + s);
  sum[at] = t;
}

/** Adds each `values[k]` to `sum[ats[k]]` ({@link addTo}; `ats[k]` -1: not summed). */
function sumColumn(sum: Float64Array, err: Float64Array, ats: Int32Array, values: Float64Array): void {
  for (let k = 0; k < ats.length; k++) {
    const at = ats[k]!;
    if (at >= 0) addTo(sum, err, at, values[k]!);
  }
}

/** What SQLite's `total()` answers: the sum plus its error term (unless that overflowed). */
function totalOf(sum: Float64Array, err: Float64Array, at: number): number {
  const e = err[at]!;
  return Number.isFinite(e) ? sum[at]! + e : sum[at]!;
}

/**
 * Per-GPU totals of the hours' packs, by GPU id, of the GPUs in `names`: what the `GROUP BY gpu_id`
 * of `gpu_hour` they replace answers, to the bit (SQLite's summation, in hour order).
 */
export function gpuTotalsOfPacks(hours: Iterable<HourPack>, names: GpuNames): GpuPeriodTotals[] {
  return runSteps(gpuTotalsSteps(hours, names));
}

/** {@link gpuTotalsOfPacks} one hour a step. */
export function* gpuTotalsSteps(hours: Iterable<HourPack>, names: GpuNames): Steps<GpuPeriodTotals[]> {
  const ids = [...names.keys()].sort((a, b) => a - b);
  const rank = new Int32Array((ids.at(-1) ?? -1) + 1).fill(-1);
  ids.forEach((id, at) => {
    if (id >= 0) rank[id] = at;
  });
  const n = ids.length;
  const column = () => new Float64Array(n);
  const [uw, uwErr, uk, ukErr, busy, busyErr, idle, idleErr, unknown, unknownErr, energy, energyErr] =
    Array.from({ length: 12 }, column) as Float64Array[];
  const rows = column();
  const energyRows = column();
  let lastIds: Int32Array = new Int32Array(0);
  let ats = new Int32Array(0);
  for (const hour of hours) {
    const { gpuIds, busyMinutes, idleMinutes, utilMeanPct, unknownMinutes, energyWh } = hour;
    if (!sameIds(gpuIds, lastIds)) {
      ats = Int32Array.from(gpuIds, (id) => (id >= 0 && id < rank.length ? rank[id]! : -1));
      lastIds = gpuIds;
    }
    // NOTE: column by column: each sum still gets its rows in hour order, as SQLite's total() would.
    for (let k = 0; k < ats.length; k++) {
      const at = ats[k]!;
      if (at < 0) continue;
      rows[at]!++;
      const util = utilMeanPct[k]!;
      if (!Number.isNaN(util)) {
        const known = busyMinutes[k]! + idleMinutes[k]!;
        addTo(uw!, uwErr!, at, util * known);
        addTo(uk!, ukErr!, at, known);
      }
      const wh = energyWh[k]!;
      if (!Number.isNaN(wh)) {
        addTo(energy!, energyErr!, at, wh);
        energyRows[at]!++;
      }
    }
    sumColumn(busy!, busyErr!, ats, busyMinutes);
    sumColumn(idle!, idleErr!, ats, idleMinutes);
    sumColumn(unknown!, unknownErr!, ats, unknownMinutes!);
    yield;
  }
  const totals: GpuPeriodTotals[] = [];
  for (let at = 0; at < n; at++) {
    if (rows[at] === 0) continue;
    const known = names.get(ids[at]!)!;
    const knownMinutes = totalOf(uk!, ukErr!, at);
    totals.push({
      host: known.host,
      index: known.index,
      hours: rows[at]!,
      utilMeanPct: knownMinutes === 0 ? null : totalOf(uw!, uwErr!, at) / knownMinutes,
      busyMinutes: totalOf(busy!, busyErr!, at),
      idleMinutes: totalOf(idle!, idleErr!, at),
      unknownMinutes: totalOf(unknown!, unknownErr!, at),
      energyWh: energyRows[at]! > 0 ? totalOf(energy!, energyErr!, at) : null,
    });
  }
  return totals;
}
