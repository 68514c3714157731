import type { HourRows } from "./hour-rows.ts";
import { type ClaimedHour, gpuKey } from "./summary-accumulators.ts";
import type { RowSums } from "./summary-row-sums.ts";

/**
 * Adds each row's idle minutes at its hour's price to its GPU and host, overall and per day column
 * (marking the unpriced ones), and returns the claimed GPUs' hours by GPU key and hour.
 */
export function addIdleCosts(rows: HourRows, sums: RowSums): Map<string, Map<number, ClaimedHour>> {
  const { rowGpus, rowSlot, rowColumn } = sums;
  const { gpu: rowGpu, idleMinutes } = rows;
  const claimedHours = new Map<string, Map<number, ClaimedHour>>();
  for (let i = 0; i < rows.length; i++) {
    const gpu = rowGpus[rowGpu[i]!]!;
    const host = gpu.hostAcc!;
    const slot = rowSlot[i]!;
    const idleMinuteCost = slot >= 0 ? host.idleMinuteCost[slot]! : Number.NaN;
    const idle = idleMinutes[i]!;
    // NOTE: a GPU in an hour without a price is unpriced even when it was busy then: otherwise a
    // host without a price that happened to be busy would show an idle cost of 0.
    if (Number.isNaN(idleMinuteCost) && (idle > 0 || slot >= 0)) {
      gpu.unpriced = true;
      host.unpriced = true;
    } else if (idle > 0) {
      gpu.idleCost += idle * idleMinuteCost;
      host.idleCost += idle * idleMinuteCost;
      const saving = slot >= 0 ? host.idleMinuteSaving[slot]! : Number.NaN;
      if (!Number.isNaN(saving)) host.idleSaving += idle * saving;
      if (slot >= 0) {
        const day = rowColumn[i]!;
        host.dayIdleCost[day] = host.dayIdleCost[day]! + idle * idleMinuteCost;
      }
    }
    if (gpu.claimed) {
      const key = gpuKey(gpu.host, gpu.index);
      let hours = claimedHours.get(key);
      if (hours === undefined) {
        hours = new Map();
        claimedHours.set(key, hours);
      }
      hours.set(rows.hourMs[i]!, { busyMinutes: rows.busyMinutes[i]!, idleMinutes: idle, idleMinuteCost });
    }
  }
  return claimedHours;
}
