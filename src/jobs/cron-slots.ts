import cron from "node-cron";

/** The slots of a schedule with `afterMs < slot <= uptoMs`, ascending (epoch ms). */
export type SlotSource = (afterMs: number, uptoMs: number) => number[];

const MINUTE_MS = 60_000;
const WEEKDAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

/**
 * The slots of a 5-field cron expression (whole minutes) in a time zone, read off the local wall
 * clock the way node-cron 4 matches it: day-of-month AND day-of-week. A wall time that does not
 * exist on a spring-forward day has no slot; one that happens twice on a fall-back day has two
 * (the runner keeps one: see `job_run.local_slot`). `L`, `W` and `#` are not supported here.
 * Throws on an invalid expression or zone.
 */
export function cronSlots(expression: string, timezone: string): SlotSource {
  const fields = cron.parse(expression);
  if (fields.second.length !== 1 || fields.second[0] !== 0) {
    throw new Error(`${expression}: a persisted job runs on whole minutes (5 fields, no seconds)`);
  }
  const numbers = (values: (number | string)[], name: string) => {
    if (values.some((value) => typeof value !== "number")) {
      throw new Error(`${expression}: ${name} may only list numbers for a persisted job`);
    }
    return new Set(values as number[]);
  };
  const minutes = new Set(fields.minute);
  const hours = new Set(fields.hour);
  const daysOfMonth = numbers(fields.dayOfMonth, "day-of-month");
  const months = new Set(fields.month);
  const weekdays = numbers(fields.dayOfWeek, "day-of-week");
  const local = localParts(timezone);

  return (afterMs, uptoMs) => {
    const slots: number[] = [];
    let atMs = Math.floor(afterMs / MINUTE_MS) * MINUTE_MS + MINUTE_MS;
    while (atMs <= uptoMs) {
      const at = local(atMs);
      const dayMatches = daysOfMonth.has(at.day) && months.has(at.month) && weekdays.has(at.weekday);
      if (!dayMatches || !hours.has(at.hour)) {
        // NOTE: to the next local hour; a DST jump moves the wall clock by whole hours (or half
        // hours in a few zones), never past a slot inside the hour.
        atMs += (60 - at.minute) * MINUTE_MS;
        continue;
      }
      if (minutes.has(at.minute)) slots.push(atMs);
      atMs += MINUTE_MS;
    }
    return slots;
  };
}

/** `YYYY-MM-DDTHH:mm` of `atMs` on the wall clock of `timezone`. */
export function localSlotKey(atMs: number, timezone: string): string {
  const at = localParts(timezone)(atMs);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${at.year}-${pad(at.month)}-${pad(at.day)}T${pad(at.hour)}:${pad(at.minute)}`;
}

export interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  /** 0 = Sunday. */
  weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock parts of an instant in `timezone` (formatters cached per zone). */
export function localParts(timezone: string): (atMs: number) => LocalParts {
  let format = formatters.get(timezone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: timezone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      weekday: "short",
    });
    formatters.set(timezone, format);
  }
  const formatter = format;
  return (atMs) => {
    const parts: Record<string, string> = {};
    for (const part of formatter.formatToParts(atMs)) parts[part.type] = part.value;
    return {
      year: Number(parts.year),
      month: Number(parts.month),
      day: Number(parts.day),
      hour: Number(parts.hour),
      minute: Number(parts.minute),
      weekday: WEEKDAYS[parts.weekday ?? ""] ?? -1,
    };
  };
}
