import cron, { type ScheduledTask } from "node-cron";
import type { Logger } from "../shared/logger.ts";

/** A scheduled job: a name, a node-cron expression in a named time zone, and what to run. */
export interface Job {
  name: string;
  /** node-cron expression; 6 fields when it needs seconds. */
  schedule: string;
  timezone: string;
  /** Run once right away as well as on schedule. */
  runAtStart?: boolean;
  run(): Promise<unknown> | unknown;
}

export interface RunningJobs {
  /** Runs a job now unless it is already running; resolves when that run ends. */
  runNow(name: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Schedules every job on node-cron. A job never overlaps itself: a slot that comes while the
 * previous run is still going is skipped and logged as slow, never stacked.
 */
export function scheduleJobs(jobs: readonly Job[], logger: Logger): RunningJobs {
  const running = new Map<string, Promise<void>>();
  const tasks: ScheduledTask[] = [];
  const byName = new Map(jobs.map((job) => [job.name, job]));

  const runJob = (job: Job, trigger: "scheduled" | "start" | "manual"): Promise<void> => {
    const inFlight = running.get(job.name);
    if (inFlight) {
      if (trigger === "scheduled") {
        logger.warn({ job: job.name }, "slow job: previous run still going; this slot is skipped");
      }
      return inFlight;
    }
    const startedAt = performance.now();
    const run = (async () => {
      try {
        await job.run();
        logger.debug({ job: job.name, ms: Math.round(performance.now() - startedAt) }, "job done");
      } catch (error) {
        logger.error({ job: job.name, err: error }, "job failed");
      } finally {
        running.delete(job.name);
      }
    })();
    running.set(job.name, run);
    return run;
  };

  const cronLogger = {
    info: (message: string) => logger.debug({ component: "node-cron" }, message),
    warn: (message: string) => logger.warn({ component: "node-cron" }, message),
    error: (message: string | Error) =>
      logger.error({ component: "node-cron", err: message }, "node-cron error"),
    debug: (message: string) => logger.debug({ component: "node-cron" }, message),
  };
  for (const job of jobs) {
    const task = cron.schedule(job.schedule, () => runJob(job, "scheduled"), {
      name: job.name,
      timezone: job.timezone,
      noOverlap: false,
      logger: cronLogger,
    });
    task.on("execution:missed", () => logger.warn({ job: job.name }, "job slot missed (event loop blocked)"));
    tasks.push(task);
    if (job.runAtStart) void runJob(job, "start");
  }

  return {
    runNow(name) {
      const job = byName.get(name);
      if (!job) return Promise.reject(new Error(`no job named ${name}`));
      return runJob(job, "manual");
    },
    async stop() {
      for (const task of tasks) await task.destroy();
      await Promise.all(running.values());
    },
  };
}
