import { dayjs } from "../shared/time.ts";

/**
 * Starts of consecutive local days from `fromMs` (same local time of day, so 23 or 25 hours long
 * across a DST change) while they begin before `toMs`. The first start is `fromMs` itself.
 */
export function localDayStarts(fromMs: number, toMs: number, zone: string): number[] {
  const start = dayjs(fromMs).tz(zone);
  const date = start.format("YYYY-MM-DD");
  const time = start.format("HH:mm:ss.SSS");
  const starts = [fromMs];
  for (let day = 1; ; day++) {
    const next = dayjs.tz(`${addDays(date, day)}T${time}`, zone).valueOf();
    if (next >= toMs) return starts;
    if (next > starts.at(-1)!) starts.push(next);
  }
}

/** Local midnights (in `zone`) at or after `fromMs` and before `toMs`. */
export function localMidnights(fromMs: number, toMs: number, zone: string): number[] {
  const local = dayjs(fromMs).tz(zone);
  let date = local.format("YYYY-MM-DD");
  const out: number[] = [];
  for (;;) {
    const midnight = dayjs.tz(`${date}T00:00`, zone).valueOf();
    if (midnight >= toMs) return out;
    if (midnight >= fromMs) out.push(midnight);
    date = addDays(date, 1);
  }
}

/** `YYYY-MM-DD` plus `days`. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The instant `days` local days after (or before, negative) `ms`, at the same local time of day. */
export function shiftLocalDays(ms: number, days: number, zone: string): number {
  const local = dayjs(ms).tz(zone);
  return dayjs
    .tz(`${addDays(local.format("YYYY-MM-DD"), days)}T${local.format("HH:mm:ss.SSS")}`, zone)
    .valueOf();
}
