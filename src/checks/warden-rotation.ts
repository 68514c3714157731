import { dayjs } from "../shared/time.ts";

/**
 * The cost warden for the month containing `atMs` in `timezone`: the roster in order, one person a
 * calendar month, wrapping around. `null` with an empty roster. (Swaps and skips come with the
 * rotation workflow.)
 */
export function wardenForMonth(roster: readonly string[], atMs: number, timezone: string): string | null {
  if (roster.length === 0) return null;
  const local = dayjs(atMs).tz(timezone);
  const monthIndex = local.year() * 12 + local.month();
  return roster[monthIndex % roster.length] ?? null;
}
