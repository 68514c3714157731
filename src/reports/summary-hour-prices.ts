import type { HostHourUsage } from "../checks/cost-model.ts";
import type { HostRecord } from "../domain/metrics.ts";
import { expectedMinutes, gpusSeenBy, HOUR_MS, type HostAcc } from "./summary-accumulators.ts";
import type { SummaryInput, SummaryPricing } from "./summary-model.ts";
import type { SummaryGrid } from "./summary-row-sums.ts";

/**
 * Prices each host's hours before `dataUntilMs` (the cost of one idle GPU-minute per hour) and sets
 * each GPU's expected and unknown minutes.
 */
export function priceHours(
  input: SummaryInput,
  records: ReadonlyMap<string, HostRecord>,
  grid: SummaryGrid,
  hosts: Iterable<HostAcc>,
  dataUntilMs: number,
): void {
  const { firstHourMs, hourSlots } = grid;
  for (const host of hosts) {
    const record = records.get(host.name);
    for (let slot = 0; slot < hourSlots; slot++) {
      const hourMs = firstHourMs + slot * HOUR_MS;
      if (hourMs >= dataUntilMs) break;
      const gpus = Math.max(host.hourRows[slot]!, gpusSeenBy(record, hourMs + HOUR_MS));
      if (gpus === 0) continue;
      const usage = {
        hourMs,
        fromMs: hourMs,
        toMs: hourMs + HOUR_MS,
        gpus,
        busyGpuMinutes: host.hourBusy[slot]!,
        idleGpuMinutes: host.hourIdle[slot]!,
        unknownGpuMinutes: Math.max(0, gpus * 60 - host.hourBusy[slot]! - host.hourIdle[slot]!),
        onMinutes: Math.min(60, host.hourOn[slot]!),
        energyWh: host.hourHasEnergy[slot] ? host.hourEnergy[slot]! : null,
      };
      const { cost, saving } = costAndSaving(input.pricing, host.name, usage);
      if (cost !== null) host.idleMinuteCost[slot] = cost / (gpus * 60);
      if (saving !== null) host.idleMinuteSaving[slot] = saving / (gpus * 60);
    }
    for (const gpu of host.gpus) {
      if (gpu === undefined) continue;
      const expected = expectedMinutes(record, gpu.index, input.period.fromMs, dataUntilMs);
      gpu.spanMinutes = expected;
      gpu.unknown = Math.max(0, expected - gpu.busy - gpu.idle);
      host.spanMinutes += expected;
      host.unknown += gpu.unknown;
    }
  }
}

function costAndSaving(
  pricing: SummaryPricing,
  host: string,
  usage: HostHourUsage,
): { cost: number | null; saving: number | null } {
  if (pricing.hostCostAndSaving !== undefined) return pricing.hostCostAndSaving(host, usage);
  return { cost: pricing.hostCost(host, usage), saving: pricing.hostSaving?.(host, usage) ?? null };
}
