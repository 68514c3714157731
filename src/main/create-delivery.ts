import type { webApi } from "@slack/bolt";
import { createOutboxWorker, type OutboxWorker } from "../bot/outbox-worker.ts";
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
export type MessagesPort = { slack: webApi.WebClient } | { notifier: Notifier };

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
    onSetAside: ({ method, reason }) => stores.metrics.slackSetAside.inc({ method, reason }),
  });
  return { outbox, notifier: outbox, people };
}
