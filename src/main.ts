import { existsSync } from "node:fs";
import type { SlackApp } from "./bot/app.ts";
import { createConsoleNotifier } from "./bot/console-notifier.ts";
import { createOutboxClient } from "./bot/outbox-worker.ts";
import type { IdleEpisodeState } from "./checks/idle-episode.ts";
import type { LoadedConfig } from "./config/load-config.ts";
import type { LedgerReport } from "./domain/ledger-report.ts";
import type { HostObservation } from "./domain/observation.ts";
import type { Source } from "./domain/source.ts";
import type { JobTimer } from "./jobs/job-timer.ts";
import { scheduleJobs } from "./jobs/schedule-jobs.ts";
import { composeBot } from "./main/compose-bot.ts";
import type { MessagesPort } from "./main/create-delivery.ts";
import { pollTimeoutMs } from "./main/create-poll.ts";
import { restoreHistory } from "./main/restore-history.ts";
import { startSlack } from "./main/start-slack.ts";
import { type HttpServerDeps, type RunningHttpServer, startHttpServer } from "./observability/http-server.ts";
import { fleetLine } from "./reports/fleet-line.ts";
import { type Clock, MINUTE_MS, systemClock } from "./shared/clock.ts";
import type { Logger } from "./shared/logger.ts";
import { createSources } from "./sources/create-sources.ts";
import { NothingToWatchError, nothingToWatch, slackTokensSet } from "./sources/nothing-to-watch.ts";
import { type BackupResult, backupStore, type RestoreResult, restoreStore } from "./store/backup-store.ts";
import { createBotStateStore } from "./store/bot-state-store.ts";
import { createCostStores } from "./store/cost-stores.ts";
import { createMetricsStore } from "./store/metrics-store.ts";
import { openDatabase } from "./store/open-database.ts";
import { openOwnedStore } from "./store/open-owned-store.ts";
import { inspectStorePath, storeProblemOf } from "./store/store-problem.ts";
import { restoreWindowMinutes } from "./usecases/alert-policy.ts";
import { backfillSimulated } from "./usecases/backfill-simulated.ts";
import type { IdleAlerts } from "./usecases/idle-alerts.ts";
import { readLedgerReport, reportRange, todayLocal } from "./usecases/ledger-report.ts";
import { pollFleet } from "./usecases/poll-fleet.ts";
import { type ProjectReport, readProjectReport } from "./usecases/project-report.ts";

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

/**
 * `gpu-warden report --by project`: opens the store read-write (the ledger and rollups are brought
 * up to date) and splits `month` (`YYYY-MM`, default this month, team time zone) among projects.
 */
export function projectReportOnce(
  context: Pick<BotContext, "loaded" | "clock">,
  month: string | undefined,
): ProjectReport {
  const { config } = context.loaded;
  const clock = context.clock ?? systemClock;
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
    const state = createBotStateStore(db);
    const deps = {
      config,
      metrics: store,
      ledger: stores.ledger,
      rolledUpToMs: stores.rolledUpToMs,
      clock,
      claims: state.claims,
      queue: state.queue,
      workloads: state.workloads,
    };
    return readProjectReport(deps, month ?? todayLocal({ clock, config }).slice(0, 7));
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
  const owned = openOwnedStore(config.store.path, clock.now());
  const bot = composeBot({
    config,
    clock,
    db: owned.db,
    ports: { logger, sources, messages: messagesPort(context, slackOn), fetch: globalThis.fetch },
    onPolled: (result) => {
      if (!slackOn)
        context.stdout.write(`${fleetLine(bot.readers.channel, statesOf(bot.alerts), result.atMs)}\n`);
    },
  });
  const { alerts, stores, readers } = bot;
  const stepMs = config.poll.interval_seconds * 1000;
  const windowMs = restoreWindowMinutes(bot.deps.idlePolicy) * MINUTE_MS;
  await restoreHistory(
    { sources, store: stores.store, storePath: config.store.path, alerts, clock, logger },
    windowMs,
    stepMs,
  );

  let slack: SlackApp | null = null;
  let http: RunningHttpServer | null = null;
  let httpUrl: string;
  const port = env.port ?? config.http.port;
  if (slackOn && env.slackBotToken !== null) {
    ({ slack, http, httpUrl } = await startSlack(context, env.slackBotToken, bot));
  } else {
    http = await startHttpServer(
      { registry: stores.metrics.registry, health: bot.health.report },
      config.http.host,
      port,
    );
    httpUrl = http.url;
    context.stdout.write(
      `${readers.channel.t("cli.consoleMode", { channel: config.slack.channel, health: `${httpUrl}/healthz` })}\n`,
    );
  }

  const running = scheduleJobs(
    bot.jobs,
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
      const fromMs = bot.health.lastPollAtMs ?? nowMs;
      if (nowMs - fromMs <= stepMs) return 0;
      const cycles = backfillSimulated(sources, stores.store, {
        nowMs,
        windowMs: nowMs - fromMs - stepMs,
        stepMs,
      });
      alerts.restore();
      return cycles;
    },
    async stop() {
      await running.stop();
      await alerts.settled();
      await bot.delivery.outbox?.stop();
      await slack?.stop();
      await http?.close();
      owned.close();
    },
  };
}

/** Slack through the outbox when a bot token is set, else the console. */
function messagesPort(context: BotContext, slackOn: boolean): MessagesPort {
  const { env, config } = context.loaded;
  if (!slackOn || env.slackBotToken === null) {
    return { notifier: createConsoleNotifier(context.stdout, config.slack.channel) };
  }
  const slackApiUrl = env.slackApiUrl ?? undefined;
  return { slack: createOutboxClient({ botToken: env.slackBotToken, slackApiUrl, logger: context.logger }) };
}

/** The hosts' idle states now, for the console's fleet line. */
function statesOf(alerts: IdleAlerts): Map<string, IdleEpisodeState> {
  return new Map(
    alerts.hosts().flatMap((host) => {
      const hostState = alerts.state(host);
      return hostState ? [[host, hostState] as const] : [];
    }),
  );
}
