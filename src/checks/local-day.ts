import { localParts, zonedMs } from "../shared/time.ts";

/**
 * Local calendar days (`YYYY-MM-DD`) in a time zone, as instants. A day runs from its local
 * midnight to the next one, so a DST day lasts 23 or 25 hours; arithmetic is done on dates, never
 * by adding 24 h to an instant.
 */

const DAY_MS = 86_400_000;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date written `YYYY-MM-DD` (`2026-02-30` is not one). */
export function isLocalDay(text: string): boolean {
  const match = DATE_PATTERN.exec(text);
  if (match === null) return false;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** The local day of `ms` in `zone`. */
export function localDayOf(ms: number, zone: string): string {
  const at = localParts(ms, zone);
  return `${String(at.year).padStart(4, "0")}-${String(at.month).padStart(2, "0")}-${String(at.day).padStart(2, "0")}`;
}

/** `day` moved by `days` calendar days. */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Calendar days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** The instant of local midnight starting `day` in `zone`. */
export function localDayStartMs(day: string, zone: string): number {
  return zonedMs(`${day}T00:00:00`, zone);
}

/** `[startMs, endMs)` of the local day: 23, 24 or 25 hours. */
export function localDayBounds(day: string, zone: string): { startMs: number; endMs: number } {
  return { startMs: localDayStartMs(day, zone), endMs: localDayStartMs(addDays(day, 1), zone) };
}

/** Every day from `from` to `to`, both included; empty when `to` is before `from`. */
export function daysFromTo(from: string, to: string): string[] {
  const count = daysBetween(from, to) + 1;
  return Array.from({ length: Math.max(0, count) }, (_, i) => addDays(from, i));
}

/** `2026-03` of a day. */
export function monthOfDay(day: string): string {
  return day.slice(0, 7);
}

/** First and last day of the month `YYYY-MM`. */
export function monthDays(month: string): { first: string; last: string } {
  const [y, m] = month.split("-").map(Number) as [number, number];
  const first = `${month}-01`;
  const last = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
  return { first, last };
}

/** The month before `YYYY-MM`. */
export function previousMonth(month: string): string {
  return addMonths(month, -1);
}

/** `YYYY-MM` moved by `months`. */
export function addMonths(month: string, months: number): string {
  const [y, m] = month.split("-").map(Number) as [number, number];
  const index = y * 12 + (m - 1) + months;
  return `${String(Math.floor(index / 12)).padStart(4, "0")}-${String((index % 12) + 1).padStart(2, "0")}`;
}
