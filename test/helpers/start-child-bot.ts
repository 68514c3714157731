import { readFileSync } from "node:fs";
import { PassThrough } from "node:stream";
import { parseConfig, readEnv } from "../../src/config/load-config.ts";
import type { Config } from "../../src/config/schema.ts";
import { type RunningBot, startBot } from "../../src/main.ts";
import { ManualClock } from "../../src/shared/clock.ts";
import type { Logger } from "../../src/shared/logger.ts";

/** What a crash test's bot child is started with (argv: config path, now ms, API URL, bot and app tokens, then its own). */
export interface ChildBotArgs {
  config: Config;
  nowMs: number;
  apiUrl: string;
  botToken: string;
  appToken: string;
  /** The child's own arguments after the five. */
  rest: string[];
}

/** Reads a bot child's command line; `usage` names the child and its own arguments. */
export function childBotArgs(usage: string, argv = process.argv.slice(2)): ChildBotArgs {
  const [configPath, nowText, apiUrl, botToken, appToken, ...rest] = argv;
  if (configPath === undefined || apiUrl === undefined || botToken === undefined || appToken === undefined) {
    throw new Error(`usage: ${usage}`);
  }
  const config = parseConfig(JSON.parse(readFileSync(configPath, "utf8")));
  return { config, nowMs: Number(nowText), apiUrl, botToken, appToken, rest };
}

/**
 * The whole bot (`startBot`) on a clock stopped at `nowMs`, connected to the Slack emulator over
 * Socket Mode, with no pacing of posts to one channel (the clock stands still).
 */
export function startChildBot(args: ChildBotArgs, logger: Logger): Promise<RunningBot> {
  return startBot({
    loaded: {
      config: args.config,
      env: readEnv({
        SLACK_BOT_TOKEN: args.botToken,
        SLACK_APP_TOKEN: args.appToken,
        SLACK_API_URL: args.apiUrl,
      }),
      file: null,
    },
    logger,
    pathEnv: "",
    hostName: "test",
    stdout: new PassThrough(),
    clock: new ManualClock(args.nowMs),
    postIntervalMs: 0,
  });
}
