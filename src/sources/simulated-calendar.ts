import { DAY_MS } from "../shared/clock.ts";
import { dayjs, isValidTimeZone, localDayNumber } from "../shared/time.ts";

/**
 * Local calendar days in the team's time zone, as day numbers (days since 1970-01-01 in that zone).
 * Day starts are cached: a poll asks for the same handful of days over and over.
 */
export class LocalCalendar {
  readonly zone: string;
  readonly #starts = new Map<number, number>();

  constructor(zone: string) {
    if (!isValidTimeZone(zone)) {
      throw new Error(
        `simulated fleet: unknown time zone "${zone}" (expected an IANA name such as Europe/Berlin)`,
      );
    }
    this.zone = zone;
  }

  /** The local day that contains `atMs`. */
  dayOf(atMs: number): number {
    return localDayNumber(atMs, this.zone);
  }

  /** The first instant of local day `day` (local midnight, or the first valid time when DST skips it). */
  startMs(day: number): number {
    const cached = this.#starts.get(day);
    if (cached !== undefined) return cached;
    const iso = new Date(day * DAY_MS).toISOString().slice(0, 10);
    const start = dayjs.tz(iso, this.zone).valueOf();
    if (this.#starts.size >= 512) this.#starts.clear();
    this.#starts.set(day, start);
    return start;
  }

  /** 0 = Sunday … 6 = Saturday. */
  weekday(day: number): number {
    return (((day + 4) % 7) + 7) % 7;
  }

  isWeekend(day: number): boolean {
    const weekday = this.weekday(day);
    return weekday === 0 || weekday === 6;
  }
}
