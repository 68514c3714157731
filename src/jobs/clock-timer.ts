import type { Clock } from "../shared/clock.ts";
import { cronSchedule, latestCronSlot } from "./cron-slots.ts";
import type { JobTimer, TimerSpec, TimerTask } from "./job-timer.ts";

/** A {@link JobTimer} that follows an injected clock, however fast it runs or far it jumps. */
export interface ClockTimer extends JobTimer {
  /** Fires every task with a slot in (its last check, now]: once, however many slots that holds. */
  check(): void;
  /** Stops firing until {@link ClockTimer.release}; slots passed meanwhile fire once then. */
  hold(): void;
  release(): void;
}

interface Task {
  spec: TimerSpec;
  fire: () => void;
  latestSlot: (afterMs: number, uptoMs: number) => number | null;
  /** The first slot after a time: nothing to look up before it comes. */
  nextSlot: (afterMs: number) => number;
  nextSlotMs: number;
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
      if (nowMs < task.nextSlotMs) continue;
      const slotMs = task.latestSlot(task.checkedUpToMs, nowMs);
      task.checkedUpToMs = Math.max(task.checkedUpToMs, nowMs);
      task.nextSlotMs = task.nextSlot(task.checkedUpToMs);
      if (slotMs !== null) task.fire();
    }
  };

  const schedule = (spec: TimerSpec, fire: () => void): TimerTask => {
    const cron = cronSchedule(spec.expression, spec.timezone);
    const nextSlot = (afterMs: number) => cron.nextRun(new Date(afterMs))?.getTime() ?? Infinity;
    const task: Task = {
      spec,
      fire,
      latestSlot: latestCronSlot(spec.expression, spec.timezone),
      nextSlot,
      nextSlotMs: nextSlot(clock.now()),
      checkedUpToMs: clock.now(),
    };
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
