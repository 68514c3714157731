import type { LoadedConfig } from "../config/load-config.ts";
import { findOnPath } from "./create-sources.ts";

/** Slack tokens for Socket Mode or HTTP mode are set: alerts go to a real team channel. */
export function slackTokensSet(env: LoadedConfig["env"]): boolean {
  return env.slackBotToken !== null && (env.slackAppToken !== null || env.slackSigningSecret !== null);
}

/** True when `start` would refuse with {@link NothingToWatchError}. */
export function nothingToWatch(loaded: LoadedConfig, pathEnv: string): boolean {
  return (
    slackTokensSet(loaded.env) && loaded.config.sources.length === 0 && !findOnPath("nvidia-smi", pathEnv)
  );
}

/**
 * Slack tokens are set, no source is configured and there is no nvidia-smi on the PATH: the
 * embedded default would post a simulated fleet into a real team channel, so the bot refuses.
 */
export class NothingToWatchError extends Error {
  override name = "NothingToWatchError";
  constructor(readonly configFile: string | null) {
    super("Slack tokens are set but no sources are configured and nvidia-smi is not on the PATH");
  }
}
