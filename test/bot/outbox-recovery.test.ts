import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterEach, beforeEach, describe, test } from "node:test";
import { setImmediate as yieldToLoop } from "node:timers/promises";
import type { Database } from "better-sqlite3";
import { POST_INTERVAL_MS } from "../../src/bot/outbox/outbox-pacing.ts";
import {
  createOutboxClient,
  createOutboxWorker,
  type OutboxWorker,
} from "../../src/bot/outbox/outbox-worker.ts";
import {
  type SlackEmulator,
  startSlackEmulator,
} from "../../src/playground/slack-emulator/start-slack-emulator.ts";
import { ManualClock } from "../../src/shared/clock.ts";
import { createLogger } from "../../src/shared/logger.ts";
import { type BotStateStore, createBotStateStore } from "../../src/store/bot-state-store.ts";
import { openDatabase } from "../../src/store/open-database.ts";
import { alertTs } from "../../src/usecases/ports.ts";

const GPUS = "C0GPUS";
const START_MS = Date.parse("2026-03-02T09:00:00Z");

/**
 * A worker whose process "dies" once Slack has answered a `chat.postMessage`: the answer never
 * reaches the worker (its call hangs for good), as with a kill -9 between the call and the record.
 * A second worker over the same store then plays the restarted process.
 */
class Rig {
  readonly clock = new ManualClock(START_MS);
  readonly dir = mkdtempSync(join(tmpdir(), "gpu-warden-outbox-recovery-"));
  readonly warnings: string[] = [];
  emulator!: SlackEmulator;
  db!: Database;
  store!: BotStateStore;
  readonly running: OutboxWorker[] = [];

  readonly logger = createLogger(
    "debug",
    new Writable({
      write: (chunk: Buffer, _encoding, callback) => {
        for (const line of chunk.toString("utf8").split("\n")) {
          if (line === "") continue;
          const parsed = JSON.parse(line) as { level: number; msg: string; component?: string };
          if (parsed.level === 40 && parsed.component === "outbox") this.warnings.push(parsed.msg);
        }
        callback();
      },
    }),
  );

  async open(): Promise<void> {
    this.emulator = await startSlackEmulator({
      clock: this.clock,
      users: [{ id: "U0ALICE", name: "alice" }],
      channels: [{ id: GPUS, name: "gpus" }],
    });
    this.db = openDatabase(join(this.dir, "state.db"));
    this.store = createBotStateStore(this.db);
  }

  /**
   * A started worker. With `dies`, its process "dies" at its first `chat.postMessage` (or
   * `dies.method`), before the request goes out or once Slack has answered it: from then on no call
   * of it ever returns.
   */
  worker(dies?: {
    when: "before-post" | "after-post";
    onDeath: () => void;
    method?: string | undefined;
  }): OutboxWorker {
    const client = createOutboxClient({
      botToken: this.emulator.identity.botToken,
      slackApiUrl: this.emulator.apiUrl,
      logger: this.logger,
    });
    if (dies !== undefined) {
      const apiCall = client.apiCall.bind(client);
      let dead = false;
      const never = () => new Promise<never>(() => {});
      const fatal = dies.method ?? "chat.postMessage";
      // NOTE: filesUploadV2 calls these bound methods, not `apiCall`: route them through it.
      client.files.getUploadURLExternal = (args) =>
        client.apiCall("files.getUploadURLExternal", { ...args }) as never;
      client.files.completeUploadExternal = (args) =>
        client.apiCall("files.completeUploadExternal", { ...args }) as never;
      client.apiCall = async (method, args) => {
        if (dead) return never();
        if (method === fatal && dies.when === "before-post") dead = true;
        else {
          const result = await apiCall(method, args);
          if (method !== fatal) return result;
          dead = true;
        }
        dies.onDeath();
        return never();
      };
    }
    const worker = createOutboxWorker({
      postIntervalMs: POST_INTERVAL_MS,
      store: this.store,
      client,
      clock: this.clock,
      logger: this.logger,
      sleep: async (ms) => {
        this.clock.advance(ms);
        await yieldToLoop();
      },
    });
    worker.start();
    if (dies === undefined) this.running.push(worker);
    return worker;
  }

  /** Sends through a worker that dies at its first post (by default once Slack has answered it). */
  async postThenDie(
    send: (worker: OutboxWorker) => void,
    when: "before-post" | "after-post" = "after-post",
    method?: string,
  ) {
    await new Promise<void>((resolve) => send(this.worker({ when, onDeath: resolve, method })));
  }

  /** The messages in `#gpus` (or the thread `threadTs`) that share files: their files' names. */
  shares(threadTs?: string): string[][] {
    const view = this.emulator.channel(GPUS);
    const files = this.emulator.files();
    return (threadTs === undefined ? view.messages : view.thread(threadTs))
      .filter((m) => m.fileIds.length > 0)
      .map((m) => m.fileIds.map((id) => files.find((file) => file.id === id)?.filename ?? id));
  }

  texts(threadTs?: string): string[] {
    const view = this.emulator.channel(GPUS);
    return (threadTs === undefined ? view.messages : view.thread(threadTs)).map((m) => m.text);
  }

  async close(): Promise<void> {
    for (const worker of this.running) await worker.stop();
    await this.emulator.close();
    this.db.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

describe("outbox: a post whose answer was lost is found, not posted twice", { timeout: 30_000 }, () => {
  let rig: Rig;
  beforeEach(async () => {
    rig = new Rig();
    await rig.open();
  });
  afterEach(() => rig.close());

  test("a thread reply is found with conversations.replies; the next reply follows it", async () => {
    const { alert } = rig.store.alerts.open({
      host: "gpu-a",
      kind: "idle",
      openedAtMs: START_MS,
      idleSinceMs: START_MS,
      channel: GPUS,
    });
    const first = rig.worker();
    first.send(
      "chat.postMessage",
      { channel: GPUS, text: "gpu-a idle" },
      { alertId: alert.id, role: "alert-post" },
    );
    await first.drain();
    await first.stop();
    const parentTs = rig.store.alerts.byId(alert.id)?.ts ?? assert.fail("the alert was posted");

    await rig.postThenDie((worker) =>
      worker.send("chat.postMessage", { channel: GPUS, thread_ts: alertTs(alert.id), text: "note 1" }),
    );
    const restarted = rig.worker();
    restarted.send("chat.postMessage", { channel: GPUS, thread_ts: alertTs(alert.id), text: "note 2" });
    await restarted.drain();

    assert.deepEqual(rig.texts(parentTs), ["note 1", "note 2"]);
    assert.equal(rig.emulator.calls("conversations.replies").length, 1);
    assert.equal(rig.store.outbox.pendingCount(), 0);
  });

  test("a post to a channel name (#gpus) is looked for under the ID Slack answered with before", async () => {
    const first = rig.worker();
    first.send("chat.postMessage", { channel: "#gpus", text: "hello" });
    await first.drain();
    await first.stop();

    await rig.postThenDie((worker) => worker.send("chat.postMessage", { channel: "#gpus", text: "once" }));
    await rig.worker().drain();

    assert.deepEqual(rig.texts(), ["hello", "once"]);
    assert.deepEqual(
      rig.emulator.calls("conversations.history").map((call) => call.args.channel),
      [GPUS],
    );
    assert.deepEqual(rig.warnings, []);
  });

  test("a call that never reached Slack is posted on restart, once", async () => {
    await rig.postThenDie(
      (worker) => worker.send("chat.postMessage", { channel: GPUS, text: "lost on the way" }),
      "before-post",
    );
    await rig.worker().drain();

    assert.deepEqual(rig.texts(), ["lost on the way"]);
    assert.equal(rig.emulator.calls("conversations.history").length, 1);
    assert.equal(rig.emulator.calls("chat.postMessage").length, 1);
  });

  test("a DM to a user ID is looked for in the app's DM with them (conversations.open): posted once", async () => {
    await rig.postThenDie((worker) =>
      worker.send("chat.postMessage", { channel: "U0ALICE", text: "your host" }),
    );
    await rig.worker().drain();

    const dm = rig.emulator.state.dmChannel("U0ALICE").id;
    assert.deepEqual(
      rig.emulator.channel(dm).messages.map((m) => m.text),
      ["your host"],
    );
    assert.deepEqual(
      rig.emulator.calls("conversations.history").map((call) => call.args.channel),
      [dm],
    );
    assert.deepEqual(rig.warnings, []);
  });
});

const COMPLETE = "files.completeUploadExternal";
const summaryUpload = (extra: Record<string, unknown> = {}) => ({
  channel_id: GPUS,
  blocks: [{ type: "section", text: { type: "mrkdwn", text: "GPU summary" } }],
  file_uploads: [
    { content: "a\n", filename: "gpu-summary-2026-03-16.png", title: "chart" },
    { content: "b\n", filename: "gpu-summary-2026-03-16-hosts.csv", title: "hosts" },
  ],
  ...extra,
});

describe("outbox: an upload whose answer was lost is found by its files, not shared twice", {
  timeout: 30_000,
}, () => {
  let rig: Rig;
  beforeEach(async () => {
    rig = new Rig();
    await rig.open();
  });
  afterEach(() => rig.close());

  test("shared in a thread, answer lost → found with conversations.replies; the next reply follows it", async () => {
    const first = rig.worker();
    first.send("chat.postMessage", { channel: GPUS, text: "parent" });
    await first.drain();
    await first.stop();
    const parentTs = rig.emulator.channel(GPUS).latest?.ts ?? assert.fail("the parent was posted");

    await rig.postThenDie(
      (worker) => worker.send("files.uploadV2", summaryUpload({ thread_ts: parentTs })),
      "after-post",
      COMPLETE,
    );
    const restarted = rig.worker();
    restarted.send("chat.postMessage", { channel: GPUS, thread_ts: parentTs, text: "after the summary" });
    await restarted.drain();

    assert.deepEqual(rig.shares(parentTs), [
      ["gpu-summary-2026-03-16.png", "gpu-summary-2026-03-16-hosts.csv"],
    ]);
    assert.equal(rig.texts(parentTs).at(-1), "after the summary");
    assert.equal(rig.emulator.calls(COMPLETE).length, 1, "not uploaded again");
    assert.equal(rig.emulator.calls("conversations.replies").length, 1);
    assert.deepEqual(rig.warnings, []);
  });

  test("an earlier summary with other file names is not taken for it; killed before the share → shared once", async () => {
    const first = rig.worker();
    first.send("files.uploadV2", {
      channel_id: GPUS,
      file_uploads: [{ content: "old\n", filename: "gpu-summary-2026-03-02.png" }],
    });
    await first.drain();
    await first.stop();

    await rig.postThenDie(
      (worker) => worker.send("files.uploadV2", summaryUpload()),
      "before-post",
      COMPLETE,
    );
    await rig.worker().drain();

    assert.deepEqual(rig.shares(), [
      ["gpu-summary-2026-03-02.png"],
      ["gpu-summary-2026-03-16.png", "gpu-summary-2026-03-16-hosts.csv"],
    ]);
    assert.equal(rig.emulator.calls("conversations.history").length, 1, "looked for once");
    assert.deepEqual(rig.warnings, []);
  });

  test("an upload in flight whose files have no names cannot be looked for: shared again, with a warning", async () => {
    const id = rig.store.outbox.enqueue(
      { method: "files.uploadV2", args: { channel_id: GPUS, content: "x\n" } },
      START_MS,
    );
    rig.store.outbox.markInFlight(id, START_MS);
    await rig.worker().drain();

    assert.equal(rig.shares().length, 1);
    assert.deepEqual(rig.warnings, [
      "a post may have reached Slack before a restart; it cannot be looked for, so it may appear twice",
    ]);
    assert.equal(rig.emulator.calls("conversations.history").length, 0);
  });
});
