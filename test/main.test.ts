import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { after, describe, it } from "node:test";
import { parseConfig, readEnv } from "../src/config/load-config.ts";
import type { SourceConfig } from "../src/config/schema.ts";
import { listenEarly } from "../src/main/listen-early.ts";
import { startBot } from "../src/main.ts";
import { systemClock } from "../src/shared/clock.ts";
import { silentLogger } from "../src/shared/logger.ts";
import { createSimulatedSource } from "../src/sources/simulated-source.ts";

type SimulatedSourceConfig = Extract<SourceConfig, { kind: "simulated" }>;

import { createMetricsStore } from "../src/store/metrics-store.ts";
import { openDatabase } from "../src/store/open-database.ts";
import { startConsoleBot } from "./helpers/console-bot.ts";

const dir = mkdtempSync(join(tmpdir(), "gw-main-"));
after(() => rmSync(dir, { recursive: true, force: true }));

describe("startBot", () => {
  it("polls into the store and serves /healthz and /metrics", async () => {
    const dbPath = join(dir, "bot.db");
    const config = parseConfig({
      http: { port: 0 },
      store: { path: dbPath },
      poll: { interval_seconds: 3600 },
      sources: [{ kind: "simulated", hosts: 3, gpus_per_host: 4, seed: 1 }],
    });
    const bot = await startConsoleBot(config);
    try {
      await bot.pollNow();
      const health = (await (await fetch(`${bot.httpUrl}/healthz`)).json()) as {
        ok: boolean;
        lastPollAtMs: number;
      };
      assert.equal(health.ok, true);
      assert.equal(typeof health.lastPollAtMs, "number");
      const metrics = await (await fetch(`${bot.httpUrl}/metrics`)).text();
      assert.match(metrics, /^gpu_warden_poll_duration_seconds_count\{result="ok"\} [12]$/m);
      assert.match(metrics, /^gpu_warden_samples_written_total (12|24)$/m);
      assert.match(metrics, /^gpu_warden_hosts\{state="ok"\} \d$/m);
      assert.match(metrics, /^gpu_warden_outbox_pending 0$/m);
      assert.equal((await fetch(`${bot.httpUrl}/nope`)).status, 404);
    } finally {
      await bot.stop();
    }
    const db = openDatabase(dbPath);
    try {
      const store = createMetricsStore(db);
      assert.deepEqual(
        store.hosts().map((host) => [host.name, host.source, host.gpus.length]),
        [
          ["gpu-a", "simulated", 4],
          ["gpu-b", "simulated", 4],
          ["gpu-c", "simulated", 4],
        ],
      );
      assert.equal(store.latestObservations().length, 3);
    } finally {
      db.close();
    }
  });
});

describe("a start that listens early", () => {
  it("answers /healthz as starting before the bot is composed, then the bot's own on the same port", async () => {
    const config = parseConfig({
      http: { port: 0 },
      store: { path: join(dir, "early.db") },
      poll: { interval_seconds: 3600 },
      sources: [{ kind: "simulated", hosts: 3, gpus_per_host: 4, seed: 1 }],
    });
    const loaded = { config, env: readEnv({}), file: null };
    const early = await listenEarly(loaded);
    assert.ok(early, "the console mode listens before loading the bot");
    const health = async () => {
      const response = await fetch(`${early.url}/healthz`);
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    assert.deepEqual(await health(), {
      status: 200,
      body: { ok: true, lastPollAtMs: null, starting: true },
    });
    const bot = await startBot({
      loaded,
      logger: silentLogger,
      pathEnv: "",
      hostName: "test",
      stdout: new PassThrough(),
      http: early,
    });
    try {
      assert.equal(bot.httpUrl, early.url);
      await bot.pollNow();
      const after = await health();
      assert.equal(after.status, 200);
      assert.equal(typeof after.body.lastPollAtMs, "number");
      assert.equal(after.body.starting, undefined, "no longer starting once a poll is written");
      const metrics = await (await fetch(`${early.url}/metrics`)).text();
      assert.match(metrics, /^gpu_warden_hosts\{state="ok"\} 3$/m);
    } finally {
      await bot.stop();
    }
    await assert.rejects(fetch(`${early.url}/healthz`), "the bot's stop closes it");
  });
});

describe("startBot without Slack tokens", () => {
  it("prints the fleet and its idle hosts to the console, the forgotten hosts among them", async () => {
    const config = parseConfig({
      http: { port: 0 },
      store: { path: join(dir, "console.db") },
      poll: { interval_seconds: 3600 },
      sources: [{ kind: "simulated", hosts: 12, seed: 42 }],
    });
    const out = new PassThrough();
    let printed = "";
    out.on("data", (chunk: Buffer) => {
      printed += chunk.toString();
    });
    const bot = await startConsoleBot(config, { stdout: out });
    try {
      await bot.pollNow();
    } finally {
      await bot.stop();
    }
    assert.equal(bot.mode, "console");
    assert.match(printed, /^gpu-warden: no Slack tokens, so alerts are printed here/);
    const forgotten = createSimulatedSource(config.sources[0] as SimulatedSourceConfig, {
      clock: systemClock,
      timezone: "UTC",
    }).fleet.hosts.filter((host) => host.role === "forgotten");
    assert.ok(forgotten.length >= 1);
    for (const host of forgotten) {
      assert.match(printed, new RegExp(`^\\[#gpu\\] .*${host.name} is idle since`, "m"));
    }
    assert.match(printed, /^\d\d:\d\d · 12 hosts: .*\d+ idle.* · idle: gpu-/m);
  });
});
