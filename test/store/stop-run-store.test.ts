import assert from "node:assert/strict";
import { after, it } from "node:test";
import { openDatabase } from "../../src/store/open-database.ts";
import { createStopRunStore } from "../../src/store/stop-run-store.ts";
import { tempDir } from "./store-fixtures.ts";

const dir = tempDir("gw-stop-runs-");
after(() => dir.remove());

const run = (host: string, key: string, atMs: number) => ({
  key,
  host,
  alertId: null,
  actor: "U1",
  forced: false,
  dryRun: false,
  startedAtMs: atMs,
});

it("each host's latest run, read for all hosts at once, stays right as runs are written", () => {
  const db = openDatabase(dir.file("stops.db"));
  try {
    const before = createStopRunStore(db);
    const a = before.begin(run("gpu-a", "a-1", 1000)).run;
    before.finish(a.id, "done", 2000);
    const b1 = before.begin(run("gpu-b", "b-1", 1000)).run;
    before.finish(b1.id, "failed", 1500);
    const b2 = before.begin(run("gpu-b", "b-2", 3000)).run;

    const store = createStopRunStore(db);
    assert.deepEqual(store.latestFor("gpu-a"), { ...a, state: "done", finishedAtMs: 2000 });
    assert.deepEqual(store.latestFor("gpu-b"), b2);
    assert.equal(store.latestFor("gpu-c"), null);

    const c = store.begin(run("gpu-c", "c-1", 4000)).run;
    assert.deepEqual(store.latestFor("gpu-c"), c);
    store.finish(c.id, "done", 5000);
    assert.deepEqual(store.latestFor("gpu-c"), { ...c, state: "done", finishedAtMs: 5000 });
    assert.equal(store.interrupt(b2.id, 6000), true);
    assert.deepEqual(store.latestFor("gpu-b"), { ...b2, state: "interrupted", finishedAtMs: 6000 });
    assert.equal(store.latestFor("gpu-d"), null);
  } finally {
    db.close();
  }
});
