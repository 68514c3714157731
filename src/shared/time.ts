import dayjs from "dayjs";
import isoWeek from "dayjs/plugin/isoWeek.js";
import timezone from "dayjs/plugin/timezone.js";
import utc from "dayjs/plugin/utc.js";

// NOTE: the order matters: utc, then timezone, then isoWeek. Plugins need the `.js` suffix under ESM.
dayjs.extend(utc);
dayjs.extend(timezone);
dayjs.extend(isoWeek);

export { dayjs };

/** True when `zone` is an IANA zone name this runtime knows (`UTC` included). */
export function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** `2026-12-02 16:40` in `zone`. */
export function formatLocal(ms: number, zone: string, pattern = "YYYY-MM-DD HH:mm"): string {
  return dayjs(ms).tz(zone).format(pattern);
}
