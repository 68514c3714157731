import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, test } from "node:test";
import type { Database } from "better-sqlite3";
import { type BotStateStore, createBotStateStore } from "../../src/store/bot-state-store.ts";
import { openDatabase } from "../../src/store/open-database.ts";

describe("the claim store changes several claims all or none (a real SQLite file)", () => {
  let dir: string;
  let db: Database;
  let state: BotStateStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "gpu-warden-claim-store-"));
    db = openDatabase(join(dir, "gpu-warden.db"));
    state = createBotStateStore(db);
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const claim = (gpuIndex: number, untilMs: number) =>
    state.claims.add({ host: "gpu-a", gpuIndex, user: "U0EVE", fromMs: 0, untilMs, note: "" }).id;
  /** The write of the claim with `id` fails, as a full disk or an I/O error would fail it. */
  const failWriteOf = (id: number) =>
    db.exec(`CREATE TRIGGER fail_claim BEFORE UPDATE ON claim WHEN NEW.id = ${id}
             BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END`);
  const unreleased = () => state.claims.held().map((held) => held.id);

  test("a release that fails on its second claim leaves the first one held", () => {
    const ids = [claim(0, 1_000), claim(1, 1_000), claim(2, 1_000)];
    failWriteOf(ids[1]!);
    assert.throws(() => state.claims.release(ids, 10, "U0EVE", "released"), /disk I\/O error/);
    assert.deepEqual(unreleased(), ids);
    db.exec("DROP TRIGGER fail_claim");
    assert.deepEqual(
      state.claims.release(ids, 10, "U0EVE", "released").map((ended) => ended.id),
      ids,
    );
    assert.deepEqual(unreleased(), []);
  });

  test("an expiry that fails on its second claim ends none of them", () => {
    const ids = [claim(0, 100), claim(1, 100), claim(2, 5_000)];
    failWriteOf(ids[1]!);
    assert.throws(() => state.claims.expireDue(200, "bot"), /disk I\/O error/);
    assert.deepEqual(unreleased(), ids);
    db.exec("DROP TRIGGER fail_claim");
    const expired = state.claims.expireDue(200, "bot");
    assert.deepEqual(
      expired.map((ended) => [ended.id, ended.endReason, ended.releasedAtMs]),
      [
        [ids[0], "expired", 100],
        [ids[1], "expired", 100],
      ],
    );
    assert.deepEqual(unreleased(), [ids[2]]);
  });

  test("moving the end of several claims is all or none", () => {
    const ids = [claim(0, 1_000), claim(1, 1_000)];
    failWriteOf(ids[1]!);
    assert.throws(() => state.claims.setUntil(ids, 9_000), /disk I\/O error/);
    assert.deepEqual(
      state.claims.byIds(ids).map((held) => held.untilMs),
      [1_000, 1_000],
    );
  });
});
