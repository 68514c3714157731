// The bot the crash campaign kills: `startBot` (what `gpu-warden start` runs), compiled (dist/main.js, as
// the bin runs it; the campaign starts one bundle of this file, dist/ and the packages), with Socket
// Mode to the Slack emulator, on a clock the campaign moves. The jobs follow that clock through the
// playground's clock timer, so a jump fires what fell due, once. Prints `ready` once started; then
// each stdin line `at <ms>` sets the clock, fires the due jobs and prints `ok`. Runs until killed.
//
// argv: <config JSON path> <now ms> <Slack API URL> <bot token> <app token>
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { PassThrough } from "node:stream";
import { startBot } from "../../dist/main.js";
import { parseConfig, readEnv } from "../../src/config/load-config.ts";
import { clockTimer } from "../../src/jobs/clock-timer.ts";
import { ManualClock } from "../../src/shared/clock.ts";
import { createLogger } from "../../src/shared/logger.ts";

const [configPath, nowText, apiUrl, botToken, appToken] = process.argv.slice(2);
if (configPath === undefined || apiUrl === undefined || botToken === undefined || appToken === undefined) {
  throw new Error("usage: crash-bot-child <config> <now ms> <api url> <bot token> <app token>");
}
const clock = new ManualClock(Number(nowText));
const timer = clockTimer(clock, { checkEveryMs: 50 });
await startBot({
  loaded: {
    config: parseConfig(JSON.parse(readFileSync(configPath, "utf8"))),
    env: readEnv({ SLACK_BOT_TOKEN: botToken, SLACK_APP_TOKEN: appToken, SLACK_API_URL: apiUrl }),
    file: null,
  },
  logger: createLogger(process.env.DEBUG_CRASH ? "debug" : "info", process.stderr, "pretty"),
  pathEnv: "",
  hostName: "crash-campaign",
  stdout: new PassThrough(),
  clock,
  // NOTE: the clock stands still between the campaign's steps: no pacing of posts to one channel.
  postIntervalMs: 0,
  jobTimer: timer,
});
process.stdout.write("ready\n");
for await (const line of createInterface({ input: process.stdin })) {
  const [command, value] = line.trim().split(" ");
  if (command === "at") {
    clock.set(Number(value));
    timer.check();
  }
  process.stdout.write("ok\n");
}
