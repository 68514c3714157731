import type { webApi } from "@slack/bolt";
import type { Sleep } from "../bot/outbox/outbox-sleep.ts";
import { createOutboxWorker, type OutboxWorker } from "../bot/outbox/outbox-worker.ts";
import { slackPeopleDirectory } from "../bot/slack-people.ts";
import type { Clock } from "../shared/clock.ts";
import type { Logger } from "../shared/logger.ts";
import type { Notifier } from "../usecases/ports.ts";
import type { BotStores } from "./bot-stores.ts";

/**
 * Where the bot's messages go, as an entry point gives it: a Slack Web API client (the durable outbox
 * delivers through it; build it with `createOutboxClient`, which neither retries nor waits by itself),
 * or a stand-in notifier (the console without Slack tokens).
 */
export type MessagesPort = { slack: webApi.WebClient; pacing: SlackPacing } | { notifier: Notifier };

/** How the outbox keeps to Slack's limits, as the entry point knows them. */
export interface SlackPacing {
  /**
   * The least time between two posts to one channel: Slack's ~1 s (`POST_INTERVAL_MS`) against
   * Slack; 0 against a stand-in that enforces no limit (whose clock may stand still).
   */
  postIntervalMs: number;
  /** How the outbox waits; real timers by default (a test passes one that moves its clock). */
  sleep?: Sleep;
}

/** Where the bot's messages go: the outbox and people's names over the Slack client, else the stand-in. */
export interface Delivery {
  outbox: OutboxWorker | null;
  notifier: Notifier;
  people: ReturnType<typeof slackPeopleDirectory> | undefined;
}

export function createDelivery(
  port: MessagesPort,
  stores: Pick<BotStores, "state" | "metrics">,
  clock: Clock,
  logger: Logger,
): Delivery {
  if ("notifier" in port) return { outbox: null, notifier: port.notifier, people: undefined };
  const client = port.slack;
  const people = slackPeopleDirectory(client, clock, logger);
  const outbox = createOutboxWorker({
    store: stores.state,
    client,
    clock,
    logger,
    postIntervalMs: port.pacing.postIntervalMs,
    ...(port.pacing.sleep && { sleep: port.pacing.sleep }),
    onSetAside: ({ method, reason }) => stores.metrics.slackSetAside.inc({ method, reason }),
  });
  return { outbox, notifier: outbox, people };
}
