import type { SlackApp } from "./bot/app.ts";
import { createConsoleNotifier } from "./bot/outbox/console-notifier.ts";
import { POST_INTERVAL_MS } from "./bot/outbox/outbox-pacing.ts";
import { createOutboxClient } from "./bot/outbox/outbox-worker.ts";
import type { IdleEpisodeState } from "./checks/idle-episode.ts";
import type { LoadedConfig } from "./config/load-config.ts";
import { peopleToRead } from "./config/people-to-read.ts";
import type { Source } from "./domain/source.ts";
import type { JobTimer } from "./jobs/job-timer.ts";
import { scheduleJobs } from "./jobs/schedule-jobs.ts";
import { composeBot } from "./main/compose-bot.ts";
import type { MessagesPort } from "./main/create-delivery.ts";
import { serveBot } from "./main/listen-early.ts";
import { restoreHistory } from "./main/restore-history.ts";
import { startSlack } from "./main/start-slack.ts";
import type { HttpServerDeps, RunningHttpServer } from "./observability/http-server.ts";
import { fleetLine } from "./reports/fleet-line.ts";
import { type Clock, MINUTE_MS, systemClock } from "./shared/clock.ts";
import type { Logger } from "./shared/logger.ts";
import { createSources } from "./sources/create-sources.ts";
import { NothingToWatchError, nothingToWatch, slackTokensSet } from "./sources/nothing-to-watch.ts";
import { openOwnedStore } from "./store/open-owned-store.ts";
import { restoreWindowMinutes } from "./usecases/alerts/alert-policy.ts";
import type { IdleAlerts } from "./usecases/alerts/idle-alerts.ts";
import { backfillSimulated } from "./usecases/fleet/backfill-simulated.ts";

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
  /**
   * The least time between two posts to one channel on `clock` (Slack's limit, the default); a test
   * whose clock stands still between its steps sets 0.
   */
  postIntervalMs?: number;
  /** The playground: its own sources, a timer on its clock, its page on the bot's HTTP port. */
  sources?: Source[];
  jobTimer?: JobTimer;
  httpRoutes?: HttpServerDeps["extra"];
  /**
   * The bot's HTTP server, already listening since the start (`listenEarly`): the console and Socket
   * Mode serve /healthz and /metrics on it instead of listening again.
   */
  http?: RunningHttpServer;
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
  await readers.lookUpAll(peopleToRead(config), LOCALES_AT_START_MS);
  const stepMs = config.poll.interval_seconds * 1000;
  const windowMs = restoreWindowMinutes(bot.deps.idlePolicy) * MINUTE_MS;

  let slack: SlackApp | null = null;
  let http: RunningHttpServer | null = null;
  let httpUrl: string;
  const port = env.port ?? config.http.port;
  if (slackOn && env.slackBotToken !== null) {
    ({ slack, http, httpUrl } = await startSlack(context, env.slackBotToken, bot));
  } else {
    http = await serveBot(
      context.http,
      { registry: stores.metrics.registry, health: bot.health.report },
      config.http.host,
      port,
    );
    httpUrl = http.url;
    context.stdout.write(
      `${readers.channel.t("cli.consoleMode", { channel: config.slack.channel, health: `${httpUrl}/healthz` })}\n`,
    );
  }

  // NOTE: /healthz and Slack answer first; the idle states (and a look-back, when the store knows
  // nothing recent about some host) are rebuilt before the first poll.
  await restoreHistory(
    { sources, store: stores.store, storePath: config.store.path, alerts, clock, logger },
    windowMs,
    stepMs,
  ).catch(async (error: unknown) => {
    await bot.delivery.outbox?.stop();
    await slack?.stop();
    await http?.close();
    throw error;
  });
  const known = stores.store.hosts();
  for (const source of sources) source.recall?.(known, clock.now());
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
  return {
    slack: createOutboxClient({ botToken: env.slackBotToken, slackApiUrl, logger: context.logger }),
    pacing: { postIntervalMs: context.postIntervalMs ?? POST_INTERVAL_MS },
  };
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
