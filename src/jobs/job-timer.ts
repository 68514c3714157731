import { cronSchedule } from "./cron-slots.ts";
import type { SlotRunner } from "./slot-runner.ts";

/** A cron job as a timer sees it. */
export interface TimerSpec {
  name: string;
  /** Cron expression (standard day-of-month OR day-of-week); 6 fields when it needs seconds. */
  expression: string;
  timezone: string;
}

export interface TimerTask {
  destroy(): Promise<void> | void;
}

/**
 * What fires scheduled work: croner on the wall clock in production ({@link wallClockTimer}),
 * or a ticker that follows an injected clock in the playground (`clockTimer`).
 */
export interface JobTimer {
  /** Calls `fire` at the slots of `spec.expression` until the task is destroyed. */
  schedule(spec: TimerSpec, fire: () => void): TimerTask;
  /** Ticks the slot runner of persisted jobs at every minute until the task is destroyed. */
  startSlots(runner: SlotRunner): TimerTask;
}

/** Cron on the wall clock (croner's own timers); the slot runner ticks on its own minute timer. */
export function wallClockTimer(): JobTimer {
  return {
    schedule(spec, fire) {
      const task = cronSchedule(spec.expression, spec.timezone).schedule(() => fire());
      return { destroy: () => task.stop() };
    },
    startSlots(runner) {
      runner.start();
      return { destroy: () => runner.stop() };
    },
  };
}
