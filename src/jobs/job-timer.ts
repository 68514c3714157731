import cron from "node-cron";
import type { Logger } from "../shared/logger.ts";
import type { SlotRunner } from "./slot-runner.ts";

/** A cron job as a timer sees it. */
export interface TimerSpec {
  name: string;
  /** node-cron expression; 6 fields when it needs seconds. */
  expression: string;
  timezone: string;
}

export interface TimerTask {
  destroy(): Promise<void> | void;
}

/**
 * What fires scheduled work: node-cron on the wall clock in production ({@link nodeCronTimer}),
 * or a ticker that follows an injected clock in the playground (`clockTimer`).
 */
export interface JobTimer {
  /** Calls `fire` at the slots of `spec.expression` until the task is destroyed. */
  schedule(spec: TimerSpec, fire: () => void): TimerTask;
  /** Ticks the slot runner of persisted jobs at every minute until the task is destroyed. */
  startSlots(runner: SlotRunner): TimerTask;
}

/** node-cron on the wall clock; the slot runner ticks on its own minute timer. */
export function nodeCronTimer(logger: Logger): JobTimer {
  const cronLogger = {
    info: (message: string) => logger.debug({ component: "node-cron" }, message),
    warn: (message: string) => logger.warn({ component: "node-cron" }, message),
    error: (message: string | Error) =>
      logger.error({ component: "node-cron", err: message }, "node-cron error"),
    debug: (message: string) => logger.debug({ component: "node-cron" }, message),
  };
  return {
    schedule(spec, fire) {
      const task = cron.schedule(spec.expression, fire, {
        name: spec.name,
        timezone: spec.timezone,
        noOverlap: false,
        logger: cronLogger,
      });
      task.on("execution:missed", () =>
        logger.warn({ job: spec.name }, "job slot missed (event loop blocked)"),
      );
      return { destroy: () => task.destroy() };
    },
    startSlots(runner) {
      runner.start();
      return { destroy: () => runner.stop() };
    },
  };
}
