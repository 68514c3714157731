import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, test } from "node:test";
import type { Database } from "better-sqlite3";
import { createOutboxClient } from "../src/bot/outbox/outbox-worker.ts";
import { configSchema } from "../src/config/schema.ts";
import { type ComposedBot, composeBot } from "../src/main/compose-bot.ts";
import { restoreHistory } from "../src/main/restore-history.ts";
import {
  type SlackEmulator,
  startSlackEmulator,
} from "../src/playground/slack-emulator/start-slack-emulator.ts";
import { DAY_MS, ManualClock, MINUTE_MS } from "../src/shared/clock.ts";
import { silentLogger } from "../src/shared/logger.ts";
import { openDatabase } from "../src/store/open-database.ts";
import { restoreWindowMinutes } from "../src/usecases/alerts/alert-policy.ts";
import { observed } from "./checks/builders.ts";

const HOSTS = Array.from({ length: 1_000 }, (_, i) => `gpu-${String(i).padStart(3, "0")}`);
/** The hosts of the tests that need no fleet of the size (the rebuild's slices, the look-back). */
const SOME = HOSTS.slice(0, 300);
const T0 = Date.UTC(2026, 0, 6, 1, 0);
const config = configSchema.parse({
  slack: { channel: "C0GPU" },
  policy: { idle_for_minutes: 5 },
  alerts: { digest_over: 50 },
  hosts: Object.fromEntries(HOSTS.map((host) => [host, { owners: ["U0ALICE"] }])),
});

describe("a restart with 1,000 hosts, their open alerts and claims", { timeout: 120_000 }, () => {
  let dir: string;
  let clock: ManualClock;
  let emulator: SlackEmulator;
  const dbs: Database[] = [];

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "gpu-warden-restart-"));
    clock = new ManualClock(T0);
    emulator = await startSlackEmulator({ clock, channels: [{ id: "C0GPU", name: "gpu" }] });
  });
  afterEach(async () => {
    for (const db of dbs.splice(0)) if (db.open) db.close();
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const compose = (): ComposedBot => {
    const db = openDatabase(join(dir, "gpu-warden.db"));
    dbs.push(db);
    const slack = createOutboxClient({
      botToken: emulator.identity.botToken,
      slackApiUrl: emulator.apiUrl,
      logger: silentLogger,
    });
    return composeBot({
      config,
      clock,
      db,
      ports: { logger: silentLogger, messages: { slack, pacing: { postIntervalMs: 0 } }, sources: [], fetch },
    });
  };
  const restore = (bot: ComposedBot) =>
    restoreHistory(
      {
        sources: [],
        store: bot.stores.store,
        storePath: dir,
        alerts: bot.alerts,
        clock,
        logger: silentLogger,
      },
      restoreWindowMinutes(bot.deps.idlePolicy) * MINUTE_MS,
      60_000,
    );
  const poll = (bot: ComposedBot, hosts = HOSTS) => {
    const atMs = clock.now();
    const batch = hosts.map((host) => observed(host, atMs, [0, 0, 0, 0], []));
    bot.stores.store.writeCycle(batch, atMs);
    bot.alerts.onPoll({ atMs, observations: batch });
    clock.advance(MINUTE_MS);
  };

  test("no look-back on a recent store, no alert posted again, idle-since and claims kept", async () => {
    const first = compose();
    assert.equal(await restore(first), true, "a fresh store: the look-back runs");
    const claimed = HOSTS.slice(0, 20).map((host) =>
      first.stores.state.claims.add({
        host,
        gpuIndex: 0,
        user: "U0BOB",
        fromMs: clock.now(),
        untilMs: clock.now() + DAY_MS,
        note: "",
        project: null,
      }),
    );
    first.delivery.outbox!.start();
    for (let i = 0; i < 6; i++) poll(first);
    await first.delivery.outbox!.drain(60_000);
    await first.delivery.outbox!.stop();
    const before = HOSTS.map((host) => first.stores.state.alerts.openFor(host, "idle"));
    assert.ok(before.every((alert) => alert?.ts != null));
    const idleSince = HOSTS.map((host) => first.alerts.state(host)?.idleSinceMs);
    const posts = emulator.calls("chat.postMessage").length;
    dbs[0]!.close();

    clock.advance(2 * MINUTE_MS);
    const second = compose();
    assert.equal(await restore(second), false, "the store knows every host recently: no look-back");
    assert.deepEqual(
      HOSTS.map((host) => second.alerts.state(host)?.idleSinceMs),
      idleSince,
      "idle-since kept",
    );
    second.delivery.outbox!.start();
    poll(second);
    await second.delivery.outbox!.drain(60_000);
    await second.delivery.outbox!.stop();
    assert.equal(emulator.calls("chat.postMessage").length, posts, "no alert posted again");
    assert.deepEqual(
      HOSTS.map((host) => second.stores.state.alerts.openFor(host, "idle")?.id),
      before.map((alert) => alert?.id),
      "the same alerts stay open",
    );
    assert.deepEqual(
      claimed.map((claim) => second.stores.state.claims.activeOn(claim.host, clock.now()).map((c) => c.id)),
      claimed.map((claim) => [claim.id]),
      "every claim still held, none doubled",
    );
  });

  test("the rebuild yields to the event loop every 100 hosts, and its states are used only once done", async () => {
    const first = compose();
    await restore(first);
    for (let i = 0; i < 6; i++) poll(first, SOME);
    const idleSince = SOME.map((host) => first.alerts.state(host)?.idleSinceMs);
    dbs[0]!.close();

    const second = compose();
    const seenDuring: (number | null | undefined)[] = [];
    let rebuilding = true;
    const turn = () => {
      if (!rebuilding) return;
      seenDuring.push(second.alerts.state(SOME[0]!)?.idleSinceMs);
      setImmediate(turn);
    };
    setImmediate(turn);
    await restore(second);
    rebuilding = false;
    assert.ok(seenDuring.length >= SOME.length / 100, `the loop turned ${seenDuring.length} times`);
    assert.ok(
      seenDuring.every((seen) => seen === undefined),
      "no half-built state is used",
    );
    assert.deepEqual(
      SOME.map((host) => second.alerts.state(host)?.idleSinceMs),
      idleSince,
    );
  });

  test("a gap longer than the idle window: the look-back runs", async () => {
    const first = compose();
    await restore(first);
    for (let i = 0; i < 3; i++) poll(first, SOME);
    dbs[0]!.close();
    clock.advance(6 * 60 * MINUTE_MS);
    assert.equal(await restore(compose()), true);
  });
});
