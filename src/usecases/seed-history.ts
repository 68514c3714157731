import type { Clock } from "../shared/clock.ts";
import { MINUTE_MS } from "../shared/clock.ts";
import type { Logger } from "../shared/logger.ts";
import { type HistorySource, type HostObservation, hasHistory, type Source } from "../sources/observation.ts";
import type { LatestObservation } from "../store/metrics-types.ts";
import type { CycleWriter } from "./poll-fleet.ts";

/**
 * The older past of the fleet, one coarse sample per host per step, for the idle checks only: it is
 * replayed before the store's own recent samples when the idle states are rebuilt, so an idle stretch
 * that began days before the bot started is seen whole.
 */
export interface PriorHistory {
  /** Host → its observations, oldest first; each holds the highest readings of the step ending at `atMs`. */
  byHost: ReadonlyMap<string, readonly HostObservation[]>;
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

/** Older history is read in steps of this long (a week is 2,016 steps). */
export const PRIOR_STEP_MS = 5 * MINUTE_MS;

/**
 * Asks every source that keeps history (Prometheus, with `history_days` > 0) for the fleet's past:
 * - the restore window after the store's latest cycle, every two poll intervals, written to the store as
 *   poll cycles (what polls would have seen: sparklines, rollups and the idle states read it as theirs);
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

  const read = async (
    source: HistorySource,
    request: Parameters<HistorySource["history"]>[0],
  ): Promise<HostObservation[]> => {
    try {
      return await source.history(request, signal);
    } catch (error) {
      deps.logger.warn(
        { source: source.kind, err: error instanceof Error ? error.message : String(error) },
        "could not read the source's history; its hosts start with nothing known",
      );
      return [];
    } finally {
      queries += source.lastHistoryQueryCount;
    }
  };

  const recent =
    recentFromMs < nowMs
      ? await Promise.all(
          sources.map((source) =>
            read(source, { fromMs: recentFromMs, toMs: nowMs - 1, stepMs: recentStepMs, summary: "instant" }),
          ),
        )
      : [];
  const cycles = writeCycles(deps.store, recent.flat());

  const byHost = new Map<string, HostObservation[]>();
  for (const source of sources) {
    const steps = Math.floor(source.historyLookbackMs / priorStepMs);
    const observations = await read(source, {
      fromMs: untilMs - steps * priorStepMs,
      toMs: untilMs,
      stepMs: priorStepMs,
      summary: "max",
    });
    for (const observation of observations) {
      const list = byHost.get(observation.host) ?? [];
      if (list.length > 0 && list.at(-1)!.atMs >= observation.atMs) continue;
      list.push(observation);
      byHost.set(observation.host, list);
    }
  }
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
