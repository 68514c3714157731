import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { openDatabase } from "../../src/store/open-database.ts";
import { lockStore, StoreLockedError } from "../../src/store/store-lock.ts";

const dir = mkdtempSync(join(tmpdir(), "gw-store-lock-"));
after(() => rmSync(dir, { recursive: true, force: true }));

describe("lockStore", () => {
  it("lets one holder in at a time, names it to the next, and lets the next in after release", () => {
    const store = join(dir, "gpu-warden.db");
    const first = lockStore(store, 1_000);
    assert.throws(
      () => lockStore(store, 2_000),
      (error: unknown) =>
        error instanceof StoreLockedError &&
        error.storePath === store &&
        error.holder?.pid === process.pid &&
        error.holder.host === hostname() &&
        error.holder.sinceMs === 1_000,
    );
    const db = openDatabase(store);
    db.close();
    first.release();
    first.release();
    const second = lockStore(store, 3_000);
    second.release();
  });
});
