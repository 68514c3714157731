import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import BetterSqlite3 from "better-sqlite3";
import {
  DatabaseTooNewError,
  type Migration,
  migrate,
  migrations,
  userVersion,
} from "../../src/store/migrations.ts";
import { openDatabase } from "../../src/store/open-database.ts";

const dir = mkdtempSync(join(tmpdir(), "gw-store-open-"));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const freshFile = () => join(dir, `db-${++files}.db`);

function tableNames(file: string): string[] {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    return db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
      .pluck()
      .all() as string[];
  } finally {
    db.close();
  }
}

describe("openDatabase", () => {
  it("creates a fresh file in WAL mode with foreign keys on and every migration applied", () => {
    const file = freshFile();
    const db = openDatabase(file);
    assert.equal(db.pragma("journal_mode", { simple: true }), "wal");
    assert.equal(db.pragma("foreign_keys", { simple: true }), 1);
    assert.equal(db.pragma("synchronous", { simple: true }), 1);
    assert.equal(db.pragma("busy_timeout", { simple: true }), 5000);
    assert.equal(userVersion(db), migrations.length);
    db.close();
    const tables = tableNames(file);
    for (const table of [
      "cycle",
      "evidence",
      "gpu",
      "gpu_hour",
      "gpu_sample",
      "host",
      "host_sample",
      "meta",
    ]) {
      assert.ok(tables.includes(table), `table ${table} missing from ${tables.join(", ")}`);
    }
  });

  it("re-opens a migrated file without migrating again and keeps its rows", () => {
    const file = freshFile();
    const first = openDatabase(file);
    first.prepare("INSERT INTO meta (key, value) VALUES ('k', 'v')").run();
    first.close();

    const again = openDatabase(file);
    assert.deepEqual(migrate(again), []);
    assert.equal(userVersion(again), migrations.length);
    assert.equal(again.prepare("SELECT value FROM meta WHERE key = 'k'").pluck().get(), "v");
    again.close();
  });

  it("refuses a file from a newer gpu-warden and leaves it untouched", () => {
    const file = freshFile();
    const newer = new BetterSqlite3(file);
    newer.pragma(`user_version = ${migrations.length + 3}`);
    newer.exec("CREATE TABLE future (x)");
    newer.close();

    assert.throws(
      () => openDatabase(file),
      (error: unknown) => {
        assert.ok(error instanceof DatabaseTooNewError);
        assert.equal(
          error.message,
          `${file} has schema version ${migrations.length + 3}, but this gpu-warden knows versions up to ` +
            `${migrations.length}: upgrade gpu-warden, or point store.path at another file`,
        );
        return true;
      },
    );
    const check = new BetterSqlite3(file, { readonly: true });
    assert.equal(userVersion(check), migrations.length + 3);
    assert.equal(check.pragma("journal_mode", { simple: true }), "delete");
    check.close();
    assert.deepEqual(tableNames(file), ["future"]);
  });

  it("rolls a failing migration back entirely and keeps the earlier ones", () => {
    const file = freshFile();
    const steps: Migration[] = [
      { version: 1, name: "one", up: (db) => db.exec("CREATE TABLE one (x)") },
      {
        version: 2,
        name: "two",
        up: (db) => {
          db.exec("CREATE TABLE two (x)");
          throw new Error("step two failed");
        },
      },
    ];
    assert.throws(() => openDatabase(file, { migrations: steps }), /step two failed/);
    assert.deepEqual(tableNames(file), ["one"]);
    const db = openDatabase(file, { migrations: steps.slice(0, 1) });
    assert.equal(userVersion(db), 1);
    db.close();
  });

  it("rejects a migration list whose versions are not 1, 2, 3…", () => {
    const db = new BetterSqlite3(":memory:");
    const steps: Migration[] = [{ version: 2, name: "skipped", up: () => {} }];
    assert.throws(() => migrate(db, steps), /migration skipped has version 2, expected 1/);
    db.close();
  });
});
