import cron from "node-cron";
import type { Clock } from "../shared/clock.ts";
import { localParts } from "./cron-slots.ts";
import type { JobTimer, TimerSpec, TimerTask } from "./job-timer.ts";

/** A {@link JobTimer} that follows an injected clock, however fast it runs or far it jumps. */
export interface ClockTimer extends JobTimer {
  /** Fires every task with a slot in (its last check, now]: once, however many slots that holds. */
  check(): void;
  /** Stops firing until {@link ClockTimer.release}; slots passed meanwhile fire once then. */
  hold(): void;
  release(): void;
}

const MINUTE_MS = 60_000;
/** How far back a check looks for a slot after a jump of the clock. */
const LOOKBACK_MS = 45 * 24 * 60 * MINUTE_MS;

interface Task {
  spec: TimerSpec;
  fire: () => void;
  latestSlot: (afterMs: number, uptoMs: number) => number | null;
  checkedUpToMs: number;
}

/**
 * Checks `clock` every `checkEveryMs` of real time (default 100 ms) and fires what fell due, as a
 * bot that was busy would: a job whose slots were all passed in one step (a clock jump, ×600) runs
 * once, not once per slot. The slot runner ticks at every minute of `clock`.
 */
export function clockTimer(clock: Clock, options: { checkEveryMs?: number } = {}): ClockTimer {
  const tasks = new Set<Task>();
  let interval: NodeJS.Timeout | null = null;
  let held = false;

  const check = () => {
    if (held) return;
    const nowMs = clock.now();
    for (const task of tasks) {
      const slotMs = task.latestSlot(task.checkedUpToMs, nowMs);
      task.checkedUpToMs = Math.max(task.checkedUpToMs, nowMs);
      if (slotMs !== null) task.fire();
    }
  };

  const schedule = (spec: TimerSpec, fire: () => void): TimerTask => {
    const task: Task = { spec, fire, latestSlot: latestSlotOf(spec), checkedUpToMs: clock.now() };
    tasks.add(task);
    interval ??= setInterval(check, options.checkEveryMs ?? 100);
    return {
      destroy() {
        tasks.delete(task);
        if (tasks.size === 0 && interval !== null) {
          clearInterval(interval);
          interval = null;
        }
      },
    };
  };

  return {
    schedule,
    startSlots(runner) {
      const task = schedule({ name: "slot-runner", expression: "0 * * * * *", timezone: "UTC" }, () => {
        void runner.tick();
      });
      void runner.tick();
      return {
        async destroy() {
          await task.destroy();
          await runner.stop();
        },
      };
    },
    check,
    hold() {
      held = true;
    },
    release() {
      held = false;
      check();
    },
  };
}

/**
 * The latest slot of a node-cron expression (5 or 6 fields, numbers only in the day fields) in
 * `(afterMs, uptoMs]`, or null; looks back at most {@link LOOKBACK_MS}.
 */
export function latestSlotOf(spec: Pick<TimerSpec, "expression" | "timezone">): Task["latestSlot"] {
  const fields = cron.parse(spec.expression);
  const numbers = (values: (number | string)[], name: string) => {
    if (values.some((value) => typeof value !== "number")) {
      throw new Error(`${spec.expression}: ${name} may only list numbers for a clock-driven timer`);
    }
    return new Set(values as number[]);
  };
  const secondsDown = [...fields.second].sort((a, b) => b - a);
  const minutes = new Set(fields.minute);
  const hours = new Set(fields.hour);
  const daysOfMonth = numbers(fields.dayOfMonth, "day-of-month");
  const months = new Set(fields.month);
  const weekdays = numbers(fields.dayOfWeek, "day-of-week");
  const local = localParts(spec.timezone);

  return (afterMs, uptoMs) => {
    const floorMs = Math.max(afterMs, uptoMs - LOOKBACK_MS);
    let minuteMs = Math.floor(uptoMs / MINUTE_MS) * MINUTE_MS;
    while (minuteMs + 59_999 > floorMs) {
      const at = local(minuteMs);
      const dayMatches = daysOfMonth.has(at.day) && months.has(at.month) && weekdays.has(at.weekday);
      if (!dayMatches || !hours.has(at.hour)) {
        minuteMs -= (at.minute + 1) * MINUTE_MS;
        continue;
      }
      if (minutes.has(at.minute)) {
        for (const second of secondsDown) {
          const slotMs = minuteMs + second * 1000;
          if (slotMs <= uptoMs && slotMs > floorMs) return slotMs;
          if (slotMs <= floorMs) return null;
        }
      }
      minuteMs -= MINUTE_MS;
    }
    return null;
  };
}
