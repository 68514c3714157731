import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import BetterSqlite3 from "better-sqlite3";
import { parseConfig } from "../../src/config/load-config.ts";
import { ManualClock, MINUTE_MS } from "../../src/shared/clock.ts";
import { migrations } from "../../src/store/migrations.ts";
import { startConsoleBot } from "../helpers/console-bot.ts";
import { runCliHere } from "../helpers/run-cli-here.ts";

const bin = resolve("bin/gpu-warden.js");
const dir = mkdtempSync(join(tmpdir(), "gw-backup-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const env = { PATH: "/usr/bin:/bin", HOME: dir, LOG_LEVEL: "silent", TZ: "UTC" };

function gpuWarden(args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd: dir,
    encoding: "utf8",
    env,
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The same in this process (`runCli`), for what does not need the process boundary. */
function inProcess(args: string[]) {
  return runCliHere(args, { cwd: dir, env });
}

/** The same, without blocking this process (the bot under test runs in it). */
function gpuWardenAsync(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [bin, ...args], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  return new Promise((done) => child.once("close", (code) => done({ code, stdout, stderr })));
}

function configFile(name: string, store: string): string {
  const file = join(dir, name);
  writeFileSync(file, `store: { path: ${JSON.stringify(store)} }\npoll: { interval_seconds: 60 }\n`);
  return file;
}

/** Every row of every table, sorted: two stores with equal dumps hold the same ledger and history. */
function dump(path: string): Record<string, string[]> {
  const db = new BetterSqlite3(path, { readonly: true });
  try {
    const tables = db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .pluck()
      .all() as string[];
    return Object.fromEntries(
      tables.map((table) => [
        table,
        (db.prepare(`SELECT * FROM "${table}"`).all() as unknown[]).map((row) => JSON.stringify(row)).sort(),
      ]),
    );
  } finally {
    db.close();
  }
}

describe("gpu-warden backup and restore", () => {
  const store = join(dir, "gpu-warden.db");
  const backup = join(dir, "backups", "gpu-warden-backup.db");
  const config = configFile("gpu-warden.yaml", store);

  it("backs up while the bot polls, refuses to restore while it runs, then restores an identical ledger", async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 2, 9, 0));
    const bot = await startConsoleBot(
      parseConfig({
        http: { port: 0 },
        store: { path: store },
        poll: { interval_seconds: 60 },
        sources: [{ kind: "simulated", hosts: 12, gpus_per_host: 8, seed: 42 }],
      }),
      { clock },
    );
    let polls = 0;
    let backedUp: Awaited<ReturnType<typeof gpuWardenAsync>>;
    try {
      const pollUntil = async (done: () => boolean) => {
        while (!done()) {
          clock.advance(MINUTE_MS);
          await bot.pollNow();
          polls += 1;
          // NOTE: a simulated poll never waits on I/O: pace the polls (the bot's minutes, compressed),
          // so the child's pipes and exit get through and waiting on the backup is not a busy loop.
          await sleep(25);
        }
      };
      await pollUntil(() => polls >= 3);
      // The backup folder does not exist yet: the first run must refuse. Make it, then back up live.
      const refused = await inProcess(["backup", backup, "--config", config]);
      assert.equal(refused.code, 2, refused.stderr);
      assert.equal(
        refused.stderr,
        `backup ${backup}: ${join(dir, "backups")} is not an existing folder: create it or choose another path\n`,
      );
      let finished = false;
      mkdirSync(join(dir, "backups"));
      const live = gpuWardenAsync(["backup", backup, "--config", config]).then((result) => {
        finished = true;
        return result;
      });
      const before = polls;
      await pollUntil(() => finished);
      backedUp = await live;
      assert.ok(polls > before, "the bot polled while the backup ran");

      const whileRunning = gpuWarden(["restore", backup, "--config", config]);
      assert.equal(whileRunning.code, 1);
      assert.match(
        whileRunning.stderr,
        new RegExp(
          `^store ${store} is in use by another gpu-warden \\(PID ${process.pid} on .+\\): end that one first`,
        ),
      );
      await pollUntil(() => polls >= before + 20);
    } finally {
      await bot.stop();
    }

    assert.equal(backedUp.code, 0, backedUp.stderr);
    assert.match(
      backedUp.stdout,
      new RegExp(`^backed up ${store} to ${backup} \\(\\d+ KiB, schema version ${migrations.length}\\)\\n$`),
    );
    assert.deepEqual(
      readdirSync(join(dir, "backups")),
      ["gpu-warden-backup.db"],
      "one file, no -wal or partial",
    );
    const saved = dump(backup);
    assert.ok((saved.host?.length ?? 0) === 12, "the backup holds the fleet");
    assert.notDeepEqual(dump(store), saved, "the store moved on after the backup");

    const restored = gpuWarden(["restore", backup, "--config", config]);
    assert.equal(restored.code, 0, restored.stderr);
    assert.equal(
      restored.stdout,
      `restored ${store} from ${backup} (schema version ${migrations.length}); the store it replaced is kept as ${store}.before-restore\n`,
    );
    assert.deepEqual(dump(store), saved);
    assert.deepEqual(dump(backup), saved, "restore leaves the backup as it was");

    const copy = join(dir, "copy-of-backup.db");
    copyFileSync(backup, copy);
    const since = "2026-11-01";
    const fromStore = await inProcess([
      "report",
      "--since",
      since,
      "--until",
      "2026-11-02",
      "--csv",
      "--config",
      config,
    ]);
    const fromCopy = await inProcess([
      "report",
      "--since",
      since,
      "--until",
      "2026-11-02",
      "--csv",
      "--config",
      configFile("copy.yaml", copy),
    ]);
    assert.equal(fromStore.code, 0, fromStore.stderr);
    assert.equal(
      fromStore.stdout.split("\r\n").filter((line) => line.startsWith("2026-11-02,gpu-")).length,
      12,
    );
    assert.equal(fromStore.stdout, fromCopy.stdout, "the same ledger");
  });

  it("explains what is wrong in one line", async () => {
    const noFile = await inProcess(["backup", "--config", config]);
    assert.equal(noFile.code, 2);
    assert.match(noFile.stderr, /^backup needs a FILE\n/);
    const missing = await inProcess(["restore", join(dir, "nope.db"), "--config", config]);
    assert.equal(missing.code, 2);
    assert.equal(
      missing.stderr,
      `no backup at ${join(dir, "nope.db")}: give the path of a file written by 'gpu-warden backup'\n`,
    );
    const junk = join(dir, "junk.db");
    writeFileSync(junk, "not a backup\n");
    const notStore = await inProcess(["restore", junk, "--config", config]);
    assert.equal(notStore.code, 1);
    assert.equal(
      notStore.stderr,
      `${junk} is not a gpu-warden store: give a file written by 'gpu-warden backup'\n`,
    );
    const self = await inProcess(["backup", store, "--config", config]);
    assert.equal(self.code, 2);
    assert.match(self.stderr, /is the store itself/);
    const noStore = await inProcess([
      "backup",
      join(dir, "b.db"),
      "--config",
      configFile("none.yaml", join(dir, "none.db")),
    ]);
    assert.equal(noStore.code, 1);
    assert.match(noStore.stderr, /^no store at .*none\.db: it is written by 'gpu-warden start'/);
    assert.equal(existsSync(join(dir, "b.db")), false);
  });
});
