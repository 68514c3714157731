import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { createMetaStore } from "../../src/store/meta-store.ts";
import { openDatabase } from "../../src/store/open-database.ts";
import { tempDir } from "./store-fixtures.ts";

const temp = tempDir("gw-store-meta-");
after(() => temp.remove());

describe("meta store", () => {
  it("keeps values across re-opening, overwrites and deletes them", () => {
    const file = temp.file("meta.db");
    const db = openDatabase(file);
    const meta = createMetaStore(db);
    assert.equal(meta.get("job.rollup.last_run_ms"), null);
    meta.set("job.rollup.last_run_ms", "1000");
    meta.set("job.rollup.last_run_ms", "2000");
    meta.set("other", "x");
    meta.delete("other");
    db.close();

    const again = openDatabase(file);
    const reopened = createMetaStore(again);
    assert.equal(reopened.get("job.rollup.last_run_ms"), "2000");
    assert.equal(reopened.get("other"), null);
    again.close();
  });
});
