import type { HourRows } from "./hour-rows.ts";
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

/**
 * Adds each row's idle minutes at its hour's price to its GPU and host, overall and per day column
 * (marking the unpriced ones), and returns the claimed GPUs' hours by GPU key and hour. The sums are
 * kept in flat arrays and copied to the accumulators at the end (each starts at 0).
 */
export function addIdleCosts(rows: HourRows, sums: RowSums): Map<string, Map<number, ClaimedHour>> {
  const { rowSlot, rowColumn, places } = sums;
  const { gpuOf, hostOf } = places;
  const hosts = places.hosts.length;
  const slots = places.hosts[0]?.idleMinuteCost.length ?? 0;
  const columns = places.hosts[0]?.dayIdleCost.length ?? 0;
  const prices = hourPrices(places, slots);
  const gpuCost = new Float64Array(places.gpus.length);
  const gpuUnpriced = new Uint8Array(places.gpus.length);
  const hostCost = new Float64Array(hosts);
  const hostSaving = new Float64Array(hosts);
  const hostUnpriced = new Uint8Array(hosts);
  const dayCost = new Float64Array(hosts * columns);
  const claimed = Uint8Array.from(places.gpus, (gpu) => (gpu.claimed ? 1 : 0));
  const { gpu: rowGpu, idleMinutes } = rows;
  const claimedHours = new Map<string, Map<number, ClaimedHour>>();
  for (let i = 0; i < rows.length; i++) {
    const g = gpuOf[rowGpu[i]!]!;
    const h = hostOf[g]!;
    const slot = rowSlot[i]!;
    const at = slot * hosts + h;
    const idleMinuteCost = slot >= 0 ? prices.cost[at]! : Number.NaN;
    const idle = idleMinutes[i]!;
    // NOTE: a GPU in an hour without a price is unpriced even when it was busy then: otherwise a
    // host without a price that happened to be busy would show an idle cost of 0.
    if (Number.isNaN(idleMinuteCost) && (idle > 0 || slot >= 0)) {
      gpuUnpriced[g] = 1;
      hostUnpriced[h] = 1;
    } else if (idle > 0) {
      gpuCost[g]! += idle * idleMinuteCost;
      hostCost[h]! += idle * idleMinuteCost;
      const saving = slot >= 0 ? prices.saving[at]! : Number.NaN;
      if (!Number.isNaN(saving)) hostSaving[h]! += idle * saving;
      if (slot >= 0) dayCost[h * columns + rowColumn[i]!]! += idle * idleMinuteCost;
    }
    if (claimed[g]) addClaimedHour(claimedHours, places.gpus[g]!, rows, i, idleMinuteCost);
  }
  places.gpus.forEach((gpu, g) => {
    gpu.idleCost = gpuCost[g]!;
    gpu.unpriced = gpuUnpriced[g] === 1;
  });
  places.hosts.forEach((host, h) => {
    host.idleCost = hostCost[h]!;
    host.idleSaving = hostSaving[h]!;
    host.unpriced = hostUnpriced[h] === 1;
    host.dayIdleCost.set(dayCost.subarray(h * columns, (h + 1) * columns));
  });
  return claimedHours;
}

function addClaimedHour(
  claimedHours: Map<string, Map<number, ClaimedHour>>,
  gpu: { host: string; index: number },
  rows: HourRows,
  i: number,
  idleMinuteCost: number,
): void {
  const key = gpuKey(gpu.host, gpu.index);
  let hours = claimedHours.get(key);
  if (hours === undefined) {
    hours = new Map();
    claimedHours.set(key, hours);
  }
  hours.set(rows.hourMs[i]!, {
    busyMinutes: rows.busyMinutes[i]!,
    idleMinutes: rows.idleMinutes[i]!,
    idleMinuteCost,
  });
}
