import type { HostRecord } from "../domain/metrics.ts";
import { GpuAcc, gpuIndexes, gpuKey, HOUR_MS, HostAcc } from "./summary-accumulators.ts";
import type { SummaryInput } from "./summary-model.ts";

/** The period's columns (local days) and clock-hour slots. */
export interface SummaryGrid {
  dayStartsMs: number[];
  /** Where each day column ends: the next day's start, the period's end for the last. */
  columnEnds: number[];
  firstHourMs: number;
  hourSlots: number;
}

/** The sums per host and GPU, and for each rollup row its GPU, hour slot (-1: outside) and day column. */
export interface RowSums {
  hostAcc: Map<string, HostAcc>;
  gpuAcc: Map<string, GpuAcc>;
  rowGpus: GpuAcc[];
  rowSlot: Int32Array;
  rowColumn: Uint16Array;
}

function claimedGpusOf(input: SummaryInput, records: ReadonlyMap<string, HostRecord>): Set<string> {
  const claimed = new Set<string>();
  for (const claim of input.claims) {
    const indexes = claim.gpuIndex === null ? gpuIndexes(records.get(claim.host)) : [claim.gpuIndex];
    for (const index of indexes) claimed.add(gpuKey(claim.host, index));
  }
  return claimed;
}

function accumulatorsOf(
  input: SummaryInput,
  records: ReadonlyMap<string, HostRecord>,
  grid: SummaryGrid,
): Pick<RowSums, "hostAcc" | "gpuAcc" | "rowGpus"> {
  const claimedGpus = claimedGpusOf(input, records);
  const hostAcc = new Map<string, HostAcc>();
  const gpuAcc = new Map<string, GpuAcc>();
  const rowGpus: GpuAcc[] = input.rollups.gpus.map(({ host: name, index }) => {
    let host = hostAcc.get(name);
    if (host === undefined) {
      host = new HostAcc(name, grid.dayStartsMs.length, grid.hourSlots);
      hostAcc.set(name, host);
    }
    let gpu = host.gpus[index];
    if (gpu === undefined) {
      gpu = new GpuAcc(name, index);
      gpu.claimed = claimedGpus.has(gpuKey(name, index));
      gpu.hostAcc = host;
      host.gpus[index] = gpu;
      gpuAcc.set(gpuKey(name, index), gpu);
    }
    return gpu;
  });
  return { hostAcc, gpuAcc, rowGpus };
}

/** Adds every rollup row to its GPU's and host's sums, per day column and per hour slot. */
export function sumRows(
  input: SummaryInput,
  records: ReadonlyMap<string, HostRecord>,
  grid: SummaryGrid,
): RowSums {
  const { hostAcc, gpuAcc, rowGpus } = accumulatorsOf(input, records, grid);
  const { columnEnds, firstHourMs, hourSlots } = grid;
  const rows = input.rollups;
  const { gpu: rowGpu, hourMs: rowHour, busyMinutes, idleMinutes, utilMeanPct, energyWh } = rows;
  const rowSlot = new Int32Array(rows.length);
  const rowColumn = new Uint16Array(rows.length);
  let column = 0;
  for (let i = 0; i < rows.length; i++) {
    const hourMs = rowHour[i]!;
    while (column < columnEnds.length - 1 && hourMs >= columnEnds[column]!) column++;
    const gpu = rowGpus[rowGpu[i]!]!;
    const host = gpu.hostAcc!;
    const busy = busyMinutes[i]!;
    const idle = idleMinutes[i]!;
    const util = utilMeanPct[i]!;
    const known = Number.isNaN(util) ? 0 : busy + idle;
    const utilMinutes = Number.isNaN(util) ? 0 : util * known;
    gpu.utilPctMinutes += utilMinutes;
    gpu.knownMinutes += known;
    gpu.busy += busy;
    gpu.idle += idle;
    host.utilPctMinutes += utilMinutes;
    host.knownMinutes += known;
    host.busy += busy;
    host.idle += idle;
    host.dayUtil[column] = host.dayUtil[column]! + utilMinutes;
    host.dayKnown[column] = host.dayKnown[column]! + known;
    host.dayIdle[column] = host.dayIdle[column]! + idle;
    rowColumn[i] = column;
    const slot = (hourMs - firstHourMs) / HOUR_MS;
    if (slot < 0 || slot >= hourSlots) {
      rowSlot[i] = -1;
      continue;
    }
    rowSlot[i] = slot;
    host.hourBusy[slot] = host.hourBusy[slot]! + busy;
    host.hourIdle[slot] = host.hourIdle[slot]! + idle;
    host.hourOn[slot] = Math.max(host.hourOn[slot]!, busy + idle);
    host.hourRows[slot] = host.hourRows[slot]! + 1;
    const energy = energyWh[i]!;
    if (!Number.isNaN(energy)) {
      host.hourEnergy[slot] = host.hourEnergy[slot]! + energy;
      host.hourHasEnergy[slot] = 1;
    }
  }
  return { hostAcc, gpuAcc, rowGpus, rowSlot, rowColumn };
}
