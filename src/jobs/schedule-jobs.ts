import type { Clock } from "../shared/clock.ts";
import type { Logger } from "../shared/logger.ts";
import type { JobRunStore } from "../store/job-run-store.ts";
import { type JobTimer, type TimerTask, wallClockTimer } from "./job-timer.ts";
import { createSlotRunner, type PersistedJob } from "./slot-runner.ts";

/**
 * A job table entry: a {@link CronJob} (poll, rollup, retention: fire and forget) or a
 * {@link PersistedJob} (announcements, summaries: exactly once per slot, caught up after downtime).
 */
export type Job = CronJob | PersistedJob;

/** A scheduled job: a name, a cron expression in a named time zone, and what to run. */
export interface CronJob {
  name: string;
  /** Cron expression (day-of-month OR day-of-week, as cron means); 6 fields when it needs seconds. */
  schedule: string;
  timezone: string;
  /** Run once right away as well as on schedule. */
  runAtStart?: boolean;
  /**
   * With `runAtStart`: that run waits until the start run of the job named here has ended (the
   * rollup's catch-up after the first poll); right away when no such job runs at start.
   */
  startAfter?: string;
  catchUp?: undefined;
  run(): Promise<unknown> | unknown;
}

export interface RunningJobs {
  /**
   * Runs a cron job now unless it is already running; for a persisted job, runs what is due now.
   * Resolves when that run ends.
   */
  runNow(name: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Schedules every job. Cron jobs run on croner and never overlap themselves: a slot that comes
 * while the previous run is still going is skipped and logged as slow, never stacked. Persisted
 * jobs run on a slot runner over `persistence` (required when there are any): see
 * {@link createSlotRunner}. `timer` fires both: croner on the wall clock unless told otherwise.
 */
export function scheduleJobs(
  allJobs: readonly Job[],
  logger: Logger,
  persistence?: { store: JobRunStore; clock: Clock },
  timer: JobTimer = wallClockTimer(),
): RunningJobs {
  const jobs = allJobs.filter((job): job is CronJob => job.catchUp === undefined);
  const persisted = allJobs.filter((job): job is PersistedJob => job.catchUp !== undefined);
  if (persisted.length > 0 && persistence === undefined) {
    throw new Error(`persisted jobs (${persisted.map((job) => job.name).join(", ")}) need a job-run store`);
  }
  const slots =
    persistence === undefined || persisted.length === 0
      ? null
      : createSlotRunner({ jobs: persisted, store: persistence.store, clock: persistence.clock, logger });
  const running = new Map<string, Promise<void>>();
  const tasks: TimerTask[] = [];
  const byName = new Map(jobs.map((job) => [job.name, job]));

  const runJob = (job: CronJob, trigger: "scheduled" | "start" | "manual"): Promise<void> => {
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
      }
    })();
    // NOTE: removed in a later microtask, after the set: a job that throws synchronously must not
    // stay "running" forever.
    const tracked = run.finally(() => {
      if (running.get(job.name) === tracked) running.delete(job.name);
    });
    running.set(job.name, tracked);
    return tracked;
  };

  for (const job of jobs) {
    tasks.push(
      timer.schedule({ name: job.name, expression: job.schedule, timezone: job.timezone }, () => {
        void runJob(job, "scheduled");
      }),
    );
  }
  let stopped = false;
  const startRuns = runAtStart(
    jobs,
    (job) => runJob(job, "start"),
    () => stopped,
  );
  if (slots) tasks.push(timer.startSlots(slots));

  return {
    runNow(name) {
      const job = byName.get(name);
      if (job) return runJob(job, "manual");
      if (slots && persisted.some((p) => p.name === name)) return slots.tick(name);
      return Promise.reject(new Error(`no job named ${name}`));
    },
    async stop() {
      stopped = true;
      for (const task of tasks) await task.destroy();
      await startRuns;
      await Promise.all(running.values());
    },
  };
}

/**
 * Starts the `runAtStart` jobs: those without `startAfter` at once, the others when the start run
 * they wait for has ended (unless the jobs were stopped meanwhile). Resolves when every start run has.
 */
function runAtStart(
  jobs: readonly CronJob[],
  start: (job: CronJob) => Promise<void>,
  stopped: () => boolean,
): Promise<unknown> {
  const first = new Map<string, Promise<void>>();
  for (const job of jobs) {
    if (job.runAtStart && job.startAfter === undefined) first.set(job.name, start(job));
  }
  const later = jobs.map(async (job) => {
    if (!job.runAtStart || job.startAfter === undefined) return;
    await first.get(job.startAfter);
    if (!stopped()) await start(job);
  });
  return Promise.all([...first.values(), ...later]);
}
