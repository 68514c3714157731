import type { UtilMinutes } from "../checks/reclaim.ts";
import type { HostRecord } from "../domain/metrics.ts";
import type { GpuPeriodTotals } from "../store/summary-store.ts";

export const HOUR_MS = 3_600_000;

/** One claimed GPU's hour, for the claim's busy and idle time. */
export interface ClaimedHour {
  busyMinutes: number;
  idleMinutes: number;
  /** NaN without a price. */
  idleMinuteCost: number;
}

export interface Acc extends UtilMinutes {
  busy: number;
  idle: number;
  unknown: number;
  idleCost: number;
  unpriced: boolean;
}

export class GpuAcc implements Acc {
  utilPctMinutes = 0;
  knownMinutes = 0;
  spanMinutes = 0;
  busy = 0;
  idle = 0;
  unknown = 0;
  idleCost = 0;
  unpriced = false;
  /** Whether some claim covers this GPU. */
  claimed = false;
  hostAcc: HostAcc | null = null;

  constructor(
    readonly host: string,
    readonly index: number,
  ) {}
}

/** A host's sums, per day column, and what the stops need of its hours. */
export class HostAcc extends GpuAcc {
  readonly gpus: GpuAcc[] = [];
  readonly dayUtil: Float64Array;
  readonly dayKnown: Float64Array;
  /** Idle GPU-minutes and their cost (priced minutes only) per day column. */
  readonly dayIdle: Float64Array;
  readonly dayIdleCost: Float64Array;
  /** 1 for each clock hour of the period with busy minutes. */
  readonly busyHours: Uint8Array;
  /** Energy of the hours on with an energy reading, and those hours (for the mean power while on). */
  energyWh = 0;
  energyOnHours = 0;
  /** Idle minutes at their hour's saving, summed. */
  idleSaving = 0;

  constructor(
    readonly name: string,
    days: number,
    hours: number,
  ) {
    super(name, -1);
    this.dayUtil = new Float64Array(days);
    this.dayKnown = new Float64Array(days);
    this.dayIdle = new Float64Array(days);
    this.dayIdleCost = new Float64Array(days);
    this.busyHours = new Uint8Array(hours);
  }

  dailyMeans(): (number | null)[] {
    return Array.from(this.dayUtil, (util, i) => (this.dayKnown[i]! > 0 ? util / this.dayKnown[i]! : null));
  }
}

export const newAcc = (): Acc => ({
  utilPctMinutes: 0,
  knownMinutes: 0,
  spanMinutes: 0,
  busy: 0,
  idle: 0,
  unknown: 0,
  idleCost: 0,
  unpriced: false,
});

/** The key of one GPU in the maps of a summary. */
export function gpuKey(host: string, index: number): string {
  return `${host}\u0000${index}`;
}

/** Adds one GPU's totals of a period to a sum. */
export function addTotals(acc: Acc, totals: GpuPeriodTotals): void {
  const known = totals.busyMinutes + totals.idleMinutes;
  if (totals.utilMeanPct !== null) {
    acc.utilPctMinutes += totals.utilMeanPct * known;
    acc.knownMinutes += known;
  }
  acc.busy += totals.busyMinutes;
  acc.idle += totals.idleMinutes;
  acc.unknown += totals.unknownMinutes;
}

/** GPUs of the host first seen before `beforeMs`. */
export function gpusSeenBy(record: HostRecord | undefined, beforeMs: number): number {
  if (record === undefined) return 0;
  let count = 0;
  for (const gpu of record.gpus) if (gpu.firstSeenMs < beforeMs) count++;
  return count;
}

/** Minutes of `[fromMs, toMs)` since the GPU was first seen. */
export function expectedMinutes(
  record: HostRecord | undefined,
  index: number,
  fromMs: number,
  toMs: number,
): number {
  const firstSeenMs = record?.gpus.find((gpu) => gpu.index === index)?.firstSeenMs ?? fromMs;
  return Math.max(0, toMs - Math.max(fromMs, firstSeenMs)) / 60_000;
}

/** The indexes of every GPU the host ever had. */
export function gpuIndexes(record: HostRecord | undefined): number[] {
  return record?.gpus.map((gpu) => gpu.index) ?? [];
}

/** Code-unit order, the same on every machine. */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
