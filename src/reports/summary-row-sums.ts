import type { HostRecord } from "../domain/metrics.ts";
import type { Steps } from "../shared/steps.ts";
import type { HourChunk } from "./hour-rows.ts";
import { type ClaimedHour, GpuAcc, gpuIndexes, gpuKey, HOUR_MS, HostAcc } from "./summary-accumulators.ts";
import { HostOnHours, HostRecords, HourSums, priceHour } from "./summary-hour-prices.ts";
import { IdleCosts } from "./summary-idle-costs.ts";
import type { SummaryInput } from "./summary-model.ts";

/** The period's columns (local days) and clock-hour slots. */
export interface SummaryGrid {
  dayStartsMs: number[];
  /** Where each day column ends: the next day's start, the period's end for the last. */
  columnEnds: number[];
  firstHourMs: number;
  hourSlots: number;
}

/** The sums per host and GPU (priced), and the claimed GPUs' hours by GPU key and hour. */
export interface RowSums {
  hostAcc: Map<string, HostAcc>;
  gpuAcc: Map<string, GpuAcc>;
  claimedHours: Map<string, Map<number, ClaimedHour>>;
}

function claimedGpusOf(input: SummaryInput, records: ReadonlyMap<string, HostRecord>): Set<string> {
  const claimed = new Set<string>();
  for (const claim of input.claims) {
    const indexes = claim.gpuIndex === null ? gpuIndexes(records.get(claim.host)) : [claim.gpuIndex];
    for (const index of indexes) claimed.add(gpuKey(claim.host, index));
  }
  return claimed;
}

/**
 * Where each GPU and host sits in the flat sums, in the order of their first row: `gpuOf[rows.gpus
 * index]` is a GPU's place, `hostOf[gpu place]` its host's place. Their accumulators are made once
 * the rows are summed ({@link accumulatorsOf}): not in the heap while the hours are read.
 */
export interface RowPlaces {
  /** Each GPU place's host and index. */
  gpus: readonly { host: string; index: number }[];
  /** 1 for a GPU place that some claim covers. */
  claimed: Uint8Array;
  /** Each host place's name. */
  hosts: readonly string[];
  gpuOf: Int32Array;
  hostOf: Int32Array;
}

function placesOf(input: SummaryInput, records: ReadonlyMap<string, HostRecord>): RowPlaces {
  const claimedGpus = claimedGpusOf(input, records);
  const hostPlace = new Map<string, number>();
  const gpuPlace = new Map<string, number>();
  const hosts: string[] = [];
  const gpus: { host: string; index: number }[] = [];
  const hostOf: number[] = [];
  const gpuOf = Int32Array.from(input.rollups.gpus, (gpu) => {
    const key = gpuKey(gpu.host, gpu.index);
    let g = gpuPlace.get(key);
    if (g !== undefined) return g;
    let h = hostPlace.get(gpu.host);
    if (h === undefined) {
      h = hosts.length;
      hosts.push(gpu.host);
      hostPlace.set(gpu.host, h);
    }
    g = gpus.length;
    gpus.push(gpu);
    hostOf.push(h);
    gpuPlace.set(key, g);
    return g;
  });
  const claimed = Uint8Array.from(gpus, (gpu) => (claimedGpus.has(gpuKey(gpu.host, gpu.index)) ? 1 : 0));
  return { gpus, claimed, hosts, gpuOf, hostOf: Int32Array.from(hostOf) };
}

/** The accumulators of the places, in place order (each GPU's and host's first row, the maps' order). */
export interface Accumulators {
  gpus: GpuAcc[];
  hosts: HostAcc[];
}

function accumulatorsOf(places: RowPlaces, grid: SummaryGrid): Accumulators {
  const hosts = places.hosts.map((name) => new HostAcc(name, grid.dayStartsMs.length, grid.hourSlots));
  const gpus = places.gpus.map(({ host: name, index }, g) => {
    const host = hosts[places.hostOf[g]!]!;
    const gpu = new GpuAcc(name, index);
    gpu.claimed = places.claimed[g] === 1;
    gpu.hostAcc = host;
    host.gpus[index] = gpu;
    return gpu;
  });
  return { gpus, hosts };
}

/**
 * The sums of {@link sumRows} in flat arrays: per GPU place, per host place, per host and day column
 * (`host × columns + column`). Each sum gets the same additions in the same order as the
 * accumulators' fields it is copied to.
 */
class FlatSums {
  readonly gpuUtil: Float64Array;
  readonly gpuKnown: Float64Array;
  readonly gpuBusy: Float64Array;
  readonly gpuIdle: Float64Array;
  readonly hostUtil: Float64Array;
  readonly hostKnown: Float64Array;
  readonly hostBusy: Float64Array;
  readonly hostIdle: Float64Array;
  readonly dayUtil: Float64Array;
  readonly dayKnown: Float64Array;
  readonly dayIdle: Float64Array;

  constructor(gpus: number, hosts: number, columns: number) {
    this.gpuUtil = new Float64Array(gpus);
    this.gpuKnown = new Float64Array(gpus);
    this.gpuBusy = new Float64Array(gpus);
    this.gpuIdle = new Float64Array(gpus);
    this.hostUtil = new Float64Array(hosts);
    this.hostKnown = new Float64Array(hosts);
    this.hostBusy = new Float64Array(hosts);
    this.hostIdle = new Float64Array(hosts);
    this.dayUtil = new Float64Array(hosts * columns);
    this.dayKnown = new Float64Array(hosts * columns);
    this.dayIdle = new Float64Array(hosts * columns);
  }

  /** Copies the sums into the accumulators (each starts at 0, so this is what adding them there gives). */
  copyTo(accs: Accumulators, columns: number): void {
    accs.gpus.forEach((gpu, g) => {
      gpu.utilPctMinutes = this.gpuUtil[g]!;
      gpu.knownMinutes = this.gpuKnown[g]!;
      gpu.busy = this.gpuBusy[g]!;
      gpu.idle = this.gpuIdle[g]!;
    });
    accs.hosts.forEach((host, h) => {
      host.utilPctMinutes = this.hostUtil[h]!;
      host.knownMinutes = this.hostKnown[h]!;
      host.busy = this.hostBusy[h]!;
      host.idle = this.hostIdle[h]!;
      host.dayUtil.set(this.dayUtil.subarray(h * columns, (h + 1) * columns));
      host.dayKnown.set(this.dayKnown.subarray(h * columns, (h + 1) * columns));
      host.dayIdle.set(this.dayIdle.subarray(h * columns, (h + 1) * columns));
    });
  }
}

/**
 * Adds every rollup row to its GPU's and host's sums, per day column and per hour slot, one step per
 * chunk, in one pass
 * over the rows: each clock hour, once read, is priced per host and its idle minutes costed, then
 * dropped (the rows are never all held at once).
 */
export function* sumRowsSteps(
  input: SummaryInput,
  records: ReadonlyMap<string, HostRecord>,
  grid: SummaryGrid,
  dataUntilMs: number,
): Steps<RowSums> {
  const places = placesOf(input, records);
  const { columnEnds, firstHourMs, hourSlots } = grid;
  const columns = columnEnds.length;
  const sums = new FlatSums(places.gpus.length, places.hosts.length, columns);
  const hour = new HourSums(places.hosts.length);
  const costs = new IdleCosts(places, columns);
  const hostRecords = new HostRecords(records, places.hosts, input.pricing);
  const onHours = new HostOnHours(places.hosts.length, hourSlots);
  let pending: HourChunk[] = [];
  let column = 0;
  let slot = -1;
  const closeHour = () => {
    if (slot >= 0) priceHour(input, hostRecords, onHours, hour, slot, pending[0]!.hourMs, dataUntilMs);
    for (const chunk of pending)
      costs.add(chunk, slot >= 0 ? hour.cost : null, slot >= 0 ? hour.saving : null, column);
    pending = [];
    hour.clear();
  };
  for (const chunk of input.rollups.hours) {
    if (pending.length > 0 && chunk.hourMs !== pending[0]!.hourMs) closeHour();
    while (column < columns - 1 && chunk.hourMs >= columnEnds[column]!) column++;
    const hourSlot = (chunk.hourMs - firstHourMs) / HOUR_MS;
    slot = hourSlot < 0 || hourSlot >= hourSlots ? -1 : hourSlot;
    sumChunk(chunk, sums, hour, places, column, slot, columns);
    pending.push(chunk);
    yield;
  }
  if (pending.length > 0) closeHour();
  const accs = accumulatorsOf(places, grid);
  sums.copyTo(accs, columns);
  costs.copyTo(accs);
  onHours.copyTo(accs.hosts);
  return {
    hostAcc: new Map(accs.hosts.map((host) => [host.name, host])),
    gpuAcc: new Map(accs.gpus.map((gpu) => [gpuKey(gpu.host, gpu.index), gpu])),
    claimedHours: costs.claimedHours,
  };
}

/** Adds one hour's rows to the sums (`slot` -1: outside the period's hours, no hour sums). */
function sumChunk(
  chunk: HourChunk,
  sums: FlatSums,
  hour: HourSums,
  places: RowPlaces,
  column: number,
  slot: number,
  columns: number,
): void {
  const { gpuUtil, gpuKnown, gpuBusy, gpuIdle, hostUtil, hostKnown, hostBusy, hostIdle } = sums;
  const { dayUtil, dayKnown, dayIdle } = sums;
  const { gpu: rowGpu, busyMinutes, idleMinutes, utilMeanPct, energyWh } = chunk;
  const { gpuOf, hostOf } = places;
  for (let k = 0; k < rowGpu.length; k++) {
    const g = gpuOf[rowGpu[k]!]!;
    const h = hostOf[g]!;
    const busy = busyMinutes[k]!;
    const idle = idleMinutes[k]!;
    const util = utilMeanPct[k]!;
    const known = Number.isNaN(util) ? 0 : busy + idle;
    const utilMinutes = Number.isNaN(util) ? 0 : util * known;
    gpuUtil[g]! += utilMinutes;
    gpuKnown[g]! += known;
    gpuBusy[g]! += busy;
    gpuIdle[g]! += idle;
    hostUtil[h]! += utilMinutes;
    hostKnown[h]! += known;
    hostBusy[h]! += busy;
    hostIdle[h]! += idle;
    const day = h * columns + column;
    dayUtil[day]! += utilMinutes;
    dayKnown[day]! += known;
    dayIdle[day]! += idle;
    if (slot < 0) continue;
    hour.busy[h]! += busy;
    hour.idle[h]! += idle;
    hour.on[h] = Math.max(hour.on[h]!, busy + idle);
    hour.rows[h]!++;
    const energy = energyWh[k]!;
    if (!Number.isNaN(energy)) {
      hour.energy[h]! += energy;
      hour.hasEnergy[h] = 1;
    }
  }
}
