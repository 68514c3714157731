import { dayjs } from "../../src/shared/time.ts";

const HOUR_MS = 3_600_000;

/**
 * Whether an instant is in Mon–Fri 09:00–17:00 in `zone`, the test fleets' working day, computed
 * independently of the product's working hours; one answer per clock hour, so only for zones with
 * whole-hour offsets.
 */
export function workHoursIn(zone: string): (atMs: number) => boolean {
  const byHour = new Map<number, boolean>();
  return (atMs) => {
    const hour = Math.floor(atMs / HOUR_MS);
    let work = byHour.get(hour);
    if (work === undefined) {
      const local = dayjs(hour * HOUR_MS).tz(zone);
      work = local.isoWeekday() <= 5 && local.hour() >= 9 && local.hour() < 17;
      byHour.set(hour, work);
    }
    return work;
  };
}
