import type { HourChunk, HourRows } from "./hour-rows.ts";
import { type ClaimedHour, gpuKey } from "./summary-accumulators.ts";
import type { RowPlaces, RowSums } from "./summary-row-sums.ts";

/** Each host's price of one idle GPU-minute and the part a stop saves, by `slot × hosts + host` (NaN: none). */
function hourPrices(places: RowPlaces, slots: number): { cost: Float64Array; saving: Float64Array } {
  const hosts = places.hosts.length;
  const cost = new Float64Array(slots * hosts);
  const saving = new Float64Array(slots * hosts);
  places.hosts.forEach((host, h) => {
    for (let slot = 0, at = h; slot < slots; slot++, at += hosts) {
      cost[at] = host.idleMinuteCost[slot]!;
      saving[at] = host.idleMinuteSaving[slot]!;
    }
  });
  return { cost, saving };
}

/** The flat sums of {@link addIdleCosts}, by GPU place, host place and `host × columns + column`. */
interface CostSums {
  gpuCost: Float64Array;
  gpuUnpriced: Uint8Array;
  hostCost: Float64Array;
  hostSaving: Float64Array;
  hostUnpriced: Uint8Array;
  dayCost: Float64Array;
  claimed: Uint8Array;
  claimedHours: Map<string, Map<number, ClaimedHour>>;
}

/**
 * Adds each row's idle minutes at its hour's price to its GPU and host, overall and per day column
 * (marking the unpriced ones), and returns the claimed GPUs' hours by GPU key and hour. The sums are
 * kept in flat arrays and copied to the accumulators at the end (each starts at 0).
 */
export function addIdleCosts(rows: HourRows, sums: RowSums): Map<string, Map<number, ClaimedHour>> {
  const { chunkSlot, chunkColumn, places } = sums;
  const hosts = places.hosts.length;
  const slots = places.hosts[0]?.idleMinuteCost.length ?? 0;
  const columns = places.hosts[0]?.dayIdleCost.length ?? 0;
  const prices = hourPrices(places, slots);
  const costs: CostSums = {
    gpuCost: new Float64Array(places.gpus.length),
    gpuUnpriced: new Uint8Array(places.gpus.length),
    hostCost: new Float64Array(hosts),
    hostSaving: new Float64Array(hosts),
    hostUnpriced: new Uint8Array(hosts),
    dayCost: new Float64Array(hosts * columns),
    claimed: Uint8Array.from(places.gpus, (gpu) => (gpu.claimed ? 1 : 0)),
    claimedHours: new Map(),
  };
  rows.hours.forEach((chunk, c) => {
    const slot = chunkSlot[c]!;
    const cost = slot >= 0 ? prices.cost.subarray(slot * hosts, (slot + 1) * hosts) : null;
    const saving = slot >= 0 ? prices.saving.subarray(slot * hosts, (slot + 1) * hosts) : null;
    costChunk(chunk, places, costs, cost, saving, chunkColumn[c]!, columns);
  });
  places.gpus.forEach((gpu, g) => {
    gpu.idleCost = costs.gpuCost[g]!;
    gpu.unpriced = costs.gpuUnpriced[g] === 1;
  });
  places.hosts.forEach((host, h) => {
    host.idleCost = costs.hostCost[h]!;
    host.idleSaving = costs.hostSaving[h]!;
    host.unpriced = costs.hostUnpriced[h] === 1;
    host.dayIdleCost.set(costs.dayCost.subarray(h * columns, (h + 1) * columns));
  });
  return costs.claimedHours;
}

/** One hour's rows at its prices by host place (`null`: the hour is outside the period's hours, no price). */
function costChunk(
  chunk: HourChunk,
  places: RowPlaces,
  costs: CostSums,
  cost: Float64Array | null,
  saving: Float64Array | null,
  column: number,
  columns: number,
): void {
  const { gpuCost, gpuUnpriced, hostCost, hostSaving, hostUnpriced, dayCost, claimed } = costs;
  const { gpuOf, hostOf } = places;
  const { gpu: rowGpu, idleMinutes } = chunk;
  for (let k = 0; k < rowGpu.length; k++) {
    const g = gpuOf[rowGpu[k]!]!;
    const h = hostOf[g]!;
    const idleMinuteCost = cost === null ? Number.NaN : cost[h]!;
    const idle = idleMinutes[k]!;
    // NOTE: a GPU in an hour without a price is unpriced even when it was busy then: otherwise a
    // host without a price that happened to be busy would show an idle cost of 0.
    if (Number.isNaN(idleMinuteCost) && (idle > 0 || cost !== null)) {
      gpuUnpriced[g] = 1;
      hostUnpriced[h] = 1;
    } else if (idle > 0) {
      gpuCost[g]! += idle * idleMinuteCost;
      hostCost[h]! += idle * idleMinuteCost;
      const stoppable = saving === null ? Number.NaN : saving[h]!;
      if (!Number.isNaN(stoppable)) hostSaving[h]! += idle * stoppable;
      if (cost !== null) dayCost[h * columns + column]! += idle * idleMinuteCost;
    }
    if (claimed[g]) addClaimedHour(costs.claimedHours, places.gpus[g]!, chunk, k, idleMinuteCost);
  }
}

function addClaimedHour(
  claimedHours: Map<string, Map<number, ClaimedHour>>,
  gpu: { host: string; index: number },
  chunk: HourChunk,
  k: number,
  idleMinuteCost: number,
): void {
  const key = gpuKey(gpu.host, gpu.index);
  let hours = claimedHours.get(key);
  if (hours === undefined) {
    hours = new Map();
    claimedHours.set(key, hours);
  }
  hours.set(chunk.hourMs, {
    busyMinutes: chunk.busyMinutes[k]!,
    idleMinutes: chunk.idleMinutes[k]!,
    idleMinuteCost,
  });
}
