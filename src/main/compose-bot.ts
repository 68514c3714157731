import type { Database } from "better-sqlite3";
import { createSlackApp, type SlackApp, type SlackAppOptions } from "../bot/app.ts";
import type { BotDeps } from "../bot/bot-deps.ts";
import { registerListeners } from "../bot/listeners/index.ts";
import { workspaceUrlOf } from "../bot/message-link.ts";
import { createReaders, type Readers } from "../bot/readers.ts";
import { botWords } from "../bot/views/renderers.ts";
import type { Config } from "../config/schema.ts";
import type { Source } from "../domain/source.ts";
import type { Job } from "../jobs/schedule-jobs.ts";
import type { Clock } from "../shared/clock.ts";
import type { Logger } from "../shared/logger.ts";
import type { IdleAlerts } from "../usecases/alerts/idle-alerts.ts";
import { BotHealth } from "./bot-health.ts";
import { botJobs } from "./bot-jobs.ts";
import { type BotStores, botStoresOf } from "./bot-stores.ts";
import { createDelivery, type Delivery, type MessagesPort } from "./create-delivery.ts";
import { createPoll, type PollResult } from "./create-poll.ts";
import { type SlackLinks, wireAlerts } from "./wire-alerts.ts";

/**
 * The outside world as the bot sees it. Entry points (`main`, the playground, the simulation, the
 * benchmarks, the test harnesses) differ only in these; everything else is built by {@link composeBot}.
 */
export interface BotPorts {
  logger: Logger;
  /** Where messages go: a Slack Web API client behind the durable outbox, or a stand-in notifier. */
  messages: MessagesPort;
  /** The fleet's sources, read by the `poll` job. */
  sources: Source[];
  /** The executor of webhook stop actions (production: the global `fetch`); commands run as child processes. */
  fetch: typeof fetch;
}

export interface ComposeBotInput {
  config: Config;
  clock: Clock;
  /** The open, migrated store (production: `openOwnedStore`'s, locked while the bot runs). */
  db: Database;
  ports: BotPorts;
  /** Runs after each poll written to the store (the console mode prints the fleet's line). */
  onPolled?: (result: PollResult) => void;
}

/** How the Slack app reaches Slack: tokens, receiver, URLs, retries; the rest comes from the composition. */
export type SlackConnection = Omit<SlackAppOptions, "logger" | "clock" | "deliveries" | "register">;

/** The bot's parts, built and wired, nothing started. */
export interface ComposedBot {
  config: Config;
  clock: Clock;
  logger: Logger;
  sources: Source[];
  stores: BotStores;
  health: BotHealth;
  delivery: Delivery;
  readers: Readers;
  words: ReturnType<typeof botWords>;
  /** The alert lifecycle (also `deps.fleet` and `deps.alerts`). */
  alerts: IdleAlerts;
  /** What every listener, job and use-case of the bot shares. */
  deps: BotDeps;
  /** Filled in by {@link ComposedBot.slackApp}'s `start()`: links to earlier alerts. */
  links: SlackLinks;
  /** One poll cycle: the sources, the store, the idle checks and the alerts that follow. */
  poll: () => Promise<void>;
  /** Every job of the running bot, for `scheduleJobs` (the first is `poll`). */
  jobs: Job[];
  /**
   * The Slack app with the bot's listeners, its delivery dedupe on the store, not started; its
   * `start()` also learns the workspace's URL (`auth.test`) for links to earlier alerts.
   */
  slackApp(connection: SlackConnection): SlackApp;
}

/**
 * The one composition of the bot: its stores over `db`, where its messages go, the alert lifecycle,
 * the deps of the listeners and use-cases, the poll and the jobs, and (asked) the Slack app, from a
 * configuration, a clock and the outside world's {@link BotPorts}. A new use-case's dependencies are
 * added in `wireAlerts` (its deps) and `botJobs` (its job), both called from here only.
 */
export function composeBot(input: ComposeBotInput): ComposedBot {
  const { config, clock, ports } = input;
  const { logger, sources } = ports;
  const stores = botStoresOf(input.db, config, clock);
  const health = new BotHealth();
  const delivery = createDelivery(ports.messages, stores, clock, logger);
  const readers = createReaders(config.team, delivery.people);
  const words = botWords(readers);
  const links: SlackLinks = { workspaceUrl: null };
  const io = { notifier: delivery.notifier, readers, words, clock, logger, fetch: ports.fetch };
  const { alerts, botDeps: deps } = wireAlerts(config, stores, io, links);
  const onPolled = input.onPolled ?? (() => {});
  const poll = createPoll({ config, sources, stores, alerts, health, clock, logger }, onPolled);
  return {
    config,
    clock,
    logger,
    sources,
    stores,
    health,
    delivery,
    readers,
    words,
    alerts,
    deps,
    links,
    poll,
    jobs: botJobs(poll, { botDeps: deps, stores, delivery, words }),
    slackApp: (connection) => slackAppOf(connection, { deps, stores, links, clock, logger }),
  };
}

function slackAppOf(
  connection: SlackConnection,
  parts: { deps: BotDeps; stores: BotStores; links: SlackLinks; clock: Clock; logger: Logger },
): SlackApp {
  const { deps, links, logger } = parts;
  const slack = createSlackApp({
    ...connection,
    logger,
    clock: parts.clock,
    deliveries: parts.stores.state.deliveries,
    register: (app) => registerListeners(app, deps),
  });
  return {
    app: slack.app,
    mode: slack.mode,
    client: slack.client,
    async start() {
      const started = await slack.start();
      links.workspaceUrl = await workspaceUrlOf(slack.client, logger);
      return started;
    },
    stop: () => slack.stop(),
  };
}
