import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import BetterSqlite3 from "better-sqlite3";
import { openDatabase } from "../../src/store/open-database.ts";
import { runCliHere } from "../helpers/run-cli-here.ts";

const bin = resolve("bin/gpu-warden.js");
const dir = mkdtempSync(join(tmpdir(), "gw-store-problems-"));
const asRoot = process.getuid?.() === 0;
const mounts: string[] = [];

/** A valid, current store to copy into place. */
const validStore = join(dir, "valid.db");
before(() => {
  const db = openDatabase(validStore);
  db.pragma("journal_mode = DELETE");
  db.close();
});

after(() => {
  for (const mount of mounts) spawnSync("umount", [mount]);
  rmSync(dir, { recursive: true, force: true });
});

/** A size-limited tmpfs (root only): a real full or read-only disk. Null when it cannot be mounted. */
function tmpfs(name: string, size: string): string | null {
  const path = join(dir, name);
  mkdirSync(path);
  const result = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", path]);
  if (result.status !== 0) return null;
  mounts.push(path);
  return path;
}
const canMount = (() => {
  if (!asRoot) return false;
  const probe = tmpfs("probe", "64k");
  return probe !== null;
})();

function startConfig(store: string): string {
  const config = join(dir, `config-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(
    config,
    `http: { port: 0 }\nstore: { path: ${JSON.stringify(store)} }\npoll: { interval_seconds: 3600 }\n`,
  );
  return config;
}

const startEnv = (env: Record<string, string>) => ({
  PATH: "/usr/bin:/bin",
  HOME: dir,
  LOG_LEVEL: "silent",
  TZ: "UTC",
  ...env,
});

/** `gpu-warden start` through the real bin: its exit code, and no stack trace from the process. */
function start(store: string) {
  const args = ["start", "--no-playground", "--config", startConfig(store)];
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd: dir,
    encoding: "utf8",
    env: startEnv({}),
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * The same start in this process (`runCli`), for the store and config problems that need no process
 * boundary: each start of the bin costs a second of CPU.
 */
function startHere(store: string, env: Record<string, string> = {}) {
  const args = ["start", "--no-playground", "--config", startConfig(store)];
  return runCliHere(args, { cwd: dir, env: startEnv(env) });
}

/** Exactly one line on stderr, and no stack trace. */
function oneLine(stderr: string): string {
  const lines = stderr.split("\n").filter(Boolean);
  assert.equal(lines.length, 1, stderr);
  return lines[0]!;
}

describe("gpu-warden start with a store it cannot use", () => {
  it("a file that is not SQLite: one line naming it, exit 1, the file untouched", () => {
    const folder = mkdtempSync(join(dir, "junk-"));
    const store = join(folder, "notes.db");
    writeFileSync(store, "meeting notes, not a database\n");
    const result = start(store);
    assert.equal(result.code, 1);
    assert.match(
      oneLine(result.stderr),
      new RegExp(`^store ${store} is not an SQLite database \\(left untouched\\)`),
    );
    assert.equal(readFileSync(store, "utf8"), "meeting notes, not a database\n");
    assert.deepEqual(readdirSync(folder), ["notes.db"]);
  });

  it("report says the same about a file that is not SQLite", async () => {
    const folder = mkdtempSync(join(dir, "junk-report-"));
    const store = join(folder, "notes.db");
    writeFileSync(store, "meeting notes, not a database\n");
    const config = join(folder, "report.yaml");
    writeFileSync(config, `store: { path: ${JSON.stringify(store)} }\n`);
    const result = await runCliHere(["report", "--since", "2026-11-01", "--config", config], {
      cwd: dir,
      env: { PATH: "/usr/bin:/bin", HOME: dir, LOG_LEVEL: "silent" },
    });
    assert.equal(result.code, 1);
    assert.match(
      oneLine(result.stderr),
      new RegExp(`^store ${store} is not an SQLite database \\(left untouched\\)`),
    );
    assert.equal(readFileSync(store, "utf8"), "meeting notes, not a database\n");
  });

  it("a folder that does not exist: a config mistake, exit 2, nothing created", async () => {
    const store = join(dir, "no-such-folder", "gpu-warden.db");
    const result = await startHere(store);
    assert.equal(result.code, 2);
    assert.equal(
      oneLine(result.stderr),
      `store ${store}: the folder ${join(dir, "no-such-folder")} does not exist: create it, or set store.path to a file in an existing folder`,
    );
    assert.equal(existsSync(join(dir, "no-such-folder")), false);
  });

  it("a store from a newer gpu-warden: exit 1, the file untouched", async () => {
    const store = join(mkdtempSync(join(dir, "newer-")), "gpu-warden.db");
    copyFileSync(validStore, store);
    const db = new BetterSqlite3(store);
    db.pragma("user_version = 99");
    db.close();
    const before = readFileSync(store);
    const result = await startHere(store);
    assert.equal(result.code, 1);
    assert.match(
      oneLine(result.stderr),
      new RegExp(`^store ${store} has schema version 99, but this gpu-warden knows`),
    );
    assert.deepEqual(readFileSync(store), before);
  });

  it("a read-only folder: exit 1, one line saying what to do", {
    skip: asRoot && !canMount ? "root cannot be kept out of a folder without a read-only mount" : false,
  }, async () => {
    let folder: string;
    if (asRoot) {
      folder = tmpfs("read-only", "1m")!;
      copyFileSync(validStore, join(folder, "gpu-warden.db"));
      execFileSync("mount", ["-o", "remount,ro", folder]);
    } else {
      folder = mkdtempSync(join(dir, "read-only-"));
      copyFileSync(validStore, join(folder, "gpu-warden.db"));
      chmodSync(folder, 0o555);
    }
    const store = join(folder, "gpu-warden.db");
    const before = readFileSync(store);
    const result = await startHere(store);
    assert.equal(result.code, 1);
    assert.equal(
      oneLine(result.stderr),
      `store ${store}: cannot write in ${folder} (read-only): make it writable for this user, or set store.path to a writable folder`,
    );
    assert.deepEqual(readFileSync(store), before);
    assert.deepEqual(readdirSync(folder), ["gpu-warden.db"]);
  });

  it("a full disk: exit 1, one line, the store untouched", {
    skip: canMount ? false : "needs root to mount a small tmpfs (a real full disk)",
  }, async () => {
    const folder = tmpfs("full", "1m")!;
    const store = join(folder, "gpu-warden.db");
    copyFileSync(validStore, store);
    fillUp(join(folder, "filler"));
    const before = readFileSync(store);
    const result = await startHere(store);
    assert.equal(result.code, 1);
    assert.equal(
      oneLine(result.stderr),
      `store ${store}: the disk is full: free some space there (or set store.path on another disk) and start again`,
    );
    assert.deepEqual(readFileSync(store), before);
  });
});

describe("gpu-warden start on a disk with room for the store but not for its first history", () => {
  it("the simulated back-fill at start fills the disk: exit 1, one line, no stack trace", {
    skip: canMount ? false : "needs root to mount a small tmpfs (a real full disk)",
  }, () => {
    const folder = tmpfs("fills-at-start", "1m")!;
    const store = join(folder, "gpu-warden.db");
    const config = join(dir, "fills-at-start.yaml");
    writeFileSync(
      config,
      [
        "http: { port: 0 }",
        `store: { path: ${JSON.stringify(store)} }`,
        "poll: { interval_seconds: 60 }",
        "sources: [{ kind: simulated, hosts: 40, gpus_per_host: 8, seed: 7 }]",
      ].join("\n"),
    );
    const result = spawnSync(process.execPath, [bin, "start", "--no-playground", "--config", config], {
      cwd: dir,
      encoding: "utf8",
      env: { PATH: "/usr/bin:/bin", HOME: dir, LOG_LEVEL: "silent", TZ: "UTC" },
      timeout: 60_000,
    });
    assert.equal(result.status, 1, result.stderr);
    assert.equal(
      oneLine(result.stderr),
      `store ${store}: the disk is full: free some space there (or set store.path on another disk) and start again`,
    );
  });
});

describe("gpu-warden start with Slack tokens and nothing to watch", () => {
  const tokens = { SLACK_BOT_TOKEN: "xoxb-1", SLACK_SIGNING_SECRET: "secret" };

  it("refuses, naming the sources: key, rather than post a simulated fleet to the team channel", async () => {
    const store = join(dir, "nothing.db");
    const result = await startHere(store, tokens);
    assert.equal(result.code, 2);
    assert.match(
      oneLine(result.stderr),
      /^nothing to watch: no sources: in .*config-\w+\.yaml and no nvidia-smi on the PATH/,
    );
    assert.match(
      result.stderr,
      /add a sources: list \(kind: local, ssh or prometheus, or kind: simulated to try it out\)$/m,
    );
    assert.equal(existsSync(store), false);
  });

  it("check-config says the same before anything is deployed", async () => {
    const config = join(dir, "tokens-no-sources.yaml");
    writeFileSync(config, "slack: { channel: '#ml' }\n");
    const env = { PATH: "/usr/bin:/bin", HOME: dir, LOG_LEVEL: "silent", ...tokens };
    const result = await runCliHere(["check-config", "--config", config], { cwd: dir, env });
    assert.equal(result.code, 2);
    assert.equal(result.stdout, "");
    assert.match(oneLine(result.stderr), /^nothing to watch: no sources: in .*tokens-no-sources\.yaml/);
    const withSources = join(dir, "tokens-simulated.yaml");
    writeFileSync(withSources, "sources: [{ kind: simulated }]\n");
    const ok = await runCliHere(["check-config", "--config", withSources], { cwd: dir, env });
    assert.equal(ok.code, 0, ok.stderr);
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
