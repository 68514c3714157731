import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterEach, beforeEach, describe, test } from "node:test";
import { setImmediate as yieldToLoop } from "node:timers/promises";
import type { Database } from "better-sqlite3";
import { POST_INTERVAL_MS } from "../../src/bot/outbox/outbox-pacing.ts";
import type { Sleep } from "../../src/bot/outbox/outbox-sleep.ts";
import {
  createOutboxClient,
  createOutboxWorker,
  type OutboxWorker,
} from "../../src/bot/outbox/outbox-worker.ts";
import { createMetrics } from "../../src/observability/metrics.ts";
import {
  type SlackEmulator,
  startSlackEmulator,
} from "../../src/playground/slack-emulator/start-slack-emulator.ts";
import { ManualClock, MINUTE_MS } from "../../src/shared/clock.ts";
import { createLogger } from "../../src/shared/logger.ts";
import { type BotStateStore, createBotStateStore } from "../../src/store/bot-state-store.ts";
import { openDatabase } from "../../src/store/open-database.ts";
import { alertTs, ifLate } from "../../src/usecases/ports.ts";

const GPUS = "C0GPUS";
const QUIET = "C0QUIET";
const START_MS = Date.parse("2026-03-02T09:00:00Z");

interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

/** Everything one test needs: emulator, SQLite file, clock, captured logs, and a worker factory. */
class Rig {
  readonly clock = new ManualClock(START_MS);
  readonly dir = mkdtempSync(join(tmpdir(), "gpu-warden-outbox-"));
  readonly dbPath = join(this.dir, "state.db");
  readonly logs: LogLine[] = [];
  /** Every wait the worker asked for, in ms (the clock moves by that much instead of real time). */
  readonly waits: number[] = [];
  emulator!: SlackEmulator;
  db!: Database;
  store!: BotStateStore;
  workers: OutboxWorker[] = [];

  readonly logger = createLogger(
    "debug",
    new Writable({
      write: (chunk: Buffer, _encoding, callback) => {
        for (const line of chunk.toString("utf8").split("\n"))
          if (line !== "") this.logs.push(JSON.parse(line));
        callback();
      },
    }),
  );

  readonly sleep: Sleep = async (ms) => {
    this.waits.push(ms);
    this.clock.advance(ms);
    await yieldToLoop();
  };

  async open(): Promise<void> {
    this.emulator = await startSlackEmulator({
      clock: this.clock,
      users: [{ id: "U0ALICE", name: "alice" }],
      channels: [
        { id: GPUS, name: "gpus" },
        { id: QUIET, name: "quiet", botIsMember: false },
      ],
    });
    this.openDb();
  }

  openDb(): void {
    this.db = openDatabase(this.dbPath);
    this.store = createBotStateStore(this.db);
  }

  /** A wait that never ends on its own: the worker holds until stopped. */
  readonly sleepForever: Sleep = (ms, signal) => {
    this.waits.push(ms);
    return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
  };

  worker(
    timeoutMs = 30_000,
    sleep: Sleep = this.sleep,
    onSetAside?: (setAside: { method: string; reason: string }) => void,
  ): OutboxWorker {
    const worker = createOutboxWorker({
      postIntervalMs: POST_INTERVAL_MS,
      store: this.store,
      client: createOutboxClient({
        botToken: this.emulator.identity.botToken,
        slackApiUrl: this.emulator.apiUrl,
        logger: this.logger,
        timeoutMs,
      }),
      clock: this.clock,
      logger: this.logger,
      backoff: { initialMs: 1_000, maxMs: 60_000 },
      sleep,
      ...(onSetAside === undefined ? {} : { onSetAside }),
    });
    this.workers.push(worker);
    return worker;
  }

  texts(channel: string): Array<string | undefined> {
    return this.emulator.channel(channel).messages.map((m) => m.text);
  }

  errorLines(): string[] {
    return this.logs.filter((l) => l.level >= 50).map((l) => l.msg);
  }

  async close(): Promise<void> {
    for (const worker of this.workers) await worker.stop();
    await this.emulator.close();
    this.db.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

describe("outbox worker against the Slack emulator", { timeout: 30_000 }, () => {
  let rig: Rig;

  beforeEach(async () => {
    rig = new Rig();
    await rig.open();
  });

  afterEach(async () => {
    await rig.close();
  });

  test("503s for a while, then 429 with Retry-After: every message arrives afterwards, once, in order", async () => {
    rig.emulator.failFor("chat.postMessage", { status: 503 }, 7_000);
    rig.emulator.failNext("chat.postMessage", { status: 429, retryAfterS: 30 }, 2);
    const worker = rig.worker();
    worker.start();
    for (const text of ["first", "second", "third"]) worker.send("chat.postMessage", { channel: GPUS, text });
    await worker.drain();

    assert.deepEqual(rig.texts(GPUS), ["first", "second", "third"]);
    assert.deepEqual(
      rig.emulator.calls("chat.postMessage").map((c) => [c.args.text, c.status]),
      [
        ["first", 503],
        ["first", 503],
        ["first", 503],
        ["first", 429],
        ["first", 429],
        ["first", 200],
        ["second", 200],
        ["third", 200],
      ],
    );
    // Back-off 1 s, 2 s, 4 s while Slack answers 503 (the window ends at 7 s), then Retry-After twice,
    // then one second between the posts to the channel.
    assert.deepEqual(rig.waits, [1_000, 2_000, 4_000, 30_000, 30_000, 1_000, 1_000]);
    assert.equal(rig.clock.now() - START_MS, 69_000);
    assert.equal(rig.store.outbox.pendingCount(), 0);
    assert.deepEqual(rig.errorLines(), []);
  });

  test("the back-off doubles up to its cap during a long outage", async () => {
    rig.emulator.failFor("*", { status: 500 }, 5 * MINUTE_MS);
    const worker = rig.worker();
    worker.start();
    worker.send("chat.postMessage", { channel: GPUS, text: "after the outage" });
    await worker.drain();
    assert.deepEqual(rig.waits, [1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000, 60_000]);
    assert.equal(rig.emulator.attempts("chat.postMessage"), 11);
    assert.deepEqual(rig.texts(GPUS), ["after the outage"]);
  });

  test("a dead item (invalid_blocks, not_in_channel) is logged with a hint and does not block the rest", async () => {
    const worker = rig.worker();
    worker.start();
    worker.send("chat.postMessage", {
      channel: GPUS,
      text: "too long a header",
      blocks: [{ type: "header", text: { type: "plain_text", text: "x".repeat(151) } }],
    });
    worker.send("chat.postMessage", { channel: QUIET, text: "nobody invited me" });
    worker.send("chat.postMessage", { channel: GPUS, text: "still delivered" });
    await worker.drain();

    assert.deepEqual(rig.texts(GPUS), ["still delivered"]);
    assert.deepEqual(rig.texts(QUIET), []);
    assert.equal(rig.emulator.attempts("chat.postMessage"), 3);
    assert.deepEqual(rig.errorLines(), [
      "Slack refused chat.postMessage for good (invalid_blocks: must be less than 151 characters [json-pointer:/blocks/0/text/text]); message 1 set aside: Slack refused the message's content: this is a gpu-warden bug, please report it with this log line",
      `Slack refused chat.postMessage for good (not_in_channel); message 2 set aside: invite the bot: type /invite @gpu-warden in ${QUIET}`,
    ]);
    assert.deepEqual(rig.waits, []);
  });

  test("a restart (a new worker over the same SQLite file) sends what was pending, after its not_before", async () => {
    rig.emulator.failNext("chat.postMessage", { status: 503 });
    const first = rig.worker(30_000, rig.sleepForever);
    first.start();
    first.send("chat.postMessage", { channel: GPUS, text: "queued before the restart" });
    first.send("chat.postMessage", { channel: GPUS, text: "queued second" });
    await rig.emulator.waitFor(() => rig.waits.length === 1, "the back-off after the 503");
    await first.stop();
    rig.db.close();
    assert.deepEqual(rig.texts(GPUS), []);

    rig.openDb();
    assert.equal(rig.store.outbox.pendingCount(), 2);
    const second = rig.worker();
    second.start();
    await second.drain();
    assert.deepEqual(rig.texts(GPUS), ["queued before the restart", "queued second"]);
    assert.deepEqual(
      rig.emulator.calls("chat.postMessage").map((c) => [c.args.text, c.status]),
      [
        ["queued before the restart", 503],
        ["queued before the restart", 200],
        ["queued second", 200],
      ],
    );
    // The not_before (now + 1 s) stored by the first worker is honoured by the second, then the pace.
    assert.deepEqual(rig.waits, [1_000, 1_000, 1_000]);
  });

  test("alert-post, then alert-update, then a thread reply: the ts placeholder resolves", async () => {
    const { alert } = rig.store.alerts.open({
      host: "gpu-a",
      kind: "idle",
      openedAtMs: START_MS,
      idleSinceMs: START_MS - 30 * MINUTE_MS,
      channel: GPUS,
    });
    const worker = rig.worker();
    rig.emulator.failNext("chat.postMessage", { status: 503 });
    worker.send(
      "chat.postMessage",
      { channel: GPUS, text: "gpu-a idle for 30 min" },
      { alertId: alert.id, role: "alert-post" },
    );
    worker.send(
      "chat.update",
      { channel: GPUS, ts: alertTs(alert.id), text: "gpu-a idle for 35 min" },
      { alertId: alert.id, role: "alert-update" },
    );
    // A queued channel name is replaced by the channel Slack answered with (chat.update needs the ID).
    worker.send(
      "chat.update",
      { channel: "#gpus", ts: alertTs(alert.id), text: "gpu-a idle for 40 min" },
      { alertId: alert.id, role: "alert-update" },
    );
    worker.send("chat.postMessage", {
      channel: GPUS,
      thread_ts: alertTs(alert.id),
      text: "stopped by alice",
    });
    worker.start();
    await worker.drain();

    const messages = rig.emulator.channel(GPUS).messages;
    assert.equal(messages.length, 1);
    const posted = messages[0]!;
    assert.equal(posted.text, "gpu-a idle for 40 min");
    assert.deepEqual(
      posted.edits.map((e) => e.text),
      ["gpu-a idle for 30 min"],
    );
    assert.equal(rig.emulator.attempts("chat.update"), 1, "the 35-min update was superseded");
    assert.deepEqual(
      rig.emulator
        .channel(GPUS)
        .thread(posted.ts)
        .map((m) => m.text),
      ["stopped by alice"],
    );
    assert.equal(rig.store.alerts.byId(alert.id)?.ts, posted.ts);
    assert.equal(rig.store.alerts.byId(alert.id)?.channel, GPUS);
  });

  test("an alert whose post died: its update is dropped, its thread reply goes to the channel", async () => {
    const { alert } = rig.store.alerts.open({
      host: "gpu-b",
      kind: "idle",
      openedAtMs: START_MS,
      idleSinceMs: START_MS,
      channel: GPUS,
    });
    const worker = rig.worker();
    worker.start();
    worker.send(
      "chat.postMessage",
      { channel: GPUS, text: "gpu-b idle", blocks: [{ type: "nonsense" }] },
      { alertId: alert.id, role: "alert-post" },
    );
    worker.send(
      "chat.update",
      { channel: GPUS, ts: alertTs(alert.id), text: "gpu-b idle 10 min" },
      { alertId: alert.id, role: "alert-update" },
    );
    worker.send("chat.postMessage", { channel: GPUS, thread_ts: alertTs(alert.id), text: "gpu-b stopped" });
    await worker.drain();
    assert.deepEqual(rig.texts(GPUS), ["gpu-b stopped"]);
    assert.equal(rig.emulator.attempts("chat.update"), 0);
    assert.equal(rig.store.alerts.byId(alert.id)?.ts, null);
    assert.equal(rig.errorLines().length, 2);
    assert.match(
      rig.errorLines()[1] ?? "",
      /^Slack refused chat\.update for good \(no_alert_message: alert 1 has no Slack message \(its post failed or never ran\)\); message 2 set aside$/,
    );
  });

  test("a hung call is cut by the client timeout and retried (chat.update is idempotent)", async () => {
    const worker = rig.worker(300);
    worker.start();
    worker.send("chat.postMessage", { channel: GPUS, text: "v1" });
    await worker.drain();
    const ts = rig.emulator.channel(GPUS).latest?.ts ?? "";
    rig.emulator.failNext("chat.update", { hang: true });
    worker.send("chat.update", { channel: GPUS, ts, text: "v2" });
    await worker.drain();
    assert.deepEqual(
      rig.emulator.calls("chat.update").map((c) => c.error),
      ["hang", undefined],
    );
    assert.equal(rig.emulator.channel(GPUS).latest?.text, "v2");
    assert.deepEqual(rig.waits, [1_000]);
  });

  test("a post that times out is looked for in the channel before it is retried", async () => {
    const worker = rig.worker(300);
    worker.start();
    rig.emulator.failNext("chat.postMessage", { hang: true });
    worker.send("chat.postMessage", { channel: GPUS, text: "once, hopefully" });
    await worker.drain();
    assert.deepEqual(rig.texts(GPUS), ["once, hopefully"]);
    assert.deepEqual(
      rig.logs.filter((l) => l.level === 40 && l.component === "outbox").map((l) => l.msg),
      [
        "chat.postMessage timed out; Slack may have completed it, so it is looked for before it is sent again",
      ],
    );
    assert.deepEqual(
      rig.emulator
        .calls("conversations.history")
        .map((c) => [c.args.channel, c.args.include_all_metadata, c.status]),
      [[GPUS, "true", 200]],
    );
  });

  test("stop() lets the call in flight finish and records it", async () => {
    const worker = rig.worker();
    worker.start();
    rig.emulator.failNext("chat.postMessage", { delayMs: 200 });
    worker.send("chat.postMessage", { channel: GPUS, text: "in flight" });
    await rig.emulator.waitFor(() => rig.emulator.attempts("chat.postMessage") === 1, "the call");
    await worker.stop();
    assert.deepEqual(rig.texts(GPUS), ["in flight"]);
    assert.equal(rig.store.outbox.pendingCount(), 0);
    worker.send("chat.postMessage", { channel: GPUS, text: "after stop" });
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(rig.emulator.attempts("chat.postMessage"), 1, "a stopped worker sends nothing");
    assert.equal(rig.store.outbox.pendingCount(), 1, "but the message is kept for the next start");
  });

  test("files.uploadV2 goes through filesUploadV2, Buffers survive the JSON outbox", async () => {
    const worker = rig.worker();
    worker.start();
    worker.send("files.uploadV2", {
      channel_id: GPUS,
      filename: "usage.csv",
      content: "host,util\ngpu-a,3\n",
      initial_comment: "usage",
    });
    worker.send("files.uploadV2", {
      channel_id: GPUS,
      filename: "chart.png",
      file: Buffer.from([137, 80, 78, 71]),
    });
    await worker.drain();
    const files = rig.emulator.files();
    assert.deepEqual(
      files.map((f) => [f.filename, f.bytes?.toString("hex"), f.channels]),
      [
        ["usage.csv", Buffer.from("host,util\ngpu-a,3\n").toString("hex"), [GPUS]],
        ["chart.png", "89504e47", [GPUS]],
      ],
    );
    assert.deepEqual(rig.errorLines(), []);
  });

  test("a failing thread reply holds its own thread only: new alerts and DMs elsewhere go at once", async () => {
    const open = (host: string) =>
      rig.store.alerts.open({
        host,
        kind: "idle",
        openedAtMs: START_MS,
        idleSinceMs: START_MS,
        channel: GPUS,
      }).alert;
    const first = open("gpu-a");
    const worker = rig.worker();
    worker.start();
    worker.send(
      "chat.postMessage",
      { channel: GPUS, text: "gpu-a idle" },
      { alertId: first.id, role: "alert-post" },
    );
    await worker.drain();
    const firstTs = rig.store.alerts.byId(first.id)?.ts ?? assert.fail("posted");
    // Slack fails every reply in gpu-a's thread for 5 minutes; everything else works.
    rig.emulator.failFor(
      { method: "chat.postMessage", where: { channel: GPUS, thread_ts: firstTs } },
      { status: 503 },
      5 * MINUTE_MS,
    );
    worker.send("chat.postMessage", { channel: GPUS, thread_ts: alertTs(first.id), text: "gpu-a note 1" });
    worker.send("chat.postMessage", { channel: GPUS, thread_ts: alertTs(first.id), text: "gpu-a note 2" });
    const second = open("gpu-b");
    const third = open("gpu-c");
    worker.send(
      "chat.postMessage",
      { channel: GPUS, text: "gpu-b idle" },
      { alertId: second.id, role: "alert-post" },
    );
    worker.send("chat.postMessage", { channel: "U0ALICE", text: "your gpu-b is idle" });
    worker.send(
      "chat.postMessage",
      { channel: GPUS, text: "gpu-c idle" },
      { alertId: third.id, role: "alert-post" },
    );
    worker.send(
      "chat.update",
      { channel: GPUS, ts: alertTs(second.id), text: "gpu-b idle, 5 min" },
      { alertId: second.id, role: "alert-update" },
    );
    await worker.drain();

    const delivered = rig.emulator
      .calls()
      .filter((call) => call.status === 200 && call.error === undefined && call.args.text !== "gpu-a idle")
      .map((call) => [call.args.text, (call.atMs - START_MS) / 1000]);
    const deliveredAt = new Map(delivered as Array<[string, number]>);
    // NOTE: the other conversations go at once, within the channel's pace (one post a second);
    // the failing thread goes after its 5 minutes.
    for (const text of ["gpu-b idle", "your gpu-b is idle", "gpu-c idle", "gpu-b idle, 5 min"])
      assert.ok((deliveredAt.get(text) ?? Number.NaN) <= 3, `${text} at ${deliveredAt.get(text)} s`);
    assert.ok((deliveredAt.get("gpu-a note 1") ?? 0) >= 300);
    assert.deepEqual(
      delivered.map(([text]) => text).filter((text) => String(text).startsWith("gpu-a note")),
      ["gpu-a note 1", "gpu-a note 2"],
    );
    assert.deepEqual(
      rig.emulator
        .channel(GPUS)
        .thread(firstTs)
        .map((m) => m.text),
      ["gpu-a note 1", "gpu-a note 2"],
      "the thread keeps its order",
    );
    // Only the failing thread backed off: 1, 2, 4 … 60 s (the cap) until Slack takes it after its 5 minutes
    // (the 1 s waits between are the channel's pace).
    assert.deepEqual(
      rig.waits.filter((ms) => ms > 1_000),
      [2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000, 60_000],
    );
    assert.deepEqual(rig.errorLines(), []);
  });

  test("messages Slack refuses for good are set aside once each, logged with the reason and counted on /metrics", async () => {
    const metrics = createMetrics();
    const worker = rig.worker(30_000, rig.sleep, ({ method, reason }) =>
      metrics.slackSetAside.inc({ method, reason }),
    );
    worker.start();
    worker.send("chat.postMessage", { channel: "C0GONE", text: "to a deleted channel" });
    worker.send("chat.postMessage", { channel: QUIET, text: "nobody invited me" });
    worker.send("chat.postMessage", { channel: GPUS, text: "bad", blocks: [{ type: "nonsense" }] });
    worker.send("chat.postMessage", { channel: GPUS, text: "fine" });
    await worker.drain();

    assert.deepEqual(rig.texts(GPUS), ["fine"]);
    assert.equal(rig.emulator.attempts("chat.postMessage"), 4, "nothing retried");
    assert.deepEqual(
      rig.errorLines().map((line) => /\(([a-z_]+)[:)]/.exec(line)?.[1]),
      ["channel_not_found", "not_in_channel", "invalid_blocks"],
    );
    const exposed = (await metrics.registry.metrics())
      .split("\n")
      .filter((line) => line.startsWith("gpu_warden_slack_messages_set_aside_total"));
    assert.deepEqual(exposed.sort(), [
      'gpu_warden_slack_messages_set_aside_total{method="chat.postMessage",reason="channel_not_found"} 1',
      'gpu_warden_slack_messages_set_aside_total{method="chat.postMessage",reason="invalid_blocks"} 1',
      'gpu_warden_slack_messages_set_aside_total{method="chat.postMessage",reason="not_in_channel"} 1',
    ]);
    assert.deepEqual(rig.waits, []);
  });

  test("a message that reaches Slack late (an outage) carries its late notice; on time it does not", async () => {
    const notice = { type: "context", elements: [{ type: "mrkdwn", text: "Posted late" }] };
    const summary = (text: string) => ({
      channel: GPUS,
      text,
      blocks: [
        { type: "section", text: { type: "mrkdwn", text } },
        { type: "section", text: { type: "mrkdwn", text: "figures" } },
      ],
      $ifLate: ifLate(30 * MINUTE_MS, [notice]),
    });
    const worker = rig.worker();
    worker.start();
    worker.send("chat.postMessage", summary("on time"));
    await worker.drain();
    rig.emulator.failFor("chat.postMessage", { status: 503 }, 45 * MINUTE_MS);
    worker.send("chat.postMessage", summary("after the outage"));
    await worker.drain();

    const shown = rig.emulator
      .channel(GPUS)
      .messages.map((m) => m.blocks.map((b) => JSON.stringify(b).includes("Posted late")));
    assert.deepEqual(shown, [
      [false, false],
      [false, true, false],
    ]);
    assert.ok(rig.emulator.calls("chat.postMessage").every((call) => !("$ifLate" in call.args)));
    assert.ok(rig.clock.now() - START_MS > 45 * MINUTE_MS);
  });
});
