import type { GpuHourRollup } from "../domain/metrics.ts";
import { DAY_MS, HOUR_MS } from "../shared/clock.ts";
import { localParts } from "../shared/time.ts";

/** Hours in a week: an hour-of-week is `weekday * 24 + hour`, Monday 00:00 being 0, in the team zone. */
export const WEEK_HOURS = 168;
/** The profile reads the rollups of the last this many weeks. */
export const PROFILE_WEEKS = 8;
/** Under this much history (from the first known rollup hour to now) there is no estimate. */
export const MIN_HISTORY_WEEKS = 4;
/** An hour-of-week is known for a GPU once this many weeks had readings in it. */
export const MIN_CELL_WEEKS = 2;
/** A rollup hour counts for its week when at least this many of its minutes had readings. */
export const MIN_KNOWN_MINUTES = 30;

const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/** The hour-of-week (0–167) of `ms` in `zone`. */
export function hourOfWeek(ms: number, zone: string): number {
  const parts = localParts(ms, zone);
  return WEEKDAYS.indexOf(parts.weekday) * 24 + parts.hour;
}

/** One GPU's hour-of-week profile: per hour-of-week the share of known minutes it was idle, `null` unknown. */
export interface GpuWeekProfile {
  host: string;
  index: number;
  model: string | null;
  /**
   * 168 entries; `NaN`: fewer than {@link MIN_CELL_WEEKS} weeks with readings in that hour (never free).
   * A typed array: 80,000 GPUs' profiles outside the heap, not 13 M boxed numbers in it.
   */
  idleShare: Float64Array;
}

/** The fleet's hour-of-week profiles over `[fromMs, toMs)`. */
export interface WeekProfiles {
  fromMs: number;
  toMs: number;
  zone: string;
  /** Days from the first rollup hour with readings to `toMs`; 0 without any. */
  historyDays: number;
  /** Whether there is enough history ({@link MIN_HISTORY_WEEKS}) to estimate anything. */
  enough: boolean;
  gpus: GpuWeekProfile[];
}

/** The window the profile reads at `nowMs`: the last {@link PROFILE_WEEKS} weeks of whole hours. */
export function profileWindow(nowMs: number): { fromMs: number; toMs: number } {
  const toMs = Math.floor(nowMs / HOUR_MS) * HOUR_MS;
  return { fromMs: toMs - PROFILE_WEEKS * 7 * DAY_MS, toMs };
}

/** One clock hour's rollups as columns: row `k` is GPU `gpuIds[k]` (what the store's hour packs hold). */
export interface WeekProfileHour {
  hourMs: number;
  gpuIds: Int32Array;
  busyMinutes: Float64Array;
  idleMinutes: Float64Array;
}

/**
 * The per-GPU hour-of-week profiles from hourly rollups (`models`: each `host:index`'s model).
 * Minutes without readings count neither way; hours without enough weeks of readings stay unknown. Pure.
 */
export function buildWeekProfiles(
  rollups: Iterable<GpuHourRollup>,
  models: ReadonlyMap<string, string | null>,
  window: { fromMs: number; toMs: number },
  zone: string,
): WeekProfiles {
  const cells = createWeekCells(window, zone);
  const slots = new Map<string, number>();
  const gpus: Array<{ host: string; index: number }> = [];
  for (const row of rollups) {
    const key = `${row.host}:${row.index}`;
    let slot = slots.get(key);
    if (slot === undefined) {
      slot = gpus.push({ host: row.host, index: row.index }) - 1;
      slots.set(key, slot);
    }
    cells.add(slot, row.hourMs, row.busyMinutes, row.idleMinutes);
  }
  return cells.profiles((slot) => gpus[slot], models);
}

/** Minutes busy and idle, and weeks known, per GPU slot and hour-of-week, in typed arrays. */
function createWeekCells(window: { fromMs: number; toMs: number }, zone: string) {
  const minutes: Float64Array[] = [];
  const weeks: Uint8Array[] = [];
  const howOf = new Map<number, number>();
  let firstKnownMs = Number.POSITIVE_INFINITY;
  const add = (slot: number, hourMs: number, busy: number, idle: number) => {
    if (hourMs < window.fromMs || hourMs >= window.toMs) return;
    let how = howOf.get(hourMs);
    if (how === undefined) {
      how = hourOfWeek(hourMs, zone);
      howOf.set(hourMs, how);
    }
    let list = minutes[slot];
    if (list === undefined) {
      list = minutes[slot] = new Float64Array(WEEK_HOURS * 2);
      weeks[slot] = new Uint8Array(WEEK_HOURS);
    }
    list[how * 2] = list[how * 2]! + busy;
    list[how * 2 + 1] = list[how * 2 + 1]! + idle;
    if (busy + idle >= MIN_KNOWN_MINUTES) {
      weeks[slot]![how]! += 1;
      firstKnownMs = Math.min(firstKnownMs, hourMs);
    }
  };
  const profiles = (
    gpuOf: (slot: number) => { host: string; index: number } | undefined,
    models: ReadonlyMap<string, string | null>,
  ): WeekProfiles => {
    const gpus: GpuWeekProfile[] = [];
    minutes.forEach((list, slot) => {
      const gpu = gpuOf(slot);
      if (gpu === undefined) return;
      const known = weeks[slot]!;
      const idleShare = new Float64Array(WEEK_HOURS);
      for (let how = 0; how < WEEK_HOURS; how++) {
        const idle = list[how * 2 + 1]!;
        idleShare[how] = known[how]! >= MIN_CELL_WEEKS ? idle / (list[how * 2]! + idle) : Number.NaN;
      }
      gpus.push({
        host: gpu.host,
        index: gpu.index,
        model: models.get(`${gpu.host}:${gpu.index}`) ?? null,
        idleShare,
      });
    });
    gpus.sort((a, b) => a.host.localeCompare(b.host) || a.index - b.index);
    const historyDays = Number.isFinite(firstKnownMs) ? (window.toMs - firstKnownMs) / DAY_MS : 0;
    return { ...window, zone, historyDays, enough: historyDays >= MIN_HISTORY_WEEKS * 7, gpus };
  };
  return { add, profiles };
}

/** Whether the GPU is usually free in hour-of-week `how`: known, and idle at least half of the time. */
export function usuallyFree(gpu: GpuWeekProfile, how: number): boolean {
  const share = gpu.idleShare[how];
  return share !== undefined && share >= 0.5;
}

/**
 * A host's (or a group's) busy share per hour-of-week: busy GPU share averaged over its GPUs known in
 * that hour; `null` where none is known. For the heatmap. Pure.
 */
export function busyShares(gpus: readonly GpuWeekProfile[]): Array<number | null> {
  return Array.from({ length: WEEK_HOURS }, (_, how) => {
    let sum = 0;
    let known = 0;
    for (const gpu of gpus) {
      const share = gpu.idleShare[how];
      if (share === undefined || Number.isNaN(share)) continue;
      sum += 1 - share;
      known++;
    }
    return known === 0 ? null : sum / known;
  });
}
