import type { GpuHourRollup } from "../domain/metrics.ts";
import type { HostHourUsage } from "./cost-model.ts";

const HOUR_MS = 3_600_000;

/**
 * One host's hourly rollups over `[fromMs, toMs)` as {@link HostHourUsage}s, one per clock hour
 * that overlaps the span and in which the host had GPUs. A clock hour cut by the span (a local day
 * in a zone with a half-hour offset) counts pro rata. A GPU counts from the hour it was first seen;
 * an hour without a rollup row for it (the bot was down) is unknown for it.
 */
export function hostHourUsages(input: {
  /** The host's rollups; others' are ignored when `host` is given. */
  rollups: readonly GpuHourRollup[];
  host?: string;
  /** The host's GPUs and when each was first seen. */
  gpus: readonly { index: number; firstSeenMs: number }[];
  fromMs: number;
  toMs: number;
}): HostHourUsage[] {
  const { fromMs, toMs } = input;
  const byHour = new Map<number, GpuHourRollup[]>();
  for (const row of input.rollups) {
    if (input.host !== undefined && row.host !== input.host) continue;
    if (row.hourMs + HOUR_MS <= fromMs || row.hourMs >= toMs) continue;
    const rows = byHour.get(row.hourMs);
    if (rows === undefined) byHour.set(row.hourMs, [row]);
    else rows.push(row);
  }
  const usages: HostHourUsage[] = [];
  for (let hourMs = floorHour(fromMs); hourMs < toMs; hourMs += HOUR_MS) {
    const rows = byHour.get(hourMs) ?? [];
    const seen = new Set(rows.map((row) => row.index));
    for (const gpu of input.gpus) if (gpu.firstSeenMs < hourMs + HOUR_MS) seen.add(gpu.index);
    if (seen.size === 0) continue;
    const spanFrom = Math.max(hourMs, fromMs);
    const spanTo = Math.min(hourMs + HOUR_MS, toMs);
    const share = (spanTo - spanFrom) / HOUR_MS;
    let busy = 0;
    let idle = 0;
    let on = 0;
    let energyWh: number | null = null;
    for (const row of rows) {
      busy += row.busyMinutes;
      idle += row.idleMinutes;
      on = Math.max(on, row.busyMinutes + row.idleMinutes);
      if (row.energyWh !== null) energyWh = (energyWh ?? 0) + row.energyWh;
    }
    const gpuMinutes = seen.size * 60 * share;
    usages.push({
      hourMs,
      fromMs: spanFrom,
      toMs: spanTo,
      gpus: seen.size,
      busyGpuMinutes: busy * share,
      idleGpuMinutes: idle * share,
      unknownGpuMinutes: Math.max(0, gpuMinutes - (busy + idle) * share),
      onMinutes: Math.min(60, on) * share,
      energyWh: energyWh === null ? null : energyWh * share,
    });
  }
  return usages;
}

/** GPU-hours of a set of hour usages: busy, idle, unknown and on (busy + idle). */
export function gpuHoursOf(usages: readonly HostHourUsage[]): {
  busy: number;
  idle: number;
  unknown: number;
} {
  let busy = 0;
  let idle = 0;
  let unknown = 0;
  for (const usage of usages) {
    busy += usage.busyGpuMinutes;
    idle += usage.idleGpuMinutes;
    unknown += usage.unknownGpuMinutes;
  }
  return { busy: busy / 60, idle: idle / 60, unknown: unknown / 60 };
}

/** Busy GPU-hours over GPU-hours on (busy + idle): the real usage rate; `null` when never on. */
export function usageRate(busyGpuHours: number, idleGpuHours: number): number | null {
  const on = busyGpuHours + idleGpuHours;
  return on > 0 ? busyGpuHours / on : null;
}

function floorHour(ms: number): number {
  return Math.floor(ms / HOUR_MS) * HOUR_MS;
}
