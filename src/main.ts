import { setImmediate as yieldToLoop } from "node:timers/promises";
import type { LoadedConfig } from "./config/load-config.ts";
import { type Job, scheduleJobs } from "./jobs/schedule-jobs.ts";
import { startHttpServer } from "./observability/http-server.ts";
import { createMetrics } from "./observability/metrics.ts";
import { type Clock, systemClock } from "./shared/clock.ts";
import { cronForInterval } from "./shared/cron-for-interval.ts";
import type { Logger } from "./shared/logger.ts";
import { createSources } from "./sources/create-sources.ts";
import type { HostObservation } from "./sources/observation.ts";
import { createMetricsStore } from "./store/metrics-store.ts";
import { openDatabase } from "./store/open-database.ts";
import { pollFleet } from "./usecases/poll-fleet.ts";

/** What the composition root needs from the outside world (the CLI passes it in). */
export interface BotContext {
  loaded: LoadedConfig;
  logger: Logger;
  pathEnv: string;
  hostName: string;
  stdout: NodeJS.WritableStream;
  clock?: Clock;
}

export interface RunningBot {
  httpUrl: string;
  pollNow(): Promise<void>;
  stop(): Promise<void>;
}

/** Polls every host once with the configured (or default) sources; nothing is written. */
export async function collectOnce(context: BotContext): Promise<HostObservation[]> {
  const { config } = context.loaded;
  const clock = context.clock ?? systemClock;
  const sources = createSources(config, { ...context, clock });
  const result = await pollFleet({
    sources,
    store: null,
    clock,
    logger: context.logger,
    metrics: null,
    timeoutMs: pollTimeoutMs(config.poll.interval_seconds),
  });
  return result.observations;
}

/** The composition root: config → store → sources → jobs → HTTP server. */
export async function startBot(context: BotContext): Promise<RunningBot> {
  const { config, env } = context.loaded;
  const { logger } = context;
  const clock = context.clock ?? systemClock;
  const metrics = createMetrics();
  const sources = createSources(config, { ...context, clock });
  const db = openDatabase(config.store.path);
  const store = createMetricsStore(db, { sampleSpanMaxMs: 2 * config.poll.interval_seconds * 1000 });
  let lastPollAtMs: number | null = null;

  const poll = async () => {
    const result = await pollFleet({
      sources,
      store,
      clock,
      logger,
      metrics,
      timeoutMs: pollTimeoutMs(config.poll.interval_seconds),
    });
    lastPollAtMs = result.atMs;
    const unknown = result.observations.filter((obs) => !obs.ok).length;
    logger.info(
      {
        hosts: result.observations.length,
        unknown,
        gpus: result.gpuSamples,
        ms: Math.round(result.durationMs),
      },
      "poll cycle done",
    );
  };

  const jobs: Job[] = [
    {
      name: "poll",
      schedule: cronForInterval(config.poll.interval_seconds) ?? "0 * * * * *",
      timezone: "UTC",
      runAtStart: true,
      run: poll,
    },
    {
      name: "rollup",
      schedule: "30 5 * * * *",
      timezone: "UTC",
      runAtStart: true,
      run: async () => {
        // NOTE: bounded batches with a turn of the event loop between them: a long catch-up
        // must not hold up Slack acks.
        while (!store.rollup(clock.now(), config.policy.idle_util_pct, 24).complete) await yieldToLoop();
      },
    },
    {
      name: "retention",
      schedule: "0 17 3 * * *",
      timezone: "UTC",
      run: async () => {
        const { raw_retention_days: raw, rollup_retention_days: rollups } = config.store;
        while (!store.prune(clock.now(), raw, rollups, 500).complete) await yieldToLoop();
      },
    },
  ];
  const http = await startHttpServer(
    { registry: metrics.registry, health: () => ({ ok: true, lastPollAtMs }) },
    config.http.host,
    env.port ?? config.http.port,
  );
  logger.info({ url: http.url, sources: sources.map((s) => s.kind) }, "gpu-warden started");
  const running = scheduleJobs(jobs, logger);
  return {
    httpUrl: http.url,
    pollNow: () => running.runNow("poll"),
    async stop() {
      await running.stop();
      await http.close();
      db.close();
    },
  };
}

/** A cycle must end before the next slot: 90 % of the interval, at most 60 s. */
function pollTimeoutMs(intervalSeconds: number): number {
  return Math.min(60_000, intervalSeconds * 900);
}
