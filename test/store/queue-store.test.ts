import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, test } from "node:test";
import type { Database } from "better-sqlite3";
import { type BotStateStore, createBotStateStore } from "../../src/store/bot-state-store.ts";
import { openDatabase } from "../../src/store/open-database.ts";

describe("the queue store over a real SQLite file", () => {
  let dir: string;
  let db: Database;
  let state: BotStateStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "gpu-warden-queue-store-"));
    db = openDatabase(join(dir, "gpu-warden.db"));
    state = createBotStateStore(db);
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const add = (user: string) =>
    state.queue.add({
      user,
      want: { kind: "slots", host: "gpu-a", gpus: [0, 1] },
      durationMs: 60_000,
      note: "n",
      createdAtMs: 5,
    });
  const claim = (gpuIndex: number) =>
    state.claims.add({ host: "gpu-a", gpuIndex, user: "U0EVE", fromMs: 0, untilMs: 100, note: "" });

  test("requests round-trip and wait in id order; a grant moves one out of line once", () => {
    const first = add("U0EVE");
    add("U0BOB");
    assert.deepEqual(first.want, { kind: "slots", host: "gpu-a", gpus: [0, 1] });
    assert.deepEqual(
      state.queue.waiting().map((request) => request.user),
      ["U0EVE", "U0BOB"],
    );
    const claims = [claim(0), claim(1)];
    assert.equal(state.queue.grant(first.id, claims, 10, 20), true);
    assert.equal(state.queue.grant(first.id, claims, 10, 20), false, "it no longer waits");
    assert.deepEqual(
      state.queue.grantsOf(first.id).map((grant) => [grant.claimId, grant.gpuIndex]),
      [
        [claims[0]?.id, 0],
        [claims[1]?.id, 1],
      ],
    );
    assert.deepEqual(
      state.queue.unconfirmedBy(19).map((request) => request.id),
      [],
    );
    assert.deepEqual(
      state.queue.unconfirmedBy(20).map((request) => request.id),
      [first.id],
    );
  });

  test("one claim is never granted to two requests (unique claim_id)", () => {
    const [a, b] = [add("U0EVE"), add("U0BOB")];
    const taken = claim(0);
    state.queue.grant(a.id, [taken], 10, 20);
    assert.throws(() => state.transaction(() => state.queue.grant(b.id, [taken], 10, 20)), /UNIQUE/);
    assert.equal(state.queue.byId(b.id)?.state, "waiting", "the failed grant left nothing behind");
  });

  test("move changes state only from the expected one", () => {
    const request = add("U0EVE");
    assert.equal(state.queue.move(request.id, "granted", "confirmed", 5), false);
    assert.equal(state.queue.move(request.id, "waiting", "cancelled", 7), true);
    assert.deepEqual(
      [state.queue.byId(request.id)?.state, state.queue.byId(request.id)?.endedAtMs],
      ["cancelled", 7],
    );
    assert.deepEqual(state.queue.waiting(), []);
  });
});
