import { zonedMs } from "../shared/time.ts";
import { addDays, localDayOf, localDayStartMs } from "./local-day.ts";
import { isoWeekday } from "./reservation-window.ts";

/**
 * The team's working week in its time zone (`team.working_hours`, `team.holidays`): when people are
 * at their desks and may answer, and when the autopilot may stop a host that someone left a session on.
 */
export interface TeamCalendar {
  timezone: string;
  /** ISO weekdays (1 Monday … 7 Sunday) with working hours. */
  workingDays: readonly number[];
  /** Local minutes after midnight: start of the working day (inclusive)… */
  fromMinute: number;
  /** …and its end (exclusive), after `fromMinute`. */
  toMinute: number;
  /** Local days (`YYYY-MM-DD`) without working hours. */
  holidays: readonly string[];
}

/** Mon–Fri 09:00–18:00 in `timezone`, no holidays. */
export function defaultCalendar(timezone: string): TeamCalendar {
  return { timezone, workingDays: [1, 2, 3, 4, 5], fromMinute: 9 * 60, toMinute: 18 * 60, holidays: [] };
}

/**
 * Whether a session left on a host may be stopped at `atMs`: in the evening of a working day, from
 * when its working hours end until midnight. Never in the night or morning before working hours (its
 * person may be back within hours), nor on a day off: a session left on a Friday or before a holiday
 * has had no working day for its person to come back to, and they cannot be asked at home.
 */
export function mayStopSessionAt(calendar: TeamCalendar, atMs: number): boolean {
  const day = localDayOf(atMs, calendar.timezone);
  return eveningOf(calendar, day) !== null && atMs >= workingSpan(calendar, day).toMs;
}

/** Whether `atMs` falls in a working day's hours (people are at work and may answer). */
export function withinWorkingHours(calendar: TeamCalendar, atMs: number): boolean {
  const day = localDayOf(atMs, calendar.timezone);
  if (!isWorkingDay(calendar, day)) return false;
  const { fromMs, toMs } = workingSpan(calendar, day);
  return atMs >= fromMs && atMs < toMs;
}

/**
 * The first instant at or after `atMs` at which {@link mayStopSessionAt} holds: `atMs` itself, or the
 * end of the next working day's hours.
 */
export function nextSessionStopAt(calendar: TeamCalendar, atMs: number): number {
  if (mayStopSessionAt(calendar, atMs)) return atMs;
  let day = localDayOf(atMs, calendar.timezone);
  for (let i = 0; i < 15; i++, day = addDays(day, 1)) {
    const evening = eveningOf(calendar, day);
    if (evening !== null && evening >= atMs) return evening;
  }
  return atMs;
}

/** The evening of `day` (when its working hours end) if it is a working day; else `null`. */
function eveningOf(calendar: TeamCalendar, day: string): number | null {
  return isWorkingDay(calendar, day) ? workingSpan(calendar, day).toMs : null;
}

// NOTE: the claims job asks every minute; the answer found at `askedAtMs` holds for every instant
// from then until it (no working period starts in between). One per calendar object.
const nextStarts = new WeakMap<TeamCalendar, { askedAtMs: number; startMs: number }>();

/** The start of the next working period after `atMs` (within two weeks; `null` when there is none). */
export function nextWorkingStartAt(calendar: TeamCalendar, atMs: number): number | null {
  const known = nextStarts.get(calendar);
  if (known !== undefined && atMs >= known.askedAtMs && atMs < known.startMs) return known.startMs;
  const startMs = searchWorkingStart(calendar, atMs);
  if (startMs !== null) nextStarts.set(calendar, { askedAtMs: atMs, startMs });
  return startMs;
}

function searchWorkingStart(calendar: TeamCalendar, atMs: number): number | null {
  let day = localDayOf(atMs, calendar.timezone);
  for (let i = 0; i < 15; i++, day = addDays(day, 1)) {
    if (!isWorkingDay(calendar, day)) continue;
    const { fromMs } = workingSpan(calendar, day);
    if (fromMs > atMs) return fromMs;
  }
  return null;
}

/**
 * The first working day (`YYYY-MM-DD`) after the local day of `atMs`, within two weeks; the next
 * calendar day when there is none (a calendar without working days).
 */
export function nextWorkingDayAfter(calendar: TeamCalendar, atMs: number): string {
  const today = localDayOf(atMs, calendar.timezone);
  for (let day = addDays(today, 1), i = 0; i < 15; i++, day = addDays(day, 1)) {
    if (isWorkingDay(calendar, day)) return day;
  }
  return addDays(today, 1);
}

/** The working hours of the `count` working days before the one `atMs` falls on, latest first. */
export function workingDaysBefore(
  calendar: TeamCalendar,
  atMs: number,
  count: number,
): Array<{ fromMs: number; toMs: number }> {
  const spans: Array<{ fromMs: number; toMs: number }> = [];
  let day = addDays(localDayOf(atMs, calendar.timezone), -1);
  for (let i = 0; i < 7 * (count + 2) && spans.length < count; i++, day = addDays(day, -1)) {
    if (isWorkingDay(calendar, day)) spans.push(workingSpan(calendar, day));
  }
  return spans;
}

/**
 * How long, in minutes before `atMs`, a session's last input still counts as recent: `staleHours`, or
 * back to the start of the latest working day whose hours have ended, if longer. A session typed in
 * since then has not had a whole working day for its person to come back to (a notebook left on a
 * Friday stays recent over the weekend and through Monday's hours), as the autopilot's stale rule has
 * it (see {@link mayStopSessionAt}).
 */
export function recentInputMinutes(calendar: TeamCalendar, staleHours: number, atMs: number): number {
  const [lastDay] = workingDaysBefore(calendar, atMs, 1);
  const today = workingDayStartedAndEnded(calendar, atMs);
  const fromMs = today ?? lastDay?.fromMs ?? null;
  return Math.max(staleHours * 60, fromMs === null ? 0 : Math.ceil((atMs - fromMs) / 60_000));
}

/** The start of today's working hours when they have ended by `atMs`; else `null`. */
function workingDayStartedAndEnded(calendar: TeamCalendar, atMs: number): number | null {
  const day = localDayOf(atMs, calendar.timezone);
  if (!isWorkingDay(calendar, day)) return null;
  const span = workingSpan(calendar, day);
  return span.toMs <= atMs ? span.fromMs : null;
}

/** The working hours that begin next after `atMs` (within two weeks), or `null`. */
export function nextWorkingSpan(
  calendar: TeamCalendar,
  atMs: number,
): { fromMs: number; toMs: number } | null {
  const fromMs = nextWorkingStartAt(calendar, atMs);
  return fromMs === null ? null : workingSpan(calendar, localDayOf(fromMs, calendar.timezone));
}

function isWorkingDay(calendar: TeamCalendar, day: string): boolean {
  return calendar.workingDays.includes(isoWeekday(day)) && !calendar.holidays.includes(day);
}

function workingSpan(calendar: TeamCalendar, day: string): { fromMs: number; toMs: number } {
  return {
    fromMs: wallClock(day, calendar.fromMinute, calendar.timezone),
    toMs: wallClock(day, calendar.toMinute, calendar.timezone),
  };
}

function wallClock(day: string, minute: number, zone: string): number {
  if (minute >= 24 * 60) return localDayStartMs(addDays(day, 1), zone);
  const hh = String(Math.floor(minute / 60)).padStart(2, "0");
  const mm = String(minute % 60).padStart(2, "0");
  return zonedMs(`${day}T${hh}:${mm}:00`, zone);
}
