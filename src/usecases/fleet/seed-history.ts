import { classifyHost, type HostSample } from "../../checks/classify-host.ts";
import type { IdlePolicy } from "../../checks/idle-policy.ts";
import type { LatestObservation } from "../../domain/metrics.ts";
import type { HostObservation } from "../../domain/observation.ts";
import {
  type HistoryRequest,
  type HistorySource,
  type HostUtilHistory,
  hasHistory,
  SOME_GPU_SILENT,
  type Source,
} from "../../domain/source.ts";
import type { Clock } from "../../shared/clock.ts";
import { MINUTE_MS } from "../../shared/clock.ts";
import type { Logger } from "../../shared/logger.ts";
import { mapWithConcurrency } from "../../shared/map-with-concurrency.ts";
import type { CycleWriter } from "./poll-fleet.ts";

/**
 * The older past of the fleet, one coarse sample per host per step, for the idle checks only: it is
 * replayed before the store's own recent samples when the idle states are rebuilt, so an idle stretch
 * that began days before the bot started is seen whole.
 */
export interface PriorHistory {
  /** Host → its busiest GPU's utilisation per step. */
  byHost: ReadonlyMap<string, HostUtilHistory>;
  /** The step: a missing step is a gap (unknown), never idle. */
  stepMs: number;
  /** The last step's instant; the store's samples take over from here. */
  untilMs: number;
}

export interface SeedHistoryDeps {
  sources: readonly Source[];
  store: CycleWriter & { latestObservations(): LatestObservation[] };
  clock: Clock;
  logger: Logger;
}

export interface SeedHistoryOptions {
  /** The poll interval: recent history is written to the store at twice this step. */
  pollStepMs: number;
  /** How much recent history the idle states are rebuilt from (the restore window). */
  windowMs: number;
  /** The step of the older history; default 5 minutes. */
  priorStepMs?: number;
}

export interface SeededHistory {
  prior: PriorHistory;
  /** Cycles of recent history written to the store. */
  cycles: number;
  /** Range queries the sources sent. */
  queries: number;
}

/** Reading the history at start gives up after this long (the bot then starts without it). */
export const HISTORY_DEADLINE_MS = 5 * MINUTE_MS;

/**
 * GPU readings (slots × steps) of the restore window held at once: its last step is read first, which
 * tells the fleet's size, then the window in as many steps as fit (25 at 8,000 GPUs, 2 at 80,000), each
 * read written to the store before the next, so a start holds about this many readings whatever the
 * fleet. NOTE: not its first step, which may be older than the fine history and read as nobody there.
 * NOTE: at 80,000 GPUs, 5 steps a read (400,000 readings, with their answers and observations) ran
 * past `npm start`'s 192 MB heap.
 */
export const RECENT_SLOT_STEPS_PER_READ = 200_000;

/**
 * Sources whose older history is read at once (each is its own engine: a cluster's Prometheus, or a
 * VictoriaMetrics): each holds about two chunks of answers while it is read, so two hold what one did
 * before the chunks were halved.
 */
export const HISTORY_SOURCES_AT_ONCE = 2;

/** Older history is read in steps of this long (a week is 2,016 steps). */
export const PRIOR_STEP_MS = 5 * MINUTE_MS;

/**
 * Asks every source that keeps history (Prometheus, with `history_days` > 0) for the fleet's past:
 * - the restore window after the store's latest cycle, every two poll intervals, written to the store as
 *   poll cycles (what polls would have seen: sparklines, rollups and the idle states read it as theirs),
 *   in reads of {@link RECENT_SLOT_STEPS_PER_READ} readings;
 * - before that, up to the source's look-back, the highest readings per step, returned as
 *   {@link PriorHistory} for the idle states.
 * A source whose history cannot be read is logged and left out: its hosts start with nothing known.
 * Returns `null` when no source keeps history.
 */
export async function seedHistory(
  deps: SeedHistoryDeps,
  options: SeedHistoryOptions,
  signal: AbortSignal,
): Promise<SeededHistory | null> {
  const sources = deps.sources.filter(
    (source): source is HistorySource => hasHistory(source) && source.historyLookbackMs > 0,
  );
  if (sources.length === 0) return null;
  const { pollStepMs, windowMs } = options;
  const priorStepMs = options.priorStepMs ?? PRIOR_STEP_MS;
  const nowMs = deps.clock.now();
  const untilMs = Math.floor((nowMs - windowMs) / pollStepMs) * pollStepMs;
  const lastStoredMs = Math.max(
    Number.NEGATIVE_INFINITY,
    ...deps.store.latestObservations().map((latest) => latest.observation.atMs),
  );
  // NOTE: two poll intervals apart, backfilled cycles are no gap to the idle checks (three intervals) nor
  // to rollups (a reading stands for two intervals), and a start reads half as much.
  const recentStepMs = 2 * pollStepMs;
  const recentFromMs = Math.max(untilMs, Math.floor(lastStoredMs / pollStepMs) * pollStepMs + pollStepMs);
  let queries = 0;

  const read = async <T>(source: HistorySource, fallback: T, ask: () => Promise<T>): Promise<T> => {
    try {
      return await ask();
    } catch (error) {
      deps.logger.warn(
        { source: source.kind, err: error instanceof Error ? error.message : String(error) },
        "could not read the source's history; its hosts start with nothing known",
      );
      return fallback;
    } finally {
      queries += source.lastHistoryQueryCount;
    }
  };

  const cycles =
    recentFromMs < nowMs
      ? await writeRecent(
          deps.store,
          (request) => readAll(sources, (source) => read(source, [], () => source.history(request, signal))),
          { fromMs: recentFromMs, toMs: nowMs - 1, stepMs: recentStepMs },
        )
      : 0;

  const bySource = await mapWithConcurrency(sources, HISTORY_SOURCES_AT_ONCE, (source) => {
    const steps = Math.floor(source.historyLookbackMs / priorStepMs);
    const request = { fromMs: untilMs - steps * priorStepMs, toMs: untilMs, stepMs: priorStepMs };
    return read(source, new Map<string, HostUtilHistory>(), () => source.busiestHistory(request, signal));
  });
  const byHost = new Map<string, HostUtilHistory>();
  for (const hosts of bySource)
    for (const [host, history] of hosts) if (!byHost.has(host)) byHost.set(host, history);
  deps.logger.info(
    {
      cycles,
      hosts: byHost.size,
      queries,
      fromMs: untilMs - Math.max(...sources.map((s) => s.historyLookbackMs)),
    },
    "read the fleet's history",
  );
  return { prior: { byHost, stepMs: priorStepMs, untilMs }, cycles, queries };
}

/**
 * The restore window read and written as poll cycles, {@link RECENT_SLOT_STEPS_PER_READ} readings at a
 * time, each read written before the next. Its last step is read first (not written), which tells the
 * fleet's size as it is now; every read that finds a larger step shortens the next.
 */
async function writeRecent(
  store: CycleWriter,
  readRange: (request: HistoryRequest) => Promise<HostObservation[]>,
  range: HistoryRequest,
): Promise<number> {
  let slotsPerStep = largestStep(await readRange({ ...range, fromMs: range.toMs }));
  let cycles = 0;
  for (let fromMs = range.fromMs; fromMs <= range.toMs; ) {
    const stepsPerRead = Math.max(1, Math.floor(RECENT_SLOT_STEPS_PER_READ / Math.max(1, slotsPerStep)));
    const toMs = Math.min(range.toMs, fromMs + (stepsPerRead - 1) * range.stepMs);
    const recent = await readRange({ fromMs, toMs, stepMs: range.stepMs });
    cycles += writeCycles(store, recent);
    slotsPerStep = Math.max(slotsPerStep, largestStep(recent));
    fromMs = toMs + range.stepMs;
  }
  return cycles;
}

/** The most GPU readings any one step of `observations` has. */
function largestStep(observations: readonly HostObservation[]): number {
  const byStep = new Map<number, number>();
  for (const one of observations)
    if (one.ok) byStep.set(one.atMs, (byStep.get(one.atMs) ?? 0) + one.gpus.length);
  return Math.max(0, ...byStep.values());
}

/**
 * Each source's answer, read all at once (each source is its own engine), in the sources' order (the
 * first source's observation of a host wins).
 */
async function readAll<S>(sources: readonly S[], ask: (source: S) => Promise<HostObservation[]>) {
  const answers = await Promise.all(sources.map(ask));
  const all: HostObservation[] = [];
  for (const answer of answers) for (const one of answer) all.push(one);
  return all;
}

/** Writes observations as poll cycles in time order, one host once per cycle (the first source wins). */
function writeCycles(store: CycleWriter, observations: readonly HostObservation[]): number {
  const byTime = new Map<number, Map<string, HostObservation>>();
  for (const observation of observations) {
    let cycle = byTime.get(observation.atMs);
    if (!cycle) {
      cycle = new Map();
      byTime.set(observation.atMs, cycle);
    }
    if (!cycle.has(observation.host)) cycle.set(observation.host, observation);
  }
  const times = [...byTime.keys()].sort((a, b) => a - b);
  for (const atMs of times) store.writeCycle([...byTime.get(atMs)!.values()], atMs);
  return times.length;
}

/**
 * A host's prior history as the idle checks' samples, one per step with data, oldest first: a step
 * whose busiest GPU reads `utilPct` is a one-GPU sample at that utilisation; a step where some GPU was
 * silent is a sample with a GPU without reading (unknown); a step without data is no sample (a gap).
 */
export function* priorSamples(
  host: string,
  history: HostUtilHistory,
  policy: Pick<IdlePolicy, "idleUtilPct" | "idleForMinutes">,
): Generator<HostSample> {
  for (let i = 0; i < history.utilPct.length; i++) {
    const value = history.utilPct[i]!;
    if (Number.isNaN(value)) continue;
    const atMs = history.fromMs + i * history.stepMs;
    const observation: HostObservation = {
      host,
      source: "prometheus",
      atMs,
      ok: true,
      gpus: [
        {
          index: 0,
          uuid: null,
          model: null,
          utilPct: value === SOME_GPU_SILENT ? null : value,
          memUsedMiB: null,
          memTotalMiB: null,
          powerW: null,
          tempC: null,
          mig: false,
          processes: [],
        },
      ],
      sessions: null,
      cpuLoad1: null,
      cpuUtilPct: null,
      containers: [],
    };
    yield classifyHost(observation, policy);
  }
}
