import type { Reservation, ReservationWindow } from "../domain/reservation.ts";
import { clockText, zonedMs } from "../shared/time.ts";
import { addDays, localDayOf } from "./local-day.ts";

export type { Reservation, ReservationWindow } from "../domain/reservation.ts";

const WEEK_DAYS = 7;

/** The instant of `minutes` after local midnight of `day` in `zone` (DST-aware). */
export function localMinuteMs(day: string, minutes: number, zone: string): number {
  if (minutes >= 1440) return localMinuteMs(addDays(day, 1), minutes - 1440, zone);
  return zonedMs(`${day}T${clockText(minutes)}:00`, zone);
}

/** ISO weekday (1 Monday … 7 Sunday) of a local day. */
export function isoWeekday(day: string): number {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return weekday === 0 ? 7 : weekday;
}

/** Whether the reservation has a window on local `day`. */
function onDay(reservation: Reservation, day: string): boolean {
  if (reservation.day !== null) return reservation.day === day;
  return reservation.weekdays?.includes(isoWeekday(day)) ?? false;
}

/** The window of `reservation` on local `day` as instants. */
export function windowOn(reservation: Reservation, day: string, zone: string): ReservationWindow {
  return {
    reservation,
    fromMs: localMinuteMs(day, reservation.startMin, zone),
    untilMs: localMinuteMs(day, reservation.endMin, zone),
  };
}

/** The windows of `reservation` that end after `fromMs` and start before `untilMs`, in time order. */
export function windowsBetween(
  reservation: Reservation,
  fromMs: number,
  untilMs: number,
  zone: string,
): ReservationWindow[] {
  const first = addDays(localDayOf(fromMs, zone), -1);
  const last = localDayOf(untilMs, zone);
  const windows: ReservationWindow[] = [];
  for (let day = first; day <= last; day = addDays(day, 1)) {
    if (!onDay(reservation, day)) continue;
    const window = windowOn(reservation, day, zone);
    if (window.untilMs > fromMs && window.fromMs < untilMs) windows.push(window);
  }
  return windows;
}

/** Whether two GPU sets of hosts share a GPU (`null`: the whole host). */
export function gpusOverlap(
  a: Pick<Reservation, "host" | "gpus">,
  b: Pick<Reservation, "host" | "gpus">,
): boolean {
  if (a.host !== b.host) return false;
  if (a.gpus === null || b.gpus === null) return true;
  return a.gpus.some((gpu) => b.gpus?.includes(gpu));
}

/**
 * Whether two reservations hold a GPU at the same local time on some day: the same GPUs, a day in
 * common (the same day, that day's weekday, or a weekday in common) and overlapping hours. Calendar
 * arithmetic only, so it holds across DST changes.
 */
export function reservationsClash(a: Reservation, b: Reservation): boolean {
  if (!gpusOverlap(a, b)) return false;
  if (a.startMin >= b.endMin || b.startMin >= a.endMin) return false;
  if (a.day !== null && b.day !== null) return a.day === b.day;
  if (a.day !== null) return onDay(b, a.day);
  if (b.day !== null) return onDay(a, b.day);
  return (a.weekdays ?? []).some((weekday) => b.weekdays?.includes(weekday));
}

/** The reservation windows touching `slots` in force at `atMs`. */
export function reservedAt(
  reservations: readonly Reservation[],
  slots: Pick<Reservation, "host" | "gpus">,
  atMs: number,
  zone: string,
): ReservationWindow[] {
  return reservations
    .filter((reservation) => gpusOverlap(reservation, slots))
    .flatMap((reservation) => windowsBetween(reservation, atMs, atMs + 1, zone));
}

/** The first window touching `slots` that starts after `atMs` and within `horizonMs`; `null` when none. */
export function nextWindow(
  reservations: readonly Reservation[],
  slots: Pick<Reservation, "host" | "gpus">,
  atMs: number,
  horizonMs: number,
  zone: string,
): ReservationWindow | null {
  const upcoming = reservations
    .filter((reservation) => gpusOverlap(reservation, slots))
    .flatMap((reservation) => windowsBetween(reservation, atMs, atMs + horizonMs, zone))
    .filter((window) => window.fromMs > atMs)
    .sort((a, b) => a.fromMs - b.fromMs);
  return upcoming[0] ?? null;
}

/** What reservations do to a claim: nothing, cut its end, or refuse it (a window in force now). */
export type ClaimReservationLimit =
  | { kind: "free"; untilMs: number }
  | { kind: "cut"; untilMs: number; window: ReservationWindow }
  | { kind: "refused"; window: ReservationWindow };

/**
 * The limit reservations put on a claim of `slots` from `nowMs` to `untilMs` by someone `mayUse`
 * lets through (the holder, or a member of its project): another's window in force now refuses it,
 * one starting before `untilMs` cuts the claim to end when the window starts.
 */
export function claimReservationLimit(
  reservations: readonly Reservation[],
  slots: ReadonlyArray<Pick<Reservation, "host" | "gpus">>,
  nowMs: number,
  untilMs: number,
  zone: string,
  mayUse: (reservation: Reservation) => boolean,
): ClaimReservationLimit {
  const others = reservations.filter((reservation) => !mayUse(reservation));
  const windows = slots
    .flatMap((slot) =>
      others
        .filter((reservation) => gpusOverlap(reservation, slot))
        .flatMap((reservation) => windowsBetween(reservation, nowMs, untilMs, zone)),
    )
    .sort((a, b) => a.fromMs - b.fromMs);
  const first = windows[0];
  if (first === undefined) return { kind: "free", untilMs };
  if (first.fromMs <= nowMs) return { kind: "refused", window: first };
  return { kind: "cut", untilMs: first.fromMs, window: first };
}

/** How far ahead standing reservations are looked at for "next window". */
export const NEXT_WINDOW_HORIZON_DAYS = WEEK_DAYS;
