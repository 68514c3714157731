/**
 * A bot process in miniature for `outbox-crash.test.ts`: the real outbox worker over a SQLite file,
 * posting an alert (and later editing it) to the Slack emulator.
 *
 * - `crash-after-post`: opens an alert and queues its post; once Slack has answered the
 *   `chat.postMessage`, and before the worker can record the answer, prints `posted` and waits to be
 *   killed (SIGKILL). The window is reached through the client the worker is given, not by timing.
 * - `restart`: a new worker over the same file delivers what is pending, queues an edit of the
 *   alert, delivers it, prints the alert's stored ts and exits.
 * - `dm`: queues a DM to {@link USER} (a `chat.postMessage` to the user ID) and runs until killed:
 *   the test has the emulator post it and hold the answer, then kills the child.
 * - `restart-dm`: a new worker over the same file delivers what is pending and exits.
 * - `upload`: queues the biweekly summary as the summary use-case does (one `files.uploadV2` of
 *   {@link SUMMARY_FILES} with blocks) and runs until killed: the test has the emulator complete
 *   the upload and hold the answer, then kills the child.
 * - `restart-upload`: as `restart-dm`.
 *
 * argv: <db path> <Slack API URL> <bot token> <crash-after-post | restart | dm | restart-dm | upload | restart-upload>
 */
import { POST_INTERVAL_MS } from "../../src/bot/outbox/outbox-pacing.ts";
import { createOutboxClient, createOutboxWorker } from "../../src/bot/outbox/outbox-worker.ts";
import { systemClock } from "../../src/shared/clock.ts";
import { silentLogger } from "../../src/shared/logger.ts";
import { createBotStateStore } from "../../src/store/bot-state-store.ts";
import { openDatabase } from "../../src/store/open-database.ts";

const CHANNEL = "C0GPUTEAM";
const USER = "U0ALICE01";
/** The summary's files (as `postSummary` names them; `outbox-crash.test.ts` expects them). */
const SUMMARY_FILES = [
  "gpu-summary-2026-03-16.png",
  "gpu-summary-2026-03-16-hours.png",
  "gpu-summary-2026-03-16-hosts.csv",
];

const [dbPath, apiUrl, botToken, mode] = process.argv.slice(2);
if (dbPath === undefined || apiUrl === undefined || botToken === undefined) {
  throw new Error("usage: outbox-crash-child <db> <api url> <bot token> <mode>");
}
const db = openDatabase(dbPath);
const state = createBotStateStore(db);
const client = createOutboxClient({ botToken, slackApiUrl: apiUrl, logger: silentLogger });
if (mode === "crash-after-post") {
  const apiCall = client.apiCall.bind(client);
  client.apiCall = async (method, options) => {
    const result = await apiCall(method, options);
    if (method !== "chat.postMessage") return result;
    process.stdout.write("posted\n");
    return new Promise<never>(() => setInterval(() => {}, 60_000));
  };
}
const outbox = createOutboxWorker({
  store: state,
  client,
  clock: systemClock,
  logger: silentLogger,
  postIntervalMs: POST_INTERVAL_MS,
});
outbox.start();

if (mode === "dm") {
  outbox.send("chat.postMessage", { channel: USER, text: "gpu-a: your claim ends in 15 min" });
} else if (mode === "upload") {
  outbox.send("files.uploadV2", {
    channel_id: CHANNEL,
    blocks: [{ type: "section", text: { type: "mrkdwn", text: "GPU summary, 2 weeks" } }],
    file_uploads: SUMMARY_FILES.map((filename) => ({ content: `${filename}\n`, filename, title: filename })),
  });
} else if (mode === "restart-dm" || mode === "restart-upload") {
  await outbox.drain(30_000);
  await outbox.stop();
  db.close();
} else if (mode === "crash-after-post") {
  const nowMs = systemClock.now();
  const { alert } = state.alerts.open({
    host: "gpu-a",
    kind: "idle",
    openedAtMs: nowMs,
    idleSinceMs: nowMs,
    channel: CHANNEL,
  });
  outbox.send(
    "chat.postMessage",
    { channel: CHANNEL, text: "gpu-a idle for 30 min" },
    { alertId: alert.id, role: "alert-post" },
  );
} else {
  await outbox.drain(30_000);
  const alert = state.alerts.openFor("gpu-a", "idle") ?? assert("an open alert");
  outbox.send(
    "chat.update",
    { channel: CHANNEL, ts: { $alertTs: alert.id }, text: "gpu-a idle for 45 min" },
    { alertId: alert.id, role: "alert-update" },
  );
  await outbox.drain(30_000);
  await outbox.stop();
  process.stdout.write(`${state.alerts.byId(alert.id)?.ts ?? "no ts"}\n`);
  db.close();
}

function assert(what: string): never {
  throw new Error(`expected ${what}`);
}
