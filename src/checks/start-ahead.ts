import type { GpuHourRollup } from "../domain/metrics.ts";
import { MINUTE_MS } from "../shared/clock.ts";
import { nextWorkingSpan, type TeamCalendar, workingDaysBefore } from "./working-hours.ts";

/** A span of working hours, `[fromMs, toMs)`. */
export interface WorkingSpan {
  fromMs: number;
  toMs: number;
}

/**
 * The working hours a start-ahead at `nowMs` is for: the next working day's, when they begin within
 * `minutesAhead` from now (and have not begun); otherwise `null`. Pure.
 */
export function startAheadSpan(
  calendar: TeamCalendar,
  nowMs: number,
  minutesAhead: number,
): WorkingSpan | null {
  const span = nextWorkingSpan(calendar, nowMs);
  if (span === null || span.fromMs - nowMs > minutesAhead * MINUTE_MS) return null;
  return span;
}

/**
 * Whether a host counts as used every recent working day: a GPU of it was busy (at or above the idle
 * threshold, as the hourly rollups count it) in the working hours of each of the `usualDays` working
 * days before `span`. `rollups` are the host's; a day without any busy hour (or without readings) breaks it.
 */
export function usedEveryRecentDay(
  calendar: TeamCalendar,
  span: WorkingSpan,
  rollups: readonly GpuHourRollup[],
  usualDays: number,
): boolean {
  const days = workingDaysBefore(calendar, span.fromMs, usualDays);
  if (days.length < usualDays) return false;
  const busyHours = rollups.filter((rollup) => rollup.busyMinutes > 0).map((rollup) => rollup.hourMs);
  return days.every((day) => busyHours.some((hourMs) => hourMs >= day.fromMs && hourMs < day.toMs));
}

/** The rollups {@link usedEveryRecentDay} reads: from the earliest of those days to the start of `span`. */
export function usualDaysFromMs(calendar: TeamCalendar, span: WorkingSpan, usualDays: number): number {
  return workingDaysBefore(calendar, span.fromMs, usualDays).at(-1)?.fromMs ?? span.fromMs;
}
