import type { LoadedConfig } from "../config/load-config.ts";
import {
  type HttpServerDeps,
  type RunningHttpServer,
  startHttpServer,
} from "../observability/http-server.ts";
import { slackTokensSet } from "../sources/nothing-to-watch.ts";

/** What `/healthz` answers while the bot starts: up, no poll yet; `/metrics` is empty until then. */
export const STARTING_ENDPOINTS = {
  health: () => ({ ok: true, lastPollAtMs: null, starting: true }),
  registry: { metrics: async () => "", contentType: "text/plain; version=0.0.4; charset=utf-8" as const },
};

/**
 * The bot's own HTTP server (console and Socket Mode), listening before the bot's modules are loaded
 * and its store read, so that `/healthz` answers within a second of the start; the bot serves its own
 * routes on it once composed (`BotContext.http`). `null` in Slack's HTTP mode (Bolt's receiver owns
 * the port) and when the port cannot be taken now: the start then listens where it did before, after
 * the store's lock, so a second instance is still refused for the store it shares.
 */
export async function listenEarly(loaded: LoadedConfig): Promise<RunningHttpServer | null> {
  const { config, env } = loaded;
  if (slackTokensSet(env) && env.slackAppToken === null) return null;
  try {
    return await startHttpServer(STARTING_ENDPOINTS, config.http.host, env.port ?? config.http.port);
  } catch {
    return null;
  }
}

/** The bot's routes on the server that listens early when there is one, else on a new one. */
export async function serveBot(
  early: RunningHttpServer | undefined,
  deps: HttpServerDeps,
  host: string,
  port: number,
): Promise<RunningHttpServer> {
  if (early === undefined) return startHttpServer(deps, host, port);
  early.serve(deps);
  return early;
}
