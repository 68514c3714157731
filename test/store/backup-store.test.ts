import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, describe, it } from "node:test";
import { backupStore, restoreStore } from "../../src/store/backup-store.ts";
import { createMetricsStore } from "../../src/store/metrics-store.ts";
import { migrations } from "../../src/store/migrations.ts";
import { openDatabase } from "../../src/store/open-database.ts";
import { StoreProblemError } from "../../src/store/store-problem.ts";

const dir = mkdtempSync(join(tmpdir(), "gw-backup-store-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const fixture = resolve("test/fixtures/stores/v5.db");

describe("restoreStore", () => {
  it("restores onto a machine with no store yet, and the result backs up again", async () => {
    const backup = join(dir, "from-elsewhere.db");
    copyFileSync(fixture, backup);
    const store = join(dir, "gpu-warden.db");
    const done = await restoreStore(store, backup, 0);
    assert.deepEqual(done, {
      store: resolve(store),
      file: backup,
      fromVersion: 5,
      schemaVersion: migrations.length,
      keptAs: null,
    });
    const db = openDatabase(store);
    assert.equal(createMetricsStore(db).hosts().length, 3);
    db.close();
    const again = await backupStore(store, join(dir, "again.db"));
    assert.equal(again.schemaVersion, migrations.length);
    assert.equal(existsSync(`${again.file}.partial-${process.pid}`), false);
  });

  it("restores from a backup in a read-only folder (a read-only mount of the backups)", async (t) => {
    const backups = join(dir, "backups");
    mkdirSync(backups);
    copyFileSync(fixture, join(backups, "monday.db"));
    const asRoot = process.getuid?.() === 0;
    if (asRoot) {
      const bound = spawnSync("mount", ["--bind", backups, backups]).status === 0;
      if (!bound || spawnSync("mount", ["-o", "remount,bind,ro", backups]).status !== 0) {
        t.skip("root needs a read-only bind mount to be kept out of a folder");
        return;
      }
    } else {
      chmodSync(backups, 0o555);
    }
    try {
      const done = await restoreStore(join(dir, "restored.db"), join(backups, "monday.db"), 0);
      assert.equal(done.fromVersion, 5);
      assert.deepEqual(readdirSync(backups), ["monday.db"]);
    } finally {
      if (asRoot) spawnSync("umount", ["-l", backups]);
    }
  });

  it("refuses a backup from a newer gpu-warden, naming both versions", async () => {
    const newer = join(dir, "newer.db");
    copyFileSync(fixture, newer);
    const db = openDatabase(newer);
    db.pragma(`user_version = ${migrations.length + 1}`);
    db.close();
    await assert.rejects(
      restoreStore(join(dir, "store.db"), newer, 0),
      (error: unknown) =>
        error instanceof StoreProblemError &&
        error.reason === "too-new" &&
        error.role === "backup" &&
        error.versions?.found === migrations.length + 1,
    );
    assert.equal(existsSync(join(dir, "store.db")), false);
  });
});
