import { workloadHoursOf } from "../checks/workload-project.ts";
import type { Config } from "../config/schema.ts";
import type { Source } from "../domain/source.ts";
import type { Clock } from "../shared/clock.ts";
import type { Logger } from "../shared/logger.ts";
import { StoreProblemError, storeProblemOf } from "../store/store-problem.ts";
import type { IdleAlerts } from "../usecases/alerts/idle-alerts.ts";
import { readEngineHistory } from "../usecases/fleet/engine-history.ts";
import { pollFleet } from "../usecases/fleet/poll-fleet.ts";
import type { BotHealth } from "./bot-health.ts";
import type { BotStores } from "./bot-stores.ts";

export type PollResult = Awaited<ReturnType<typeof pollFleet>>;

/** A cycle must end before the next slot: 90 % of the interval, at most 60 s. */
export function pollTimeoutMs(intervalSeconds: number): number {
  return Math.min(60_000, intervalSeconds * 900);
}

/**
 * One poll cycle: poll, write, feed the alerts (the sweep, its time logged as `sweepMs`), log; a store that cannot take the poll is reported
 * on /healthz (and logged once) until a poll is written again. `onPolled` runs after each written poll.
 */
export function createPoll(
  deps: {
    config: Config;
    sources: Source[];
    stores: BotStores;
    alerts: IdleAlerts;
    health: BotHealth;
    clock: Clock;
    logger: Logger;
  },
  onPolled: (result: PollResult) => void,
): () => Promise<void> {
  const { config, sources, alerts, health, clock, logger } = deps;
  const { store, metrics } = deps.stores;
  return async () => {
    let result: PollResult;
    try {
      result = await pollFleet({
        sources,
        store,
        clock,
        logger,
        metrics,
        timeoutMs: pollTimeoutMs(config.poll.interval_seconds),
      });
    } catch (error) {
      const problem = storeProblemOf(config.store.path, error);
      if (!(problem instanceof StoreProblemError)) throw error;
      if (health.storeProblem?.reason !== problem.reason) {
        logger.error(
          { store: problem.path, problem: problem.reason, detail: problem.detail },
          "cannot write the poll to the store; /healthz reports it until a poll is written again",
        );
      }
      health.storeProblem = problem;
      return;
    }
    if (health.storeProblem !== null)
      logger.info({ store: health.storeProblem.path }, "the store takes polls again");
    health.storeProblem = null;
    health.lastPollAtMs = result.atMs;
    await askEngine(deps, result);
    const sweepStarted = performance.now();
    alerts.onPoll(result);
    const sweepMs = Math.round(performance.now() - sweepStarted);
    deps.stores.state.workloads.record(workloadHoursOf(result.observations));
    const unknown = result.observations.filter((obs) => !obs.ok).length;
    logger.info(
      {
        hosts: result.observations.length,
        unknown,
        gpus: result.gpuSamples,
        ms: Math.round(result.durationMs),
        sweepMs,
      },
      "poll cycle done",
    );
    onPolled(result);
  };
}

/**
 * Before the idle checks: the engine's recent past of the hosts whose alert may be drawn now, so a
 * sparkline shows what the engine keeps, not only what this bot wrote. A failed read is logged and the
 * sparkline drawn from the store.
 */
async function askEngine(
  deps: { config: Config; sources: Source[]; alerts: IdleAlerts; logger: Logger },
  result: PollResult,
): Promise<void> {
  const hosts = deps.alerts.historyWanted(result);
  if (hosts.length === 0) return;
  const signal = AbortSignal.timeout(pollTimeoutMs(deps.config.poll.interval_seconds));
  const history = await readEngineHistory(deps.sources, hosts, result.atMs, signal);
  deps.alerts.useHistory(history);
  if (history.failures.length > 0) {
    deps.logger.warn(
      { hosts: hosts.length, failed: history.failures },
      "the engine's recent history could not be read; those sparklines show the store's samples",
    );
  }
}
