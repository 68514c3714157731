import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, describe, it } from "node:test";
import { createCostStores } from "../../src/store/cost-stores.ts";
import { createMetricsStore } from "../../src/store/metrics-store.ts";
import { migrations, userVersion } from "../../src/store/migrations.ts";
import { openDatabase } from "../../src/store/open-database.ts";

const folder = resolve("test/fixtures/stores");
const dir = mkdtempSync(join(tmpdir(), "gw-store-fixtures-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const fixtures = readdirSync(folder).filter((name) => /^v\d+\.db$/.test(name));

describe("stores written by earlier releases (test/fixtures/stores)", () => {
  it("there is one for every release since v5", () => {
    assert.ok(fixtures.includes("v5.db"), "v5.db, written by scripts/make-store-fixture.ts");
  });

  for (const name of fixtures) {
    it(`${name} opens, migrates to schema version ${migrations.length} and keeps its fleet, history and ledger`, () => {
      const original = readFileSync(join(folder, name));
      const copy = join(dir, name);
      copyFileSync(join(folder, name), copy);
      const db = openDatabase(copy);
      try {
        assert.equal(userVersion(db), migrations.length);
        const metrics = createMetricsStore(db);
        assert.deepEqual(
          metrics.hosts().map((host) => [host.name, host.gpus.length]),
          [
            ["gpu-a", 2],
            ["gpu-b", 2],
            ["gpu-c", 2],
          ],
        );
        assert.equal(metrics.latestObservations().length, 3);
        const ledger = createCostStores(db).ledger.between("2026-11-02", "2026-11-02");
        assert.equal(ledger.length, 3, "a ledger day per host");
        assert.ok(ledger.every((day) => day.gpus === 2));
      } finally {
        db.close();
      }
      assert.deepEqual(readFileSync(join(folder, name)), original, "the fixture itself is never written");
    });
  }
});
