import { existsSync } from "node:fs";
import { setImmediate as yieldToLoop } from "node:timers/promises";
import { createSlackApp, type SlackApp } from "./bot/app.ts";
import type { BotDeps } from "./bot/bot-deps.ts";
import { createConsoleNotifier } from "./bot/console-notifier.ts";
import { registerListeners } from "./bot/listeners/index.ts";
import { messagePermalink, workspaceUrlOf } from "./bot/message-link.ts";
import { createOutboxClient, createOutboxWorker, type OutboxWorker } from "./bot/outbox-worker.ts";
import { createReaders } from "./bot/readers.ts";
import { slackPeopleDirectory } from "./bot/slack-people.ts";
import { botWords } from "./bot/views/renderers.ts";
import type { LoadedConfig } from "./config/load-config.ts";
import type { Config } from "./config/schema.ts";
import type { HostObservation } from "./domain/observation.ts";
import type { Source } from "./domain/source.ts";
import type { JobTimer } from "./jobs/job-timer.ts";
import { ledgerJob } from "./jobs/ledger-job.ts";
import { reclaimReviewJob } from "./jobs/reclaim-review-job.ts";
import { type Job, scheduleJobs } from "./jobs/schedule-jobs.ts";
import { summaryJob } from "./jobs/summary-job.ts";
import { wardenAnnounceJob } from "./jobs/warden-announce-job.ts";
import { type HttpServerDeps, type RunningHttpServer, startHttpServer } from "./observability/http-server.ts";
import { createMetrics } from "./observability/metrics.ts";
import { fleetLine } from "./reports/fleet-line.ts";
import { type Clock, DAY_MS, MINUTE_MS, systemClock } from "./shared/clock.ts";
import { cronForInterval } from "./shared/cron-for-interval.ts";
import type { Logger } from "./shared/logger.ts";
import { createSources } from "./sources/create-sources.ts";
import { NothingToWatchError, nothingToWatch, slackTokensSet } from "./sources/nothing-to-watch.ts";
import { summaryPrometheus } from "./sources/summary-prometheus.ts";
import { type BackupResult, backupStore, type RestoreResult, restoreStore } from "./store/backup-store.ts";
import { createBotStateStore } from "./store/bot-state-store.ts";
import { createCostStores } from "./store/cost-stores.ts";
import { createMetricsStore } from "./store/metrics-store.ts";
import { openDatabase } from "./store/open-database.ts";
import { openOwnedStore } from "./store/open-owned-store.ts";
import { createReclaimStore, type ReclaimStore } from "./store/reclaim-store.ts";
import { inspectStorePath, StoreProblemError, storeProblemOf } from "./store/store-problem.ts";
import { createSummaryStore } from "./store/summary-store.ts";
import { idlePolicyOf, restoreWindowMinutes } from "./usecases/alert-policy.ts";
import { backfillSimulated } from "./usecases/backfill-simulated.ts";
import { costWardenDepsOf } from "./usecases/cost-warden-deps.ts";
import { createIdleAlerts } from "./usecases/idle-alerts.ts";
import { type LedgerReport, readLedgerReport, reportRange, todayLocal } from "./usecases/ledger-report.ts";
import { pollFleet } from "./usecases/poll-fleet.ts";
import type { Notifier, WardenLookup } from "./usecases/ports.ts";
import { ownersOf } from "./usecases/reclaim-owners.ts";
import { HISTORY_DEADLINE_MS, seedHistory } from "./usecases/seed-history.ts";
import { stopAutomatically } from "./usecases/stop-host.ts";
import { tickClaims } from "./usecases/tick-claims.ts";
import type { ReclaimLookup } from "./usecases/warden-checklist.ts";

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
  const owned = openOwnedStore(config.store.path, clock.now());
  const { db } = owned;
  const store = createMetricsStore(db, { sampleSpanMaxMs: 2 * config.poll.interval_seconds * 1000 });
  const state = createBotStateStore(db);
  const metrics = createMetrics({ outboxPending: () => state.outbox.pendingCount() });
  const reclaims = createReclaimStore(db);
  const costStores = createCostStores(db);
  const costWarden = costWardenDepsOf({
    config,
    metrics: store,
    stores: costStores,
    audit: state.audit,
    clock,
    pendingReclaims: pendingReclaimsOf(reclaims),
  });
  const warden: WardenLookup = costWarden.wardens;
  let lastPollAtMs: number | null = null;
  /** Set while polls cannot be written (full disk, read-only remount): /healthz says so. */
  let storeProblem: StoreProblemError | null = null;
  const health = () => ({
    ok: storeProblem === null,
    lastPollAtMs,
    ...(storeProblem ? { store: { path: storeProblem.path, problem: storeProblem.reason } } : {}),
  });

  let outbox: OutboxWorker | null = null;
  let notifier: Notifier;
  let people: ReturnType<typeof slackPeopleDirectory> | undefined;
  if (slackOn && env.slackBotToken !== null) {
    const client = createOutboxClient({
      botToken: env.slackBotToken,
      slackApiUrl: env.slackApiUrl ?? undefined,
      logger,
    });
    people = slackPeopleDirectory(client, clock, logger);
    outbox = createOutboxWorker({
      store: state,
      client,
      clock,
      logger,
      onSetAside: ({ method, reason }) => metrics.slackSetAside.inc({ method, reason }),
    });
    notifier = outbox;
  } else {
    notifier = createConsoleNotifier(context.stdout, config.slack.channel);
  }
  const readers = createReaders(config.team, people);
  const words = botWords(readers);

  let botDeps: BotDeps | null = null;
  let workspaceUrl: string | null = null;
  /** Lent hosts belong to whom they were lent to (a reclaim decision); others to their configured owners. */
  const owners = (host: string) => ownersOf(host, config, reclaims);
  const alerts = createIdleAlerts({
    config,
    metrics: store,
    state,
    notifier,
    warden,
    clock,
    logger,
    alertWords: words.alertWords,
    stopAutomatically: async (host, alertId) => {
      if (botDeps) await stopAutomatically(botDeps, host, alertId);
    },
    owners,
    messageLink: (channel, ts) =>
      workspaceUrl === null ? null : messagePermalink(workspaceUrl, channel, ts),
  });
  const idlePolicy = idlePolicyOf(config);
  botDeps = {
    readers,
    config,
    idlePolicy,
    state,
    fleet: alerts,
    alerts,
    claimWords: words.claimWords,
    reclaimWords: words.reclaimWords,
    wardenWords: words.wardenWords,
    warden,
    clock,
    logger,
    notifier,
    metrics: store,
    reclaims,
    owners,
    ...costWarden,
  };
  const stepMs = config.poll.interval_seconds * 1000;
  const windowMs = restoreWindowMinutes(idlePolicy) * MINUTE_MS;
  if (store.hosts().length === 0) {
    const cycles = backfillSimulated(sources, store, { nowMs: clock.now(), windowMs, stepMs });
    if (cycles > 0) logger.info({ cycles }, "fresh store: wrote the simulated fleet's recent history");
  }
  const history = await seedHistory(
    { sources, store, clock, logger },
    { pollStepMs: stepMs, windowMs },
    AbortSignal.timeout(HISTORY_DEADLINE_MS),
  );
  alerts.restore(history?.prior);

  const poll = async () => {
    let result: Awaited<ReturnType<typeof pollFleet>>;
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
      if (storeProblem?.reason !== problem.reason) {
        logger.error(
          { store: problem.path, problem: problem.reason, detail: problem.detail },
          "cannot write the poll to the store; /healthz reports it until a poll is written again",
        );
      }
      storeProblem = problem;
      return;
    }
    if (storeProblem !== null) logger.info({ store: storeProblem.path }, "the store takes polls again");
    storeProblem = null;
    lastPollAtMs = result.atMs;
    alerts.onPoll(result);
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
    if (!slackOn) {
      const states = new Map(
        alerts.hosts().flatMap((host) => {
          const hostState = alerts.state(host);
          return hostState ? [[host, hostState] as const] : [];
        }),
      );
      context.stdout.write(`${fleetLine(states, result.atMs, config.team.timezone)}\n`);
    }
  };

  let slack: SlackApp | null = null;
  let http: RunningHttpServer | null = null;
  let httpUrl: string;
  const port = env.port ?? config.http.port;
  if (slackOn && env.slackBotToken !== null) {
    const deps = botDeps;
    slack = createSlackApp({
      botToken: env.slackBotToken,
      appToken: env.slackAppToken ?? undefined,
      signingSecret: env.slackSigningSecret ?? undefined,
      slackApiUrl: env.slackApiUrl ?? undefined,
      port,
      host: config.http.host,
      logger,
      clock,
      deliveries: state.deliveries,
      endpoints: { registry: metrics.registry, health },
      register: (app) => registerListeners(app, deps),
    });
    const started = await slack.start();
    workspaceUrl = await workspaceUrlOf(slack.client, logger);
    if (started.mode === "http") {
      httpUrl = started.url ?? `http://${config.http.host}:${port}`;
    } else {
      http = await startHttpServer(
        { registry: metrics.registry, health, ...(context.httpRoutes && { extra: context.httpRoutes }) },
        config.http.host,
        port,
      );
      httpUrl = http.url;
    }
    outbox?.start();
  } else {
    http = await startHttpServer({ registry: metrics.registry, health }, config.http.host, port);
    httpUrl = http.url;
    context.stdout.write(
      `gpu-warden: no Slack tokens, so alerts are printed here (set SLACK_BOT_TOKEN with SLACK_APP_TOKEN ` +
        `or SLACK_SIGNING_SECRET to post them to ${config.slack.channel}); health: ${httpUrl}/healthz\n`,
    );
  }

  const running = scheduleJobs(
    [
      ...jobsFor(config, { poll, store, state, clock }),
      ledgerJob(costWarden.costLedger),
      wardenAnnounceJob(botDeps),
      summaryJob({
        config,
        metrics: store,
        rolledUpToMs: costStores.rolledUpToMs,
        summaries: createSummaryStore(db),
        claims: state.claims,
        reclaims,
        prometheus: summaryPrometheus(config),
        logger,
        notifier,
        warden,
        summaryWords: words.summaryWords,
        people,
      }),
      reclaimReviewJob({
        config,
        metrics: store,
        reclaims,
        state,
        notifier,
        warden,
        clock,
        logger,
        reclaimWords: words.reclaimWords,
      }),
      claimsJob(botDeps),
    ],
    logger,
    { store: costStores.jobRuns, clock },
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
      const stepMs = config.poll.interval_seconds * 1000;
      const fromMs = lastPollAtMs ?? nowMs;
      if (nowMs - fromMs <= stepMs) return 0;
      const cycles = backfillSimulated(sources, store, { nowMs, windowMs: nowMs - fromMs - stepMs, stepMs });
      alerts.restore();
      return cycles;
    },
    async stop() {
      await running.stop();
      await alerts.settled();
      await outbox?.stop();
      await slack?.stop();
      await http?.close();
      owned.close();
    },
  };
}

function jobsFor(
  config: Config,
  deps: {
    poll: () => Promise<void>;
    store: ReturnType<typeof createMetricsStore>;
    state: ReturnType<typeof createBotStateStore>;
    clock: Clock;
  },
): Job[] {
  const { store, state, clock } = deps;
  return [
    {
      name: "poll",
      schedule: cronForInterval(config.poll.interval_seconds) ?? "0 * * * * *",
      timezone: "UTC",
      runAtStart: true,
      run: deps.poll,
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
        state.deliveries.prune(clock.now() - DAY_MS);
      },
    },
  ];
}

/** The reclaim cases awaiting the cost warden, as the warden's checklist reads them. */
function pendingReclaimsOf(reclaims: Pick<ReclaimStore, "allOpen">): ReclaimLookup {
  return {
    pending: () =>
      reclaims.allOpen().map((open) => ({
        host: open.host,
        sinceMs: open.startedAtMs,
        decideByMs: open.state === "due" ? null : open.observeUntilMs,
        meanUtilPct: open.windowMeanPct,
      })),
  };
}

/** Claim expiry, reminders, claimed-but-idle nudges and auto-release: every minute, resumable. */
function claimsJob(deps: BotDeps): Job {
  return {
    name: "claims",
    schedule: "20 * * * * *",
    timezone: "UTC",
    runAtStart: true,
    run: () => {
      tickClaims(deps, deps.clock.now());
    },
  };
}

/** A cycle must end before the next slot: 90 % of the interval, at most 60 s. */
function pollTimeoutMs(intervalSeconds: number): number {
  return Math.min(60_000, intervalSeconds * 900);
}
