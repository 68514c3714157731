import type { HostHourUsage } from "../checks/cost-model.ts";
import type { HostRecord } from "../domain/metrics.ts";
import { expectedMinutes, gpusSeenBy, HOUR_MS, type HostAcc } from "./summary-accumulators.ts";
import type { ClockHourPrices, SummaryInput, SummaryPricing } from "./summary-model.ts";

/** One clock hour's sums per host place (the hosts with rows in it are in `rows > 0`). */
export class HourSums {
  readonly busy: Float64Array;
  readonly idle: Float64Array;
  /** The most minutes any GPU had a reading: minutes the host was on. */
  readonly on: Float64Array;
  readonly energy: Float64Array;
  readonly hasEnergy: Uint8Array;
  readonly rows: Uint16Array;
  /** Cost of one idle GPU-minute in this hour and the part a stop saves, per host place; NaN: none. */
  readonly cost: Float64Array;
  readonly saving: Float64Array;
  /** The usage each host's hour is priced with, filled again for each (the pricing reads it during the call only). */
  readonly usage: HostHourUsage = {
    hourMs: 0,
    fromMs: 0,
    toMs: 0,
    gpus: 0,
    busyGpuMinutes: 0,
    idleGpuMinutes: 0,
    unknownGpuMinutes: 0,
    onMinutes: 0,
    energyWh: null,
  };

  constructor(hosts: number) {
    this.busy = new Float64Array(hosts);
    this.idle = new Float64Array(hosts);
    this.on = new Float64Array(hosts);
    this.energy = new Float64Array(hosts);
    this.hasEnergy = new Uint8Array(hosts);
    this.rows = new Uint16Array(hosts);
    this.cost = new Float64Array(hosts);
    this.saving = new Float64Array(hosts);
  }

  clear(): void {
    this.busy.fill(0);
    this.idle.fill(0);
    this.on.fill(0);
    this.energy.fill(0);
    this.hasEnergy.fill(0);
    this.rows.fill(0);
  }
}

/**
 * Each host place's record, from when all its GPUs had been seen (so {@link gpusSeenBy} is their
 * count), and its clock hours' prices when the pricing has them ({@link SummaryPricing.clockHours}).
 */
export class HostRecords {
  readonly records: (HostRecord | undefined)[];
  readonly allSeenAfterMs: Float64Array;
  readonly names: string[];
  readonly clock: ClockHourPrices | null;
  /** A host's cost and saving of one hour, from {@link clock}. */
  readonly priced = new Float64Array(2);

  constructor(records: ReadonlyMap<string, HostRecord>, hosts: readonly string[], pricing: SummaryPricing) {
    this.names = [...hosts];
    this.clock = pricing.clockHours?.(this.names) ?? null;
    this.records = hosts.map((host) => records.get(host));
    this.allSeenAfterMs = Float64Array.from(this.records, (record) =>
      record === undefined
        ? Number.POSITIVE_INFINITY
        : Math.max(-1, ...record.gpus.map((gpu) => gpu.firstSeenMs)),
    );
  }

  /** {@link gpusSeenBy} of host place `h`. */
  seenBy(h: number, beforeMs: number): number {
    const record = this.records[h];
    if (record === undefined) return 0;
    return beforeMs > this.allSeenAfterMs[h]! ? record.gpus.length : gpusSeenBy(record, beforeMs);
  }
}

/**
 * Per host place, what the stops need of its hours: {@link HostAcc.busyHours} (`host × slots`) and its
 * energy while on, summed here in flat arrays and copied to the accumulators at the end (each starts
 * at 0, so this is what adding them there gives).
 */
export class HostOnHours {
  readonly busyHours: Uint8Array;
  readonly energyWh: Float64Array;
  readonly energyOnHours: Float64Array;

  constructor(
    hosts: number,
    readonly slots: number,
  ) {
    this.busyHours = new Uint8Array(hosts * slots);
    this.energyWh = new Float64Array(hosts);
    this.energyOnHours = new Float64Array(hosts);
  }

  copyTo(hosts: readonly HostAcc[]): void {
    const { slots } = this;
    hosts.forEach((host, h) => {
      host.busyHours.set(this.busyHours.subarray(h * slots, (h + 1) * slots));
      host.energyWh = this.energyWh[h]!;
      host.energyOnHours = this.energyOnHours[h]!;
    });
  }
}

/**
 * Prices the hour at `slot` (starting at `hourMs`) for each host with rows in it, into `hour.cost` and
 * `hour.saving` (NaN from `dataUntilMs` on, or without a price), and notes the host's busy hour and
 * energy while on.
 */
export function priceHour(
  input: SummaryInput,
  records: HostRecords,
  onHours: HostOnHours,
  hour: HourSums,
  slot: number,
  hourMs: number,
  dataUntilMs: number,
): void {
  hour.cost.fill(Number.NaN);
  hour.saving.fill(Number.NaN);
  const { rows, busy, on, energy, hasEnergy } = hour;
  const { busyHours, energyWh, energyOnHours, slots } = onHours;
  for (let h = 0; h < rows.length; h++) {
    if (rows[h] === 0) continue;
    if (busy[h]! > 0) busyHours[h * slots + slot] = 1;
    if (hasEnergy[h] && on[h]! > 0) {
      energyWh[h]! += energy[h]!;
      energyOnHours[h]! += Math.min(60, on[h]!) / 60;
    }
  }
  if (hourMs >= dataUntilMs) return;
  if (records.clock !== null) priceClockHour(records, records.clock, hour, hourMs);
  else priceHostHours(input.pricing, records, hour, hourMs);
}

/** {@link priceHour}'s prices from the pricing's clock hours: no object per host-hour. */
function priceClockHour(records: HostRecords, clock: ClockHourPrices, hour: HourSums, hourMs: number): void {
  const { rows, on, energy, hasEnergy, cost, saving } = hour;
  const out = records.priced;
  clock.hour(hourMs);
  for (let h = 0; h < rows.length; h++) {
    if (rows[h] === 0) continue;
    const gpus = Math.max(rows[h]!, records.seenBy(h, hourMs + HOUR_MS));
    clock.price(h, Math.min(60, on[h]!), hasEnergy[h] ? energy[h]! : Number.NaN, out);
    cost[h] = out[0]! / (gpus * 60);
    saving[h] = out[1]! / (gpus * 60);
  }
}

/** {@link priceHour}'s prices, one pricing call per host-hour. */
function priceHostHours(pricing: SummaryPricing, records: HostRecords, hour: HourSums, hourMs: number): void {
  for (let h = 0; h < hour.rows.length; h++) {
    if (hour.rows[h] === 0) continue;
    const gpus = Math.max(hour.rows[h]!, records.seenBy(h, hourMs + HOUR_MS));
    const usage = hour.usage;
    usage.hourMs = hourMs;
    usage.fromMs = hourMs;
    usage.toMs = hourMs + HOUR_MS;
    usage.gpus = gpus;
    usage.busyGpuMinutes = hour.busy[h]!;
    usage.idleGpuMinutes = hour.idle[h]!;
    usage.unknownGpuMinutes = Math.max(0, gpus * 60 - hour.busy[h]! - hour.idle[h]!);
    usage.onMinutes = Math.min(60, hour.on[h]!);
    usage.energyWh = hour.hasEnergy[h] ? hour.energy[h]! : null;
    const { cost, saving } = costAndSaving(pricing, records.names[h]!, usage);
    if (cost !== null) hour.cost[h] = cost / (gpus * 60);
    if (saving !== null) hour.saving[h] = saving / (gpus * 60);
  }
}

/** Sets each GPU's expected and unknown minutes before `dataUntilMs`, and their hosts'. */
export function spanMinutes(
  input: SummaryInput,
  records: ReadonlyMap<string, HostRecord>,
  hosts: Iterable<HostAcc>,
  dataUntilMs: number,
): void {
  for (const host of hosts) {
    const record = records.get(host.name);
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
