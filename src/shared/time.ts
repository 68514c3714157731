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

/** The wall-clock fields of an instant in a zone. `month` is 1–12; `weekday`/`monthName` are `Mon`/`Dec`. */
export interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  weekday: string;
  monthName: string;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

// NOTE: one formatter per zone. Building an Intl.DateTimeFormat, which dayjs' tz() does on every
// call, costs about a hundred times more than formatting with one; command replies format dozens.
const partFormatters = new Map<string, Intl.DateTimeFormat>();

// NOTE: and one answer per zone and minute: a fleet board or an alert formats the same few minutes
// many times over. Keyed by the UTC minute, which is also a local minute boundary wherever the
// offset is whole minutes (every zone since 1972).
const recentParts = new Map<string, Readonly<LocalParts>>();
const RECENT_PARTS_MAX = 4_096;

/**
 * The wall-clock fields of `ms` in `zone`, with a cached formatter and a cache of recent minutes
 * (fast enough for hot paths). The answer is shared: read it, never change it.
 */
export function localParts(ms: number, zone: string): Readonly<LocalParts> {
  const key = `${zone}|${Math.floor(ms / 60_000)}`;
  const known = recentParts.get(key);
  if (known !== undefined) return known;
  if (recentParts.size >= RECENT_PARTS_MAX) recentParts.clear();
  const parts = partsFromOffset(ms, zone) ?? formatParts(ms, zone);
  recentParts.set(key, parts);
  return parts;
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const HOUR_MS = 3_600_000;
/** Since 1980 every zone's offset is whole minutes (Liberia's -0:44:30 ended in 1972). */
const WHOLE_MINUTE_OFFSETS_FROM_MS = Date.UTC(1980, 0, 1);

// NOTE: and one offset per zone and UTC hour: a simulated or long-running bot asks for a new minute
// every minute, and Intl formats cost ~20 µs. Where the zone's offset is the same at both ends of
// the hour (no transition within it), a minute's fields are the UTC fields of the shifted instant.
const hourOffsets = new Map<string, number | null>();

function partsFromOffset(ms: number, zone: string): LocalParts | null {
  if (ms < WHOLE_MINUTE_OFFSETS_FROM_MS) return null;
  const hour = Math.floor(ms / HOUR_MS);
  const key = `${zone}|${hour}`;
  let offsetMs = hourOffsets.get(key);
  if (offsetMs === undefined) {
    if (hourOffsets.size >= RECENT_PARTS_MAX) hourOffsets.clear();
    const first = offsetMsAt(hour * HOUR_MS, zone);
    offsetMs = first === offsetMsAt((hour + 1) * HOUR_MS - 60_000, zone) ? first : null;
    hourOffsets.set(key, offsetMs);
  }
  if (offsetMs === null) return null;
  const wall = new Date(Math.floor(ms / 60_000) * 60_000 + offsetMs);
  const month = wall.getUTCMonth();
  return {
    year: wall.getUTCFullYear(),
    month: month + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
    weekday: WEEKDAYS[wall.getUTCDay()]!,
    monthName: MONTHS[month]!,
  };
}

function offsetMsAt(minuteMs: number, zone: string): number {
  const at = formatParts(minuteMs, zone);
  return Date.UTC(at.year, at.month - 1, at.day, at.hour, at.minute) - minuteMs;
}

function formatParts(ms: number, zone: string): LocalParts {
  let formatter = partFormatters.get(zone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      year: "numeric",
      month: "short",
      day: "numeric",
      weekday: "short",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    partFormatters.set(zone, formatter);
  }
  const parts: LocalParts = { year: 0, month: 0, day: 0, hour: 0, minute: 0, weekday: "", monthName: "" };
  for (const part of formatter.formatToParts(ms)) {
    switch (part.type) {
      case "year":
        parts.year = Number(part.value);
        break;
      case "month":
        parts.monthName = part.value;
        parts.month = MONTHS.indexOf(part.value) + 1;
        break;
      case "day":
        parts.day = Number(part.value);
        break;
      case "hour":
        parts.hour = Number(part.value);
        break;
      case "minute":
        parts.minute = Number(part.value);
        break;
      case "weekday":
        parts.weekday = part.value;
        break;
      default:
        break;
    }
  }
  return parts;
}

// NOTE: and one instant per zone and local time: working hours, local midnights and reservation
// windows ask for the same few local times on every poll, and dayjs' tz() formats several times a call.
const wallTimes = new Map<string, number>();

/** The instant of the local time `local` (`YYYY-MM-DDTHH:mm[:ss]`, as dayjs.tz reads it) in `zone`, cached. */
export function zonedMs(local: string, zone: string): number {
  const key = `${zone}|${local}`;
  let ms = wallTimes.get(key);
  if (ms === undefined) {
    if (wallTimes.size >= RECENT_PARTS_MAX) wallTimes.clear();
    ms = dayjs.tz(local, zone).valueOf();
    wallTimes.set(key, ms);
  }
  return ms;
}

/** The zone's offset from UTC at an instant, in minutes (`120` for Berlin in summer). */
export function utcOffsetMinutes(ms: number, zone: string): number {
  const at = localParts(ms, zone);
  const wallMs = Date.UTC(at.year, at.month - 1, at.day, at.hour, at.minute);
  return Math.round((wallMs - Math.floor(ms / 60_000) * 60_000) / 60_000);
}

/** Days since 1970-01-01 of the local calendar date of `ms` in `zone` (no offsets involved). */
export function localDayNumber(ms: number, zone: string): number {
  const at = localParts(ms, zone);
  return Math.round(Date.UTC(at.year, at.month - 1, at.day) / 86_400_000);
}

/** `09:05`: a clock time given as minutes after midnight (`545`). */
export function clockText(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}
