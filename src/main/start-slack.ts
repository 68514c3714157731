import { createSlackApp, type SlackApp } from "../bot/app.ts";
import type { BotDeps } from "../bot/bot-deps.ts";
import { registerListeners } from "../bot/listeners/index.ts";
import { workspaceUrlOf } from "../bot/message-link.ts";
import type { BotContext } from "../main.ts";
import { type RunningHttpServer, startHttpServer } from "../observability/http-server.ts";
import type { Clock } from "../shared/clock.ts";
import type { BotHealth } from "./bot-health.ts";
import type { Delivery } from "./create-delivery.ts";
import type { BotStores } from "./open-bot-stores.ts";
import type { SlackLinks } from "./wire-alerts.ts";

/** The Slack side, started. */
export interface StartedSlack {
  slack: SlackApp;
  /** The bot's own HTTP server in Socket Mode; `null` in HTTP mode, where Bolt's receiver serves it. */
  http: RunningHttpServer | null;
  httpUrl: string;
}

/**
 * Starts the Slack app (Socket Mode with an app token, HTTP mode with a signing secret), learns the
 * workspace's URL, serves /metrics and /healthz, then starts the outbox.
 */
export async function startSlack(
  context: BotContext,
  botToken: string,
  deps: {
    botDeps: BotDeps;
    stores: BotStores;
    delivery: Delivery;
    health: BotHealth;
    clock: Clock;
    links: SlackLinks;
  },
): Promise<StartedSlack> {
  const { config, env } = context.loaded;
  const { logger } = context;
  const { metrics, state } = deps.stores;
  const port = env.port ?? config.http.port;
  const endpoints = { registry: metrics.registry, health: deps.health.report };
  const slack = createSlackApp({
    botToken,
    appToken: env.slackAppToken ?? undefined,
    signingSecret: env.slackSigningSecret ?? undefined,
    slackApiUrl: env.slackApiUrl ?? undefined,
    port,
    host: config.http.host,
    logger,
    clock: deps.clock,
    deliveries: state.deliveries,
    endpoints,
    register: (app) => registerListeners(app, deps.botDeps),
  });
  const started = await slack.start();
  deps.links.workspaceUrl = await workspaceUrlOf(slack.client, logger);
  let http: RunningHttpServer | null = null;
  let httpUrl: string;
  if (started.mode === "http") {
    httpUrl = started.url ?? `http://${config.http.host}:${port}`;
  } else {
    http = await startHttpServer(
      { ...endpoints, ...(context.httpRoutes && { extra: context.httpRoutes }) },
      config.http.host,
      port,
    );
    httpUrl = http.url;
  }
  deps.delivery.outbox?.start();
  return { slack, http, httpUrl };
}
