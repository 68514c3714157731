import type { Clock } from "../shared/clock.ts";
import type { Logger } from "../shared/logger.ts";
import type { JobRunStore } from "../store/job-run-store.ts";
import { cronSlots, localSlotKey, type SlotSource } from "./cron-slots.ts";

/** One run of a persisted job, for one scheduled slot. */
export interface JobSlot {
  /** The scheduled instant this run is for. */
  atMs: number;
  /** More than the job's grace period after `atMs` (the bot was down or busy). */
  late: boolean;
  /** Older due slots folded into this one (`catchUp: "once"` runs only the latest). */
  skipped: number;
  /**
   * Applies `effect` (synchronous store writes, e.g. queueing messages in the outbox) and records
   * the slot as done, in one transaction: a crash before it leaves the slot to run again, a crash
   * after it leaves the effect in place and the slot done. Returns `false`, applying nothing, when
   * the slot is already done (another process got there first). Without a call, the slot is
   * recorded when `run` resolves.
   */
  commit(effect?: () => void): boolean;
}

/**
 * A job whose completed slots are stored, so each slot runs exactly once across restarts.
 * `catchUp: "once"`: after downtime the latest missed slot (within `catchUpWithinMs`) runs once,
 * marked late; `"none"`: missed slots are dropped.
 */
export interface PersistedJob {
  name: string;
  /** A 5-field cron expression in `timezone`, or a function listing the slots (cadences cron cannot say). */
  schedule: string | SlotSource;
  /** The zone of the schedule's wall clock (cron) and of the `local_slot` key. */
  timezone: string;
  catchUp: "once" | "none";
  /** How far back missed slots count; default 7 days. */
  catchUpWithinMs?: number;
  /** A run later than this after its slot is `late`; default 5 min. */
  graceMs?: number;
  run(slot: JobSlot): Promise<unknown> | unknown;
}

export interface SlotRunner {
  /** Runs what is due now (every job, or one), catching up missed slots; resolves when those runs end. */
  tick(name?: string): Promise<void>;
  /** Ticks now and then at every minute (real timers) until {@link SlotRunner.stop}. */
  start(): void;
  /** Stops the timer and waits for runs in flight. */
  stop(): Promise<void>;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

interface SlotEntry {
  job: PersistedJob;
  slots: SlotSource;
  graceMs: number;
  withinMs: number;
  checkedUpToMs: number | null;
  retryAtMs: number | null;
  inFlight: Promise<void> | null;
}

interface RunnerContext {
  store: JobRunStore;
  clock: Clock;
  logger: Logger;
  retryAfterMs: number;
}

/**
 * Runs {@link PersistedJob}s off the injected clock: at each tick, the slots in
 * `(last completed slot, now]` are due. The last slot is read from the store, so a restart neither
 * repeats a slot nor forgets one; a job never runs twice at once; a failed run is retried after
 * `retryAfterMs` (default 5 min) and its slot stays due.
 */
export function createSlotRunner(options: {
  jobs: readonly PersistedJob[];
  store: JobRunStore;
  clock: Clock;
  logger: Logger;
  retryAfterMs?: number;
}): SlotRunner {
  const { clock } = options;
  const context: RunnerContext = { ...options, retryAfterMs: options.retryAfterMs ?? 5 * MINUTE_MS };
  const entries: SlotEntry[] = options.jobs.map((job) => ({
    job,
    slots: typeof job.schedule === "string" ? cronSlots(job.schedule, job.timezone) : job.schedule,
    graceMs: job.graceMs ?? 5 * MINUTE_MS,
    withinMs: job.catchUpWithinMs ?? 7 * DAY_MS,
    checkedUpToMs: null,
    retryAtMs: null,
    inFlight: null,
  }));
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const runDue = (entry: SlotEntry) => runDueSlot(entry, context);

  const tick = async (name?: string) => {
    const chosen = name === undefined ? entries : entries.filter((entry) => entry.job.name === name);
    if (name !== undefined && chosen.length === 0) throw new Error(`no persisted job named ${name}`);
    await Promise.all(chosen.map(runDue));
  };

  const arm = () => {
    if (stopped) return;
    const delayMs = MINUTE_MS - (clock.now() % MINUTE_MS) + 1_000;
    timer = setTimeout(() => {
      void tick().finally(arm);
    }, delayMs);
  };

  return {
    tick,
    start() {
      stopped = false;
      void tick().finally(arm);
    },
    async stop() {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      await Promise.all(entries.map((entry) => entry.inFlight));
    },
  };
}

/** The latest due slot of one job, run (or the run already in flight). */
function runDueSlot(entry: SlotEntry, context: RunnerContext): Promise<void> {
  const { store, clock, logger, retryAfterMs } = context;
  if (entry.inFlight) return entry.inFlight;
  const { job, graceMs } = entry;
  const nowMs = clock.now();
  if (entry.retryAtMs !== null && nowMs < entry.retryAtMs) return Promise.resolve();
  const last = store.last(job.name);
  const sinceMs = last?.slotMs ?? store.firstSeen(job.name, nowMs) - graceMs;
  const fromMs = Math.max(sinceMs, nowMs - entry.withinMs, entry.checkedUpToMs ?? -Infinity);
  const due = entry
    .slots(fromMs, nowMs)
    .filter((slotMs) => last === null || localSlotKey(slotMs, job.timezone) !== last.localSlot);
  const slotMs = due.at(-1);
  if (slotMs === undefined) {
    entry.checkedUpToMs = nowMs;
    return Promise.resolve();
  }
  const late = nowMs - slotMs > graceMs;
  const skipped = due.length - 1;
  if (late && job.catchUp === "none") {
    logger.warn({ job: job.name, slotMs, skipped }, "job slot missed; this job does not catch up");
    entry.checkedUpToMs = nowMs;
    return Promise.resolve();
  }
  const record = () =>
    store.record({
      name: job.name,
      slotMs,
      localSlot: localSlotKey(slotMs, job.timezone),
      late,
      doneAtMs: clock.now(),
    });
  let committed = false;
  const slot: JobSlot = {
    atMs: slotMs,
    late,
    skipped,
    commit(effect) {
      if (committed) throw new Error(`job ${job.name}: slot committed twice`);
      const applied = store.transaction(() => {
        if (!record()) return false;
        effect?.();
        return true;
      });
      committed = true;
      return applied;
    },
  };
  const run = (async () => {
    try {
      if (late) logger.warn({ job: job.name, slotMs, skipped }, "catching up a missed job slot (late)");
      await job.run(slot);
      if (!committed) store.transaction(() => record());
      entry.checkedUpToMs = nowMs;
      entry.retryAtMs = null;
      logger.info({ job: job.name, slotMs, late, skipped }, "job slot done");
    } catch (error) {
      entry.retryAtMs = clock.now() + retryAfterMs;
      logger.error({ job: job.name, slotMs, err: error }, "job slot failed; it stays due");
    }
  })();
  // NOTE: cleared in a later microtask, after the assignment: a run that throws synchronously
  // must not leave a settled promise behind as "in flight" forever.
  const tracked = run.finally(() => {
    if (entry.inFlight === tracked) entry.inFlight = null;
  });
  entry.inFlight = tracked;
  return tracked;
}
