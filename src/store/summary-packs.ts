import { HOUR_MS } from "../shared/clock.ts";
import type { Steps } from "../shared/steps.ts";
import type { HourPack } from "./hour-packs.ts";
import { PeriodSums, type SavedSums, sameIds } from "./period-sums.ts";
import type { KeptSums } from "./period-totals.ts";
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
    gpus: namesOf(slots.ids, names),
    hours: { [Symbol.iterator]: () => chunksOf(hours(), slots)[Symbol.iterator]() },
  };
}

/** The names of `ids` (outside {@link hourRowsOfPacks}, whose iterator would keep every name alive). */
function namesOf(ids: readonly number[], names: GpuNames): { host: string; index: number }[] {
  return ids.map((id) => names.get(id) ?? { host: `gpu#${id}`, index: id });
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

/**
 * Per-GPU totals of the hours' packs, by GPU id, of the GPUs in `names`, one hour a step: what the
 * `GROUP BY gpu_id` of `gpu_hour` they replace answers, to the bit (SQLite's summation, in hour
 * order). With `saved`, the sums of the hours before `hours` ({@link PeriodSums.restore}) are resumed.
 */
export function* gpuTotalsSteps(
  hours: Iterable<HourPack>,
  names: GpuNames,
  saved?: SavedSums,
): Steps<GpuPeriodTotals[]> {
  const sums = new PeriodSums(names);
  if (saved !== undefined) sums.restore(saved);
  for (const hour of hours) {
    sums.add(hour);
    yield;
  }
  return sums.totals(names);
}

/** The hours' per-GPU running sums ({@link PeriodSums} of `names`), covering up to the last hour's end, one hour a step. */
export function* sumHoursSteps(
  hours: Iterable<HourPack>,
  names: GpuNames,
): Steps<{ sums: KeptSums; hoursRead: number }> {
  const sums = new PeriodSums(names);
  let hoursRead = 0;
  let coveredMs = 0;
  for (const hour of hours) {
    sums.add(hour);
    hoursRead++;
    coveredMs = hour.hourMs + HOUR_MS;
    yield;
  }
  return { sums: { ...sums.saved(), coveredMs }, hoursRead };
}
