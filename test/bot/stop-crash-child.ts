/**
 * The whole bot (`startBot`) for `stop-crash.test.ts`, on a clock stopped at the instant on the
 * command line, connected to the Slack emulator over Socket Mode. Prints `ready` once started and
 * polled, then runs until it is killed (SIGKILL: no shutdown code runs).
 *
 * argv: <config JSON path> <now ms> <Slack API URL> <bot token> <app token>
 */
import { silentLogger } from "../../src/shared/logger.ts";
import { childBotArgs, startChildBot } from "../helpers/start-child-bot.ts";

const args = childBotArgs("stop-crash-child <config> <now ms> <api url> <bot token> <app token>");
const bot = await startChildBot(args, silentLogger);
await bot.pollNow();
process.stdout.write("ready\n");
setInterval(() => {}, 60_000);
