import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import bolt, { type App, type AppOptions, type webApi } from "@slack/bolt";
import type { ExtendedErrorHandlerArgs } from "@slack/bolt/dist/App.js";
import { type Clock, systemClock } from "../shared/clock.ts";
import type { Logger } from "../shared/logger.ts";
import type { DeliveryStore } from "../store/delivery-store.ts";
import { boltLevel, boltLogger } from "./transport/bolt-logger.ts";
import { dedupeDeliveries } from "./transport/dedupe-deliveries.ts";
import { guardPayloads, refuseFutureRequests } from "./transport/guard-deliveries.ts";
import type { HealthEndpoints } from "./transport/health-routes.ts";
import { createHttpReceiver } from "./transport/http-receiver.ts";
import { createLeanFetch } from "./transport/lean-fetch.ts";
import { missingScope, slackErrorCode, slackErrorHint } from "./transport/slack-error-hint.ts";
import { createSocketModeReceiver } from "./transport/socket-mode-receiver.ts";

const { App: BoltApp } = bolt;

/** Socket Mode (an app-level token, no public URL) or HTTP mode (signed requests to `/slack/events`). */
export type SlackMode = "socket" | "http";

export interface SlackAppOptions {
  /** `xoxb-…` (SLACK_BOT_TOKEN). */
  botToken: string;
  /** `xapp-…` with `connections:write` (SLACK_APP_TOKEN): Socket Mode. Wins over `signingSecret`. */
  appToken?: string | undefined;
  /** SLACK_SIGNING_SECRET: HTTP mode on `POST /slack/events` when no `appToken` is given. */
  signingSecret?: string | undefined;
  /** Web API base URL (SLACK_API_URL); default `https://slack.com/api/`. */
  slackApiUrl?: string | undefined;
  /** HTTP mode: where to listen; port 0 picks a free one. Default 3000 on 127.0.0.1. */
  port?: number;
  host?: string;
  logger: Logger;
  clock: Clock;
  /** Real time for request timestamps (Bolt checks staleness with `Date.now()`); default the system clock. */
  wallClock?: Clock;
  /** Handled deliveries: a Slack retry or an exact replay runs no listener twice. */
  deliveries: DeliveryStore;
  /** HTTP mode: `/healthz` and `/metrics` on the same port as `/slack/events`. */
  endpoints?: HealthEndpoints | undefined;
  /** With both, Bolt skips `auth.test` (tests, the playground); otherwise `start()` runs it. */
  botId?: string | undefined;
  botUserId?: string | undefined;
  /** The bot's display name, used in operator hints (`/invite @gpu-warden`). */
  botName?: string;
  /** Registers the listeners (`registerListeners(app, deps)`), after the dedupe middleware. */
  register?: (app: App) => void;
  /** Retries of the listeners' `client` (replies to users: short). */
  retryConfig?: webApi.RetryOptions;
  /** Retries of `apps.connections.open` when (re)connecting in Socket Mode. */
  connectRetryConfig?: webApi.RetryOptions;
  /** Per Web API call, ms; default 10 s. */
  timeoutMs?: number;
  /** Socket Mode ping timeout, ms (also the reconnect back-off step); default 5 s. */
  clientPingTimeoutMs?: number;
}

export interface StartedSlackApp {
  mode: SlackMode;
  /** HTTP mode: `http://host:port`, the `/slack/events` endpoint is under it. */
  url?: string;
  port?: number;
}

export interface SlackApp {
  app: App;
  mode: SlackMode;
  /** The app's Web API client (bot token, our retry and timeout settings). */
  client: webApi.WebClient;
  start(): Promise<StartedSlackApp>;
  stop(): Promise<void>;
}

/**
 * Listener replies are short-lived: a user is waiting, and Slack's `response_url`/`trigger_id`
 * expire, so two quick retries, never minutes of them.
 */
export const LISTENER_RETRY: webApi.RetryOptions = {
  retries: 2,
  factor: 2,
  minTimeout: 500,
  maxTimeout: 2_000,
  randomize: true,
};

/**
 * Builds the real Bolt 5 app: Socket Mode when an app token is given, else HTTP mode with the
 * signing secret. Deliveries are de-duplicated before any listener runs; listener errors are
 * logged with the delivery's context and, for known Slack errors, an operator hint.
 */
export function createSlackApp(options: SlackAppOptions): SlackApp {
  const { logger } = options;
  const mode = slackModeOf(options);
  const botName = options.botName ?? "gpu-warden";
  const slackLog = logger.child({ component: "slack" });
  const clientOptions = listenerClientOptions(options);

  // NOTE: a listener error reaches app.error (logged there with context and a hint), then the
  // receiver's own handler, which would log it again without either: it logs at debug instead.
  const loggedErrors = new WeakSet<object>();
  const receiverLogger = (name: string, error: unknown) =>
    boltLogger(logger, name, {
      quiet: typeof error === "object" && error !== null && loggedErrors.has(error),
    });

  const socketReceiver =
    mode === "socket"
      ? createSocketModeReceiver({
          appToken: options.appToken ?? "",
          logger,
          receiverLogger,
          clientOptions,
          clientPingTimeoutMs: options.clientPingTimeoutMs,
          connectRetryConfig: options.connectRetryConfig,
        })
      : undefined;
  const httpReceiver =
    mode === "http"
      ? createHttpReceiver({
          signingSecret: options.signingSecret ?? "",
          logger,
          slackLog,
          receiverLogger,
          endpoints: options.endpoints,
        })
      : undefined;
  if (httpReceiver !== undefined)
    refuseFutureRequests(httpReceiver, options.wallClock ?? systemClock, slackLog);

  const knowsBot = options.botId !== undefined && options.botUserId !== undefined;
  const app = new BoltApp(boltAppOptions(options, clientOptions, socketReceiver ?? httpReceiver));
  guardPayloads(app, slackLog, describeDelivery);
  app.use(dedupeDeliveries({ deliveries: options.deliveries, clock: options.clock, logger: slackLog }));
  app.error(async ({ error, body, context }: ExtendedErrorHandlerArgs) => {
    logListenerError(slackLog, botName, error, body, context.retryNum);
    loggedErrors.add(error);
    throw error;
  });
  options.register?.(app);

  let server: Server | undefined;
  return {
    app,
    mode,
    client: app.client,
    async start() {
      if (!knowsBot) {
        await app.init().catch((error: unknown) => {
          throw withHint(error, botName, "auth.test failed");
        });
      }
      if (mode === "socket") {
        await app.start().catch((error: unknown) => {
          throw withHint(error, botName, "could not open the Socket Mode connection");
        });
        slackLog.info({ mode }, "connected to Slack over Socket Mode");
        return { mode };
      }
      server = (await app.start({ port: options.port ?? 3000, host: options.host ?? "127.0.0.1" })) as Server;
      const { port } = server.address() as AddressInfo;
      const url = `http://${options.host ?? "127.0.0.1"}:${port}`;
      slackLog.info({ mode, url, endpoint: `${url}/slack/events` }, "listening for Slack over HTTP");
      return { mode, url, port };
    },
    async stop() {
      if (socketReceiver !== undefined) {
        // NOTE: app.stop() in Socket Mode does not wait for the close handshake.
        await app.stop();
        await socketReceiver.client.disconnect();
        return;
      }
      if (server === undefined) return;
      server.closeIdleConnections();
      await app.stop();
      server = undefined;
    },
  };
}

/** The listeners' Web API client options (also the Socket Mode connection's, with its own retries). */
function listenerClientOptions(options: SlackAppOptions): webApi.WebClientOptions {
  // NOTE: always explicit. Without retryConfig, Socket Mode writes a 100-retry policy into the
  // shared clientOptions and every listener client inherits it; timeout 0 means "wait forever".
  const clientOptions: webApi.WebClientOptions = {
    retryConfig: options.retryConfig ?? LISTENER_RETRY,
    timeout: options.timeoutMs ?? 10_000,
    logger: boltLogger(options.logger, "web-api"),
    // NOTE: also what Bolt's `respond` posts to `response_url` with (a reply to nearly every click).
    fetch: createLeanFetch(),
  };
  if (options.slackApiUrl !== undefined) clientOptions.slackApiUrl = options.slackApiUrl;
  return clientOptions;
}

function boltAppOptions(
  options: SlackAppOptions,
  clientOptions: webApi.WebClientOptions,
  receiver: AppOptions["receiver"],
): AppOptions {
  const appOptions: AppOptions = {
    token: options.botToken,
    logger: boltLogger(options.logger, "bolt"),
    logLevel: boltLevel(options.logger.level),
    clientOptions,
    extendedErrorHandler: true,
    // NOTE: Bolt's conversation store is a global middleware run on every delivery; nothing here
    // uses `context.conversation`.
    convoStore: false,
  };
  if (receiver !== undefined) appOptions.receiver = receiver;
  if (options.botId !== undefined && options.botUserId !== undefined) {
    appOptions.botId = options.botId;
    appOptions.botUserId = options.botUserId;
  } else {
    appOptions.deferInitialization = true;
  }
  return appOptions;
}

/** Socket Mode when an app token is given, else HTTP mode when a signing secret is; else it throws. */
function slackModeOf(options: Pick<SlackAppOptions, "appToken" | "signingSecret">): SlackMode {
  if (options.appToken !== undefined && options.appToken !== "") return "socket";
  if (options.signingSecret !== undefined && options.signingSecret !== "") return "http";
  throw new Error(
    "Slack needs SLACK_APP_TOKEN (Socket Mode) or SLACK_SIGNING_SECRET (HTTP mode) next to SLACK_BOT_TOKEN",
  );
}

/** One log line for a failed listener: what was delivered, the Slack error code and the fix. */
function logListenerError(
  logger: Logger,
  botName: string,
  error: unknown,
  body: unknown,
  retryNum: number | undefined,
): void {
  const cause = slackCause(error);
  const code = slackErrorCode(cause);
  const hint =
    code === undefined ? undefined : slackErrorHint(code, { botName, needed: missingScope(cause) });
  logger.error(
    { err: cause, delivery: describeDelivery(body), retryNum, slackError: code, hint },
    hint === undefined
      ? `Slack listener failed: ${errorMessage(cause)}`
      : `Slack listener failed (${code}): ${hint}`,
  );
}

/** The error that carries the Slack code: Bolt wraps listener errors (`original`, `originals`). */
function slackCause(error: unknown): unknown {
  if (slackErrorCode(error) !== undefined) return error;
  const wrapped = error as { original?: unknown; originals?: unknown[] };
  const candidates = [wrapped.original, ...(wrapped.originals ?? [])];
  return candidates.find((candidate) => slackErrorCode(candidate) !== undefined) ?? wrapped.original ?? error;
}

/** The delivery in a few fields: kind, command or action id or event type, user, channel. */
export function describeDelivery(body: unknown): Record<string, unknown> {
  if (typeof body !== "object" || body === null) return {};
  const b = body as Record<string, unknown>;
  if (typeof b.command === "string") {
    return { kind: "command", command: b.command, text: b.text, user: b.user_id, channel: b.channel_id };
  }
  const event = b.event as Record<string, unknown> | undefined;
  if (event !== undefined) {
    return { kind: "event", type: event.type, eventId: b.event_id, user: event.user, channel: event.channel };
  }
  const actions = Array.isArray(b.actions) ? (b.actions as Array<Record<string, unknown>>) : [];
  const user = (b.user as { id?: unknown } | undefined)?.id;
  const channel = (b.channel as { id?: unknown } | undefined)?.id;
  if (b.type === "block_actions") {
    return { kind: "action", actionId: actions[0]?.action_id, value: actions[0]?.value, user, channel };
  }
  return { kind: String(b.type), user, channel };
}

function withHint(error: unknown, botName: string, what: string): Error {
  const code = slackErrorCode(error);
  const hint =
    code === undefined ? undefined : slackErrorHint(code, { botName, needed: missingScope(error) });
  const message = `Slack: ${what}: ${code ?? errorMessage(error)}${hint === undefined ? "" : ` — ${hint}`}`;
  return new Error(message, { cause: error });
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
