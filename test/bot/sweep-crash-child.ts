/**
 * The whole bot (`startBot`) for `sweep-crash.test.ts`, on a clock stopped at the instant on the
 * command line, connected to the Slack emulator over Socket Mode.
 *
 * - `crash-in-sweep`: kills itself with SIGKILL (no shutdown code runs) as the start's poll opens its
 *   second idle alert: the first one's alert row is written, the messages that tell of it not yet
 *   sent. Prints `polled` if the poll ends without that (the test then kills it).
 * - `restart`: starts on the same store, polls, and exits once nothing is left in the outbox.
 *
 * argv: <config JSON path> <now ms> <Slack API URL> <bot token> <app token> <crash-in-sweep | restart>
 */
import Database from "better-sqlite3";
import { pino } from "pino";
import { childBotArgs, startChildBot } from "../helpers/start-child-bot.ts";

const args = childBotArgs("sweep-crash-child <config> <now ms> <api url> <bot token> <app token> <mode>");
const { config } = args;
const mode = args.rest[0];
let opened = 0;
const logger = pino(
  { level: "info" },
  {
    write(line: string) {
      if (!line.includes('"msg":"idle alert opened"')) return;
      opened += 1;
      if (mode === "crash-in-sweep" && opened === 2) process.kill(process.pid, "SIGKILL");
    },
  },
);
const bot = await startChildBot(args, logger);
await bot.pollNow();
if (mode === "crash-in-sweep") {
  process.stdout.write("polled\n");
  setInterval(() => {}, 60_000);
} else {
  const store = new Database(config.store.path, { readonly: true });
  const pending = store.prepare("SELECT count(*) FROM outbox WHERE state = 'pending'").pluck();
  while ((pending.get() as number) > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  process.exit(0);
}
