/**
 * The whole bot (`startBot`) for `stop-crash.test.ts`, on a clock stopped at the instant on the
 * command line, connected to the Slack emulator over Socket Mode. Prints `ready` once started and
 * polled, then runs until it is killed (SIGKILL: no shutdown code runs).
 *
 * argv: <config JSON path> <now ms> <Slack API URL> <bot token> <app token>
 */
import { readFileSync } from "node:fs";
import { PassThrough } from "node:stream";
import { parseConfig, readEnv } from "../../src/config/load-config.ts";
import { startBot } from "../../src/main.ts";
import { ManualClock } from "../../src/shared/clock.ts";
import { silentLogger } from "../../src/shared/logger.ts";

const [configPath, nowText, apiUrl, botToken, appToken] = process.argv.slice(2);
if (configPath === undefined || apiUrl === undefined || botToken === undefined || appToken === undefined) {
  throw new Error("usage: stop-crash-child <config> <now ms> <api url> <bot token> <app token>");
}
const bot = await startBot({
  loaded: {
    config: parseConfig(JSON.parse(readFileSync(configPath, "utf8"))),
    env: readEnv({ SLACK_BOT_TOKEN: botToken, SLACK_APP_TOKEN: appToken, SLACK_API_URL: apiUrl }),
    file: null,
  },
  logger: silentLogger,
  pathEnv: "",
  hostName: "test",
  stdout: new PassThrough(),
  clock: new ManualClock(Number(nowText)),
  // NOTE: the clock stands still: no pacing of posts to one channel.
  postIntervalMs: 0,
});
await bot.pollNow();
process.stdout.write("ready\n");
setInterval(() => {}, 60_000);
