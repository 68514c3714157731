import { existsSync } from "node:fs";
import type { SlackApp } from "./bot/app.ts";
import { createReaders } from "./bot/readers.ts";
import { botWords } from "./bot/views/renderers.ts";
import type { LoadedConfig } from "./config/load-config.ts";
import { peopleToRead } from "./config/people-to-read.ts";
import type { LedgerReport } from "./domain/ledger-report.ts";
import type { HostObservation } from "./domain/observation.ts";
import type { Source } from "./domain/source.ts";
import type { JobTimer } from "./jobs/job-timer.ts";
import { scheduleJobs } from "./jobs/schedule-jobs.ts";
import { BotHealth } from "./main/bot-health.ts";
import { botJobs } from "./main/bot-jobs.ts";
import { createDelivery } from "./main/create-delivery.ts";
import { createPoll, pollTimeoutMs } from "./main/create-poll.ts";
import { openBotStores } from "./main/open-bot-stores.ts";
import { restoreHistory } from "./main/restore-history.ts";
import { startSlack } from "./main/start-slack.ts";
import { type SlackLinks, wireAlerts } from "./main/wire-alerts.ts";
import { type HttpServerDeps, type RunningHttpServer, startHttpServer } from "./observability/http-server.ts";
import { fleetLine } from "./reports/fleet-line.ts";
import { type Clock, MINUTE_MS, systemClock } from "./shared/clock.ts";
import type { Logger } from "./shared/logger.ts";
import { createSources } from "./sources/create-sources.ts";
import { NothingToWatchError, nothingToWatch, slackTokensSet } from "./sources/nothing-to-watch.ts";
import { type BackupResult, backupStore, type RestoreResult, restoreStore } from "./store/backup-store.ts";
import { createCostStores } from "./store/cost-stores.ts";
import { createMetricsStore } from "./store/metrics-store.ts";
import { openDatabase } from "./store/open-database.ts";
import { inspectStorePath, storeProblemOf } from "./store/store-problem.ts";
import { restoreWindowMinutes } from "./usecases/alert-policy.ts";
import { backfillSimulated } from "./usecases/backfill-simulated.ts";
import { readLedgerReport, reportRange, todayLocal } from "./usecases/ledger-report.ts";
import { pollFleet } from "./usecases/poll-fleet.ts";

/** How long the start waits for the configured people's Slack locales (`team.language: auto`). */
const LOCALES_AT_START_MS = 5_000;

/** What the composition root needs from the outside world (the CLI passes it in). */
export interface BotContext {
  loaded: LoadedConfig;
  logger: Logger;
  pathEnv: string;
  hostName: string;
  /** Where the console mode (no Slack tokens) prints the fleet and its alerts. */
  stdout: NodeJS.WritableStream;
  clock?: Clock;
  /** The playground: its own sources, a timer on its clock, its page on the bot's HTTP port. */
  sources?: Source[];
  jobTimer?: JobTimer;
  httpRoutes?: HttpServerDeps["extra"];
}

export interface RunningBot {
  httpUrl: string;
  mode: "socket" | "http" | "console";
  pollNow(): Promise<void>;
  /** Runs a job now (see `RunningJobs.runNow`). */
  runNow(job: string): Promise<void>;
  /**
   * After the clock jumped (the playground): writes the simulated fleet's history from the last poll
   * up to now, one cycle per poll interval — what the polls would have written — and rebuilds the
   * idle states from it, as at start-up. Returns the cycles written.
   */
  catchUpSimulated(): number;
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

/** `gpu-warden report` found no store file to read. */
export class StoreMissingError extends Error {
  override name = "StoreMissingError";
}

/**
 * `gpu-warden report`: rolls up what the store has not rolled up yet, brings the daily ledger up to
 * date for the range and reads it. Throws `ReportRangeError` for bad dates, {@link StoreMissingError}
 * when there is no store, `StoreProblemError` for a store it cannot open.
 */
export function reportOnce(
  context: Pick<BotContext, "loaded" | "clock">,
  range: { since: string; until: string | undefined },
): LedgerReport {
  const { config } = context.loaded;
  const clock = context.clock ?? systemClock;
  const days = reportRange(range.since, range.until, todayLocal({ clock, config }));
  if (!existsSync(config.store.path)) {
    throw new StoreMissingError(
      `no store at ${config.store.path}: it is written by 'gpu-warden start' (store.path in the config)`,
    );
  }
  inspectStorePath(config.store.path);
  let db: ReturnType<typeof openDatabase>;
  try {
    db = openDatabase(config.store.path);
  } catch (error) {
    throw storeProblemOf(config.store.path, error);
  }
  try {
    const store = createMetricsStore(db, { sampleSpanMaxMs: 2 * config.poll.interval_seconds * 1000 });
    while (!store.rollup(clock.now(), config.policy.idle_util_pct, 24 * 7).complete) {}
    const stores = createCostStores(db);
    const ledger = {
      config,
      metrics: store,
      ledger: stores.ledger,
      rolledUpToMs: stores.rolledUpToMs,
      clock,
    };
    return readLedgerReport(ledger, days);
  } finally {
    db.close();
  }
}

/** `gpu-warden backup FILE`: an online copy of the store, safe while an instance runs. */
export function backupOnce(context: Pick<BotContext, "loaded">, file: string): Promise<BackupResult> {
  return backupStore(context.loaded.config.store.path, file);
}

/** `gpu-warden restore FILE`: the store replaced by a backup; refused while an instance runs. */
export function restoreOnce(
  context: Pick<BotContext, "loaded" | "clock">,
  file: string,
): Promise<RestoreResult> {
  return restoreStore(context.loaded.config.store.path, file, (context.clock ?? systemClock).now());
}

/**
 * The composition root: config → store → sources → alert lifecycle → Slack app (Socket Mode with
 * an app token, HTTP mode with a signing secret, else the console) → jobs → HTTP endpoints.
 * Throws {@link NothingToWatchError}, `StoreProblemError` or `StoreLockedError` before anything runs.
 */
export async function startBot(context: BotContext): Promise<RunningBot> {
  const { config, env } = context.loaded;
  const { logger } = context;
  const clock = context.clock ?? systemClock;
  const slackOn = slackTokensSet(env);
  if (context.sources === undefined && nothingToWatch(context.loaded, context.pathEnv)) {
    throw new NothingToWatchError(context.loaded.file);
  }
  const sources = context.sources ?? createSources(config, { ...context, clock });
  const stores = openBotStores(config, clock);
  const { store, metrics } = stores;
  const health = new BotHealth();
  const delivery = createDelivery(context, stores, clock, slackOn);
  const readers = createReaders(config.team, delivery.people);
  await readers.lookUpAll(peopleToRead(config), LOCALES_AT_START_MS);
  const words = botWords(readers);
  const links: SlackLinks = { workspaceUrl: null };
  const io = { notifier: delivery.notifier, readers, words, clock, logger };
  const { alerts, botDeps } = wireAlerts(config, stores, io, links);
  const stepMs = config.poll.interval_seconds * 1000;
  const windowMs = restoreWindowMinutes(botDeps.idlePolicy) * MINUTE_MS;
  await restoreHistory({ sources, store, alerts, clock, logger }, windowMs, stepMs);

  const poll = createPoll({ config, sources, stores, alerts, health, clock, logger }, (result) => {
    if (!slackOn) {
      const states = new Map(
        alerts.hosts().flatMap((host) => {
          const hostState = alerts.state(host);
          return hostState ? [[host, hostState] as const] : [];
        }),
      );
      context.stdout.write(`${fleetLine(readers.channel, states, result.atMs)}\n`);
    }
  });

  let slack: SlackApp | null = null;
  let http: RunningHttpServer | null = null;
  let httpUrl: string;
  const port = env.port ?? config.http.port;
  if (slackOn && env.slackBotToken !== null) {
    ({ slack, http, httpUrl } = await startSlack(context, env.slackBotToken, {
      botDeps,
      stores,
      delivery,
      health,
      clock,
      links,
    }));
  } else {
    http = await startHttpServer(
      { registry: metrics.registry, health: health.report },
      config.http.host,
      port,
    );
    httpUrl = http.url;
    context.stdout.write(
      `${readers.channel.t("cli.consoleMode", { channel: config.slack.channel, health: `${httpUrl}/healthz` })}\n`,
    );
  }

  const running = scheduleJobs(
    botJobs(poll, { botDeps, stores, delivery, words }),
    logger,
    { store: stores.costStores.jobRuns, clock },
    context.jobTimer,
  );
  const mode = slack?.mode ?? "console";
  logger.info({ url: httpUrl, mode, sources: sources.map((s) => s.kind) }, "gpu-warden started");
  return {
    httpUrl,
    mode,
    pollNow: () => running.runNow("poll"),
    runNow: (job) => running.runNow(job),
    catchUpSimulated() {
      const nowMs = clock.now();
      const fromMs = health.lastPollAtMs ?? nowMs;
      if (nowMs - fromMs <= stepMs) return 0;
      const cycles = backfillSimulated(sources, store, { nowMs, windowMs: nowMs - fromMs - stepMs, stepMs });
      alerts.restore();
      return cycles;
    },
    async stop() {
      await running.stop();
      await alerts.settled();
      await delivery.outbox?.stop();
      await slack?.stop();
      await http?.close();
      stores.owned.close();
    },
  };
}
