import type { SlackApp } from "../bot/app.ts";
import type { BotContext } from "../main.ts";
import type { RunningHttpServer } from "../observability/http-server.ts";
import type { ComposedBot } from "./compose-bot.ts";
import { serveBot } from "./listen-early.ts";

/** The Slack side, started. */
export interface StartedSlack {
  slack: SlackApp;
  /** The bot's own HTTP server in Socket Mode; `null` in HTTP mode, where Bolt's receiver serves it. */
  http: RunningHttpServer | null;
  httpUrl: string;
}

/**
 * Starts the composed Slack app (Socket Mode with an app token, HTTP mode with a signing secret),
 * which learns the workspace's URL, serves /metrics and /healthz, then starts the outbox.
 */
export async function startSlack(
  context: BotContext,
  botToken: string,
  bot: ComposedBot,
): Promise<StartedSlack> {
  const { config, env } = context.loaded;
  const port = env.port ?? config.http.port;
  const endpoints = { registry: bot.stores.metrics.registry, health: bot.health.report };
  const slack = bot.slackApp({
    botToken,
    appToken: env.slackAppToken ?? undefined,
    signingSecret: env.slackSigningSecret ?? undefined,
    slackApiUrl: env.slackApiUrl ?? undefined,
    port,
    host: config.http.host,
    endpoints,
  });
  const started = await slack.start();
  let http: RunningHttpServer | null = null;
  let httpUrl: string;
  if (started.mode === "http") {
    httpUrl = started.url ?? `http://${config.http.host}:${port}`;
  } else {
    http = await serveBot(
      context.http,
      { ...endpoints, ...(context.httpRoutes && { extra: context.httpRoutes }) },
      config.http.host,
      port,
    );
    httpUrl = http.url;
  }
  bot.delivery.outbox?.start();
  return { slack, http, httpUrl };
}
