import { Cron } from "croner";
import { clockText, isValidTimeZone, localParts } from "../shared/time.ts";

/** The slots of a schedule with `afterMs < slot <= uptoMs`, ascending (epoch ms). */
export type SlotSource = (afterMs: number, uptoMs: number) => number[];

/** How far back {@link latestCronSlot} looks for a slot after a jump of the clock. */
const LOOKBACK_MS = 45 * 86_400_000;

/**
 * A cron expression (5 fields, or 6 with seconds first) on the wall clock of `timezone`, read by
 * croner as cron means it: a day matches when day-of-month OR day-of-week does (when both are
 * restricted). A fixed time (`30 2 * * *`) that a spring-forward day skips runs at the first
 * valid time after the gap, and once on a fall-back day; a wildcard time runs on both instances.
 * Throws on an invalid expression or zone.
 */
export function cronSchedule(expression: string, timezone: string): Cron {
  if (!isValidTimeZone(timezone)) throw new Error(`${expression}: unknown time zone "${timezone}"`);
  return new Cron(expression, { timezone, mode: "5-or-6-parts", domAndDow: false });
}

/**
 * The slots of a 5-field cron expression (whole minutes) in a time zone (see {@link cronSchedule}).
 * The runner keeps one slot per wall-clock minute: see `job_run.local_slot`.
 */
export function cronSlots(expression: string, timezone: string): SlotSource {
  if (expression.trim().split(/\s+/).length !== 5) {
    throw new Error(`${expression}: a persisted job runs on whole minutes (5 fields, no seconds)`);
  }
  const schedule = cronSchedule(expression, timezone);
  return (afterMs, uptoMs) => {
    const slots: number[] = [];
    for (const at of schedule.enumerate(new Date(afterMs))) {
      const atMs = at.getTime();
      if (atMs > uptoMs) break;
      if (atMs > afterMs) slots.push(atMs);
    }
    return slots;
  };
}

/**
 * The latest slot of a cron expression in `(afterMs, uptoMs]`, or null; looks back at most 45 days
 * (a clock-driven timer fires once for a jump, however many slots it passed).
 */
export function latestCronSlot(
  expression: string,
  timezone: string,
): (afterMs: number, uptoMs: number) => number | null {
  const schedule = cronSchedule(expression, timezone);
  return (afterMs, uptoMs) => {
    const floorMs = Math.max(afterMs, uptoMs - LOOKBACK_MS);
    // NOTE: croner's previous runs are strictly before the reference (to the second), hence +1 ms.
    const [latest] = schedule.previousRuns(1, new Date(uptoMs + 1));
    const atMs = latest?.getTime();
    return atMs !== undefined && atMs > floorMs && atMs <= uptoMs ? atMs : null;
  };
}

/** `YYYY-MM-DDTHH:mm` of `atMs` on the wall clock of `timezone`. */
export function localSlotKey(atMs: number, timezone: string): string {
  const at = localParts(atMs, timezone);
  const date = `${at.year}-${String(at.month).padStart(2, "0")}-${String(at.day).padStart(2, "0")}`;
  return `${date}T${clockText(at.hour * 60 + at.minute)}`;
}
