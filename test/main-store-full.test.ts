import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { parseConfig } from "../src/config/load-config.ts";
import { ManualClock, MINUTE_MS } from "../src/shared/clock.ts";
import { startConsoleBot } from "./helpers/console-bot.ts";

const dir = mkdtempSync(join(tmpdir(), "gw-full-live-"));
const disk = join(dir, "disk");
mkdirSync(disk);
const mounted =
  process.getuid?.() === 0 &&
  spawnSync("mount", ["-t", "tmpfs", "-o", "size=64m", "tmpfs", disk]).status === 0;
after(() => {
  if (mounted) spawnSync("umount", ["-l", disk]);
  rmSync(dir, { recursive: true, force: true });
});

describe("a disk that fills up while the bot runs", () => {
  it("turns /healthz to 503 naming the store and the problem, and back to 200 once polls are written again", {
    skip: mounted ? false : "needs root to mount a small tmpfs (a real full disk)",
  }, async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 2, 9, 0));
    const store = join(disk, "gpu-warden.db");
    const bot = await startConsoleBot(
      parseConfig({
        http: { port: 0 },
        store: { path: store },
        poll: { interval_seconds: 60 },
        sources: [{ kind: "simulated", hosts: 12, gpus_per_host: 8, seed: 42 }],
      }),
      { clock },
    );
    const health = async () => {
      const response = await fetch(`${bot.httpUrl}/healthz`);
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const filler = join(disk, "filler");
    try {
      clock.advance(MINUTE_MS);
      await bot.pollNow();
      assert.equal((await health()).status, 200);
      fillUp(filler);
      // NOTE: SQLite first reuses the room its WAL file already has (a failed checkpoint is not an
      // error), so a full disk shows only once the WAL must grow: poll until it does.
      let polls = 0;
      while (polls < 2000 && (await health()).status === 200) {
        for (let i = 0; i < 25; i++, polls++) {
          clock.advance(MINUTE_MS);
          await bot.pollNow();
        }
      }
      const full = await health();
      assert.equal(full.status, 503);
      assert.deepEqual(full.body.store, { path: store, problem: "disk-full" });
      rmSync(filler);
      clock.advance(MINUTE_MS);
      await bot.pollNow();
      const again = await health();
      assert.equal(again.status, 200);
      assert.equal(again.body.lastPollAtMs, clock.now());
    } finally {
      rmSync(filler, { force: true });
      await bot.stop();
    }
  });
});

function fillUp(path: string): void {
  const fd = openSync(path, "w");
  const chunk = Buffer.alloc(4096, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
  } finally {
    closeSync(fd);
  }
}
