import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { parseConfig } from "../../src/config/load-config.ts";
import { startConsoleBot } from "../helpers/console-bot.ts";

const dir = mkdtempSync(join(tmpdir(), "gw-metrics-"));
after(() => rmSync(dir, { recursive: true, force: true }));

describe("GET /metrics", () => {
  it("passes `promtool check metrics` after a poll cycle", async () => {
    const config = parseConfig({
      http: { port: 0 },
      store: { path: join(dir, "bot.db") },
      poll: { interval_seconds: 3600 },
      sources: [{ kind: "simulated", hosts: 3, gpus_per_host: 2, seed: 1 }],
    });
    const bot = await startConsoleBot(config);
    let body: string;
    try {
      await bot.pollNow();
      body = await (await fetch(`${bot.httpUrl}/metrics`)).text();
    } finally {
      await bot.stop();
    }
    assert.match(body, /^gpu_warden_poll_duration_seconds_count\{result="ok"\} \d+$/m);
    assert.match(body, /^# TYPE gpu_warden_process_cpu_seconds_total counter$/m);
    const lint = spawnSync("promtool", ["check", "metrics"], { input: body, encoding: "utf8" });
    assert.equal(lint.error, undefined, "promtool runs (Debian's prometheus package)");
    assert.equal(`${lint.stdout}${lint.stderr}`, "");
    assert.equal(lint.status, 0);
  });
});
