import { HOUR_MS } from "../shared/clock.ts";
import { hourOfWeek, MIN_CELL_WEEKS, MIN_KNOWN_MINUTES, type WeekProfileHour } from "./week-profile.ts";

/** The GPUs in profile order (host, then index; ties by id) and where each GPU id sits in it. */
export interface GpuOrder {
  /** Per GPU id its slot, `-1` for an id not known. */
  slotOfId: Int32Array;
  /** Per slot the number of its host in {@link hosts}. */
  hostOfSlot: Int32Array;
  /** Per slot its GPU. */
  gpus: Array<{ host: string; index: number }>;
  /** The host names, sorted. */
  hosts: string[];
}

/** The GPUs sorted as the hour-of-week profiles sort them, hosts numbered in that order. Pure. */
export function gpuOrder(gpus: ReadonlyMap<number, { host: string; index: number }>): GpuOrder {
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
  return { slotOfId, hostOfSlot, gpus: sorted.map(([, gpu]) => gpu), hosts };
}

/** What {@link sumHoursOfWeek} saw over the window. */
export interface WeekHourSums {
  /** Per slot 1 when the GPU had a rollup in the window. */
  seen: Uint8Array;
  /** The first hour with a GPU's rollup of at least 30 known minutes; `Infinity` without. */
  firstKnownMs: number;
}

/**
 * The hour-of-week cells of every GPU over `window`, one hour-of-week at a time: its hours (`at`,
 * `null` without rollups) summed oldest first, as one profile per GPU sums them, then
 * `share(how, slot, idleShare)` for each GPU known in it ({@link MIN_CELL_WEEKS}). Pure.
 */
export function sumHoursOfWeek(
  at: (hourMs: number) => WeekProfileHour | null,
  order: GpuOrder,
  window: { fromMs: number; toMs: number },
  zone: string,
  share: (how: number, slot: number, idleShare: number) => void,
): WeekHourSums {
  const slots = order.hostOfSlot.length;
  const sums = { seen: new Uint8Array(slots), firstKnownMs: Number.POSITIVE_INFINITY };
  const cell = { busy: new Float64Array(slots), idle: new Float64Array(slots), weeks: new Uint8Array(slots) };
  for (const [how, hours] of hoursByHourOfWeek(window, zone)) {
    cell.busy.fill(0);
    cell.idle.fill(0);
    cell.weeks.fill(0);
    for (const hourMs of hours) {
      const hour = at(hourMs);
      if (hour !== null) addHour(cell, sums, order.slotOfId, hour);
    }
    for (let slot = 0; slot < slots; slot++) {
      if (cell.weeks[slot]! < MIN_CELL_WEEKS) continue;
      const idle = cell.idle[slot]!;
      share(how, slot, idle / (cell.busy[slot]! + idle));
    }
  }
  return sums;
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
  sums: WeekHourSums,
  slotOfId: Int32Array,
  hour: WeekProfileHour,
): void {
  const { gpuIds, busyMinutes, idleMinutes } = hour;
  for (let k = 0; k < gpuIds.length; k++) {
    const id = gpuIds[k]!;
    const busy = busyMinutes[k]!;
    const idle = idleMinutes[k]!;
    const known = busy + idle >= MIN_KNOWN_MINUTES;
    if (known && hour.hourMs < sums.firstKnownMs) sums.firstKnownMs = hour.hourMs;
    const slot = id >= 0 && id < slotOfId.length ? slotOfId[id]! : -1;
    if (slot < 0) continue;
    cell.busy[slot] = cell.busy[slot]! + busy;
    cell.idle[slot] = cell.idle[slot]! + idle;
    sums.seen[slot] = 1;
    if (known) cell.weeks[slot]! += 1;
  }
}
