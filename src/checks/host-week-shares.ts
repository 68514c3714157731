import { HOUR_MS } from "../shared/clock.ts";
import { hourOfWeek, MIN_CELL_WEEKS, WEEK_HOURS, type WeekProfileHour } from "./week-profile.ts";

/** A rollup hour counts for its week when at least this many of its minutes had readings (as the profiles). */
const MIN_KNOWN_MINUTES = 30;

/** One host's row of the heatmap: its GPUs with readings in the window, its busy share per hour-of-week. */
export interface HostWeekShares {
  host: string;
  gpus: number;
  /** 168 entries, `null` where none of its GPUs is known. */
  busyShares: Array<number | null>;
}

/** The GPUs of the fleet in profile order (host, then index) and where each GPU id sits in it. */
interface GpuOrder {
  slotOfId: Int32Array;
  hostOfSlot: Int32Array;
  hosts: string[];
}

/**
 * Per host, {@link busyShares} of its GPUs' hour-of-week profiles ({@link buildWeekProfilesOfHours})
 * over `window`, without holding a profile per GPU: one hour-of-week at a time, its hours (`at`, `null`
 * without rollups) summed in time order as the profiles sum them, so every share is the same number.
 * Hosts without a known hour are left out. Pure.
 */
export function buildHostWeekShares(
  at: (hourMs: number) => WeekProfileHour | null,
  gpus: ReadonlyMap<number, { host: string; index: number }>,
  window: { fromMs: number; toMs: number },
  zone: string,
): HostWeekShares[] {
  const order = gpuOrder(gpus);
  const slots = order.hostOfSlot.length;
  const seen = new Uint8Array(slots);
  const sums = new Float64Array(order.hosts.length * WEEK_HOURS);
  const known = new Uint16Array(order.hosts.length * WEEK_HOURS);
  const cell = { busy: new Float64Array(slots), idle: new Float64Array(slots), weeks: new Uint8Array(slots) };
  for (const [how, hours] of hoursByHourOfWeek(window, zone)) {
    cell.busy.fill(0);
    cell.idle.fill(0);
    cell.weeks.fill(0);
    for (const hourMs of hours) {
      const hour = at(hourMs);
      if (hour !== null) addHour(cell, seen, order.slotOfId, hour);
    }
    for (let slot = 0; slot < slots; slot++) {
      if (cell.weeks[slot]! < MIN_CELL_WEEKS) continue;
      const idle = cell.idle[slot]!;
      const share = idle / (cell.busy[slot]! + idle);
      const hostCell = order.hostOfSlot[slot]! * WEEK_HOURS + how;
      sums[hostCell] = sums[hostCell]! + (1 - share);
      known[hostCell]! += 1;
    }
  }
  return hostRows(order, seen, sums, known);
}

/** The hours of `window`, oldest first, grouped by their hour-of-week in `zone`. */
function hoursByHourOfWeek(window: { fromMs: number; toMs: number }, zone: string): Map<number, number[]> {
  const byHow = new Map<number, number[]>();
  for (let hourMs = Math.ceil(window.fromMs / HOUR_MS) * HOUR_MS; hourMs < window.toMs; hourMs += HOUR_MS) {
    const how = hourOfWeek(hourMs, zone);
    const hours = byHow.get(how);
    if (hours === undefined) byHow.set(how, [hourMs]);
    else hours.push(hourMs);
  }
  return byHow;
}

function addHour(
  cell: { busy: Float64Array; idle: Float64Array; weeks: Uint8Array },
  seen: Uint8Array,
  slotOfId: Int32Array,
  hour: WeekProfileHour,
): void {
  const { gpuIds, busyMinutes, idleMinutes } = hour;
  for (let k = 0; k < gpuIds.length; k++) {
    const id = gpuIds[k]!;
    const slot = id >= 0 && id < slotOfId.length ? slotOfId[id]! : -1;
    if (slot < 0) continue;
    const busy = busyMinutes[k]!;
    const idle = idleMinutes[k]!;
    cell.busy[slot] = cell.busy[slot]! + busy;
    cell.idle[slot] = cell.idle[slot]! + idle;
    seen[slot] = 1;
    if (busy + idle >= MIN_KNOWN_MINUTES) cell.weeks[slot]! += 1;
  }
}

/** The GPUs sorted as the profiles sort them (host, then index), hosts numbered in that order. */
function gpuOrder(gpus: ReadonlyMap<number, { host: string; index: number }>): GpuOrder {
  const byId = [...gpus].sort(([a], [b]) => a - b);
  const sorted = byId.sort(([, a], [, b]) => a.host.localeCompare(b.host) || a.index - b.index);
  let maxId = -1;
  for (const [id] of sorted) maxId = Math.max(maxId, id);
  const slotOfId = new Int32Array(maxId + 1).fill(-1);
  const hostOfSlot = new Int32Array(sorted.length);
  const hosts: string[] = [];
  sorted.forEach(([id, gpu], slot) => {
    if (hosts[hosts.length - 1] !== gpu.host) hosts.push(gpu.host);
    slotOfId[id] = slot;
    hostOfSlot[slot] = hosts.length - 1;
  });
  return { slotOfId, hostOfSlot, hosts };
}

function hostRows(
  order: GpuOrder,
  seen: Uint8Array,
  sums: Float64Array,
  known: Uint16Array,
): HostWeekShares[] {
  const gpusOf = new Uint32Array(order.hosts.length);
  for (let slot = 0; slot < seen.length; slot++) gpusOf[order.hostOfSlot[slot]!]! += seen[slot]!;
  const rows: HostWeekShares[] = [];
  order.hosts.forEach((host, h) => {
    if (gpusOf[h] === 0) return;
    const busyShares = Array.from({ length: WEEK_HOURS }, (_, how) => {
      const n = known[h * WEEK_HOURS + how]!;
      return n === 0 ? null : sums[h * WEEK_HOURS + how]! / n;
    });
    if (busyShares.some((share) => share !== null)) rows.push({ host, gpus: gpusOf[h]!, busyShares });
  });
  return rows;
}
