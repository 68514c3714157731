/**
 * A bot process in miniature for `exactly-once.test.ts`: a biweekly job that computes a summary
 * and posts it through the real outbox, run by the real slot runner over a SQLite file, at the
 * instant given on the command line. `crash-after-compute` and `crash-after-commit` stop there and
 * wait to be killed (SIGKILL); `run` delivers the outbox and exits.
 *
 * argv: <db path> <Slack API URL> <bot token> <now ms> <run | crash-after-compute | crash-after-commit>
 */
import { createOutboxClient, createOutboxWorker } from "../../src/bot/outbox/outbox-worker.ts";
import { cronSlots } from "../../src/jobs/cron-slots.ts";
import { createSlotRunner } from "../../src/jobs/slot-runner.ts";
import { DAY_MS, ManualClock } from "../../src/shared/clock.ts";
import { silentLogger } from "../../src/shared/logger.ts";
import { formatLocal } from "../../src/shared/time.ts";
import { createBotStateStore } from "../../src/store/bot-state-store.ts";
import { createJobRunStore } from "../../src/store/job-run-store.ts";
import { openDatabase } from "../../src/store/open-database.ts";

export const CHANNEL = "C0GPUTEAM";
export const ZONE = "Europe/Berlin";
/** The first period ends Monday 2026-03-16 10:00 in Berlin. */
export const ANCHOR_MS = Date.UTC(2026, 2, 16, 9, 0);

const [dbPath, apiUrl, botToken, nowText, mode] = process.argv.slice(2);
if (dbPath === undefined || apiUrl === undefined || botToken === undefined || nowText === undefined) {
  throw new Error("usage: post-once-child <db> <api url> <bot token> <now ms> <mode>");
}
const clock = new ManualClock(Number(nowText));
const db = openDatabase(dbPath);
const state = createBotStateStore(db);
const outbox = createOutboxWorker({
  postIntervalMs: 0,
  store: state,
  client: createOutboxClient({ botToken, slackApiUrl: apiUrl, logger: silentLogger }),
  clock,
  logger: silentLogger,
});
const mondays = cronSlots("0 10 * * 1", ZONE);
const hang = () => new Promise<never>(() => setInterval(() => {}, 60_000));

const runner = createSlotRunner({
  jobs: [
    {
      name: "summary",
      schedule: (afterMs, uptoMs) =>
        mondays(afterMs, uptoMs).filter((slotMs) => Math.round((slotMs - ANCHOR_MS) / DAY_MS) % 14 === 0),
      timezone: ZONE,
      catchUp: "once",
      catchUpWithinMs: 14 * DAY_MS,
      run: async (slot) => {
        const late = slot.late ? " (late: the bot was down)" : "";
        const text = `Summary for the fortnight ending ${formatLocal(slot.atMs, ZONE)}${late}`;
        if (mode === "crash-after-compute") {
          process.stdout.write("computed\n");
          await hang();
        }
        slot.commit(() => outbox.send("chat.postMessage", { channel: CHANNEL, text }));
        if (mode === "crash-after-commit") {
          process.stdout.write("committed\n");
          await hang();
        }
      },
    },
  ],
  store: createJobRunStore(db),
  clock,
  logger: silentLogger,
});

if (mode === "run") outbox.start();
await runner.tick();
if (mode === "run") {
  await outbox.drain();
  await outbox.stop();
}
db.close();
process.stdout.write("done\n");
