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
const MIN_KNOWN_MINUTES = 30;

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
  /** 168 entries; `null`: fewer than {@link MIN_CELL_WEEKS} weeks with readings in that hour (never free). */
  idleShare: Array<number | null>;
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

interface Cell {
  busy: number;
  idle: number;
  weeks: number;
}

/**
 * The per-GPU hour-of-week profiles from hourly rollups (`models`: each `host:index`'s model).
 * Minutes without readings count neither way; hours without enough weeks of readings stay unknown. Pure.
 */
export function buildWeekProfiles(
  rollups: readonly GpuHourRollup[],
  models: ReadonlyMap<string, string | null>,
  window: { fromMs: number; toMs: number },
  zone: string,
): WeekProfiles {
  const cells = new Map<string, Cell[]>();
  let firstKnownMs = Number.POSITIVE_INFINITY;
  for (const row of rollups) {
    if (row.hourMs < window.fromMs || row.hourMs >= window.toMs) continue;
    const key = `${row.host}:${row.index}`;
    let list = cells.get(key);
    if (list === undefined) {
      list = Array.from({ length: WEEK_HOURS }, () => ({ busy: 0, idle: 0, weeks: 0 }));
      cells.set(key, list);
    }
    const cell = list[hourOfWeek(row.hourMs, zone)] as Cell;
    cell.busy += row.busyMinutes;
    cell.idle += row.idleMinutes;
    if (row.busyMinutes + row.idleMinutes >= MIN_KNOWN_MINUTES) {
      cell.weeks++;
      firstKnownMs = Math.min(firstKnownMs, row.hourMs);
    }
  }
  const gpus = [...cells.entries()].map(([key, list]): GpuWeekProfile => {
    const at = key.lastIndexOf(":");
    return {
      host: key.slice(0, at),
      index: Number(key.slice(at + 1)),
      model: models.get(key) ?? null,
      idleShare: list.map((cell) =>
        cell.weeks >= MIN_CELL_WEEKS ? cell.idle / (cell.busy + cell.idle) : null,
      ),
    };
  });
  gpus.sort((a, b) => a.host.localeCompare(b.host) || a.index - b.index);
  const historyDays = Number.isFinite(firstKnownMs) ? (window.toMs - firstKnownMs) / DAY_MS : 0;
  return {
    ...window,
    zone,
    historyDays,
    enough: historyDays >= MIN_HISTORY_WEEKS * 7,
    gpus,
  };
}

/** Whether the GPU is usually free in hour-of-week `how`: known, and idle at least half of the time. */
export function usuallyFree(gpu: GpuWeekProfile, how: number): boolean {
  const share = gpu.idleShare[how];
  return share !== null && share !== undefined && share >= 0.5;
}

/**
 * A host's (or a group's) busy share per hour-of-week: busy GPU share averaged over its GPUs known in
 * that hour; `null` where none is known. For the heatmap. Pure.
 */
export function busyShares(gpus: readonly GpuWeekProfile[]): Array<number | null> {
  return Array.from({ length: WEEK_HOURS }, (_, how) => {
    const known = gpus.flatMap((gpu) => {
      const share = gpu.idleShare[how];
      return share === null || share === undefined ? [] : [1 - share];
    });
    return known.length === 0 ? null : known.reduce((sum, share) => sum + share, 0) / known.length;
  });
}
