/**
 * The bot in miniature for `post-summary.test.ts`: the real summary job (`summaryJob` →
 * `postSummary`) on the real slot runner and outbox over a SQLite file with history, at the instant
 * on the command line. `crash-after-compute` stops once the summary is computed and rendered, just
 * before it is queued, and waits to be killed (SIGKILL); `run` delivers the outbox and exits.
 *
 * argv: <db path> <Slack API URL> <bot token> <now ms> <run | crash-after-compute> [zh: the team reads
 * zh-CN and pays in CNY]
 */
import { writeSync } from "node:fs";
import { createOutboxClient, createOutboxWorker } from "../../src/bot/outbox/outbox-worker.ts";
import { createReaders } from "../../src/bot/readers.ts";
import { botWords } from "../../src/bot/views/renderers.ts";
import { configSchema } from "../../src/config/schema.ts";
import { createSlotRunner } from "../../src/jobs/slot-runner.ts";
import { summaryJob } from "../../src/jobs/summary-job.ts";
import { ManualClock } from "../../src/shared/clock.ts";
import { silentLogger } from "../../src/shared/logger.ts";
import { createBotStateStore } from "../../src/store/bot-state-store.ts";
import { createJobRunStore } from "../../src/store/job-run-store.ts";
import { createMetricsStore } from "../../src/store/metrics-store.ts";
import { openDatabase } from "../../src/store/open-database.ts";
import { createReclaimStore } from "../../src/store/reclaim-store.ts";
import { ROLLED_UP_TO_KEY } from "../../src/store/rollup.ts";
import { createSummaryStore } from "../../src/store/summary-store.ts";
import { CAROL, CONFIG, STEP_MS } from "./summary-fixture.ts";

const [dbPath, apiUrl, botToken, nowText, mode, language] = process.argv.slice(2);
if (dbPath === undefined || apiUrl === undefined || botToken === undefined || nowText === undefined) {
  throw new Error("usage: post-summary-child <db> <api url> <bot token> <now ms> <mode>");
}
const config = configSchema.parse(
  language === "zh" ? { ...CONFIG, team: { ...CONFIG.team, language: "zh-CN", currency: "CNY" } } : CONFIG,
);
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
const job = summaryJob({
  config,
  metrics: createMetricsStore(db, { sampleSpanMaxMs: 2 * STEP_MS }),
  rolledUpToMs: () => Number(state.meta.get(ROLLED_UP_TO_KEY)),
  summaries: createSummaryStore(db),
  claims: state.claims,
  reclaims: createReclaimStore(db),
  prometheus: [],
  logger: silentLogger,
  notifier: outbox,
  warden: { current: () => CAROL },
  summaryWords: botWords(createReaders(config.team)).summaryWords,
});
const runner = createSlotRunner({
  jobs: [
    {
      ...job,
      run: (slot) =>
        job.run(
          mode === "crash-after-compute"
            ? {
                ...slot,
                commit: () => {
                  writeSync(1, "computed\n");
                  // NOTE: a synchronous wait: nothing after this point may run before the kill.
                  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
                  throw new Error("not killed");
                },
              }
            : slot,
        ),
    },
  ],
  store: createJobRunStore(db),
  clock,
  logger: silentLogger,
});

if (mode === "run") outbox.start();
await runner.tick();
if (mode === "run") {
  await outbox.drain(30_000);
  await outbox.stop();
}
db.close();
process.stdout.write("done\n");
