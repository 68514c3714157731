import { createConsoleNotifier } from "../bot/console-notifier.ts";
import { createOutboxClient, createOutboxWorker, type OutboxWorker } from "../bot/outbox-worker.ts";
import { slackPeopleDirectory } from "../bot/slack-people.ts";
import type { BotContext } from "../main.ts";
import type { Clock } from "../shared/clock.ts";
import type { Notifier } from "../usecases/ports.ts";
import type { BotStores } from "./open-bot-stores.ts";

/** Where the bot's messages go: Slack through the outbox when a bot token is set, else the console. */
export interface Delivery {
  outbox: OutboxWorker | null;
  notifier: Notifier;
  people: ReturnType<typeof slackPeopleDirectory> | undefined;
}

export function createDelivery(
  context: BotContext,
  stores: BotStores,
  clock: Clock,
  slackOn: boolean,
): Delivery {
  const { env, config } = context.loaded;
  const { logger } = context;
  if (!slackOn || env.slackBotToken === null) {
    return {
      outbox: null,
      notifier: createConsoleNotifier(context.stdout, config.slack.channel),
      people: undefined,
    };
  }
  const client = createOutboxClient({
    botToken: env.slackBotToken,
    slackApiUrl: env.slackApiUrl ?? undefined,
    logger,
  });
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
