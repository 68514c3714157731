import { localDayNumber, zonedMs } from "../shared/time.ts";

/**
 * "Every other week" as cron cannot say it: slots `everyDays` local days apart at a local time in a
 * time zone, anchored to the first `weekday` on or after `startDate`. Calendar arithmetic is done on
 * local dates, so a slot stays at 10:00 local across DST changes (13 or 15 days of elapsed time
 * become 14 local days). A local time that does not exist on a spring-forward day moves forward
 * (02:30 → 03:30); an ambiguous one on a fall-back day is the later, standard-time instance.
 */
export interface Cadence {
  /** ISO weekday, 1 = Monday … 7 = Sunday. */
  weekday: number;
  /** `HH:mm`, local. */
  time: string;
  /** `YYYY-MM-DD`, local: the first slot is the first `weekday` on or after it. */
  startDate: string;
  timezone: string;
  /** Days between slots: 14 for the biweekly summary. */
  everyDays: number;
}

/** One slot and the period it reports on: `[fromMs, toMs)` with `toMs` the slot itself. */
export interface CadenceSlot {
  /** 0 for the first slot. */
  index: number;
  atMs: number;
  /** The slot `everyDays` local days earlier (same local time). */
  periodFromMs: number;
}

const DAY_MS = 86_400_000;

/** The first slot's local date (`YYYY-MM-DD`): the first `weekday` on or after `startDate`. */
export function firstSlotDate(cadence: Pick<Cadence, "weekday" | "startDate">): string {
  const start = dayNumber(cadence.startDate);
  const isoWeekday = ((((start + 3) % 7) + 7) % 7) + 1;
  return dateOf(start + ((cadence.weekday - isoWeekday + 7) % 7));
}

/** Slot number `index` (may be negative: the period before the first slot). */
export function slotAt(cadence: Cadence, index: number): CadenceSlot {
  const first = dayNumber(firstSlotDate(cadence));
  const at = (day: number) => localInstant(dateOf(day), cadence.time, cadence.timezone);
  return {
    index,
    atMs: at(first + index * cadence.everyDays),
    periodFromMs: at(first + (index - 1) * cadence.everyDays),
  };
}

/** The latest slot at or before `nowMs`; `null` before the first slot. */
export function slotAtOrBefore(cadence: Cadence, nowMs: number): CadenceSlot | null {
  const first = dayNumber(firstSlotDate(cadence));
  const today = localDayNumber(nowMs, cadence.timezone);
  let index = Math.floor((today - first) / cadence.everyDays);
  if (index < 0) return null;
  let slot = slotAt(cadence, index);
  while (slot.atMs > nowMs) {
    index--;
    if (index < 0) return null;
    slot = slotAt(cadence, index);
  }
  return slot;
}

/** The slots with `afterMs < atMs <= uptoMs`, ascending (the job runner's slot source). */
export function slotsBetween(cadence: Cadence, afterMs: number, uptoMs: number): number[] {
  const last = slotAtOrBefore(cadence, uptoMs);
  const slots: number[] = [];
  for (let index = last?.index ?? -1; index >= 0; index--) {
    const atMs = slotAt(cadence, index).atMs;
    if (atMs <= afterMs) break;
    slots.push(atMs);
  }
  return slots.reverse();
}

/** Local `YYYY-MM-DD` + `HH:mm` in `zone` as an instant. */
export function localInstant(date: string, time: string, zone: string): number {
  return zonedMs(`${date}T${time}`, zone);
}

/** Days since 1970-01-01 of a `YYYY-MM-DD` date. */
function dayNumber(date: string): number {
  return Math.round(Date.parse(`${date}T00:00:00Z`) / DAY_MS);
}

function dateOf(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}
