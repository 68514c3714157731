import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { configSchema } from "../../src/config/schema.ts";
import { ManualClock } from "../../src/shared/clock.ts";
import { silentLogger } from "../../src/shared/logger.ts";
import { createBotStateStore } from "../../src/store/bot-state-store.ts";
import { openDatabase } from "../../src/store/open-database.ts";
import { createReclaimStore } from "../../src/store/reclaim-store.ts";
import { authorityFor, type HostActionDeps } from "../../src/usecases/authorise.ts";
import { ownersOf } from "../../src/usecases/warden/reclaim-owners.ts";

const dir = mkdtempSync(join(tmpdir(), "gw-lent-"));
after(() => rmSync(dir, { recursive: true, force: true }));

describe("owners of a lent host", () => {
  it("the person a host was lent to may stop or keep it; the configured owner no longer may", () => {
    const db = openDatabase(join(dir, "lent.db"));
    try {
      const config = configSchema.parse({
        hosts: { "gpu-a": { owners: ["U0ALICE1"] }, "gpu-b": { owners: ["U0ALICE1"] } },
      });
      const reclaims = createReclaimStore(db);
      const state = createBotStateStore(db);
      const clock = new ManualClock(Date.UTC(2026, 11, 2, 9));
      const deps = {
        config,
        state,
        warden: { current: () => null },
        clock,
        logger: silentLogger,
        owners: (host: string) => ownersOf(host, config, reclaims),
      } as unknown as HostActionDeps;
      assert.deepEqual(authorityFor(deps, "gpu-a", clock.now()).owners, ["U0ALICE1"]);
      lend(reclaims, "gpu-a", "U0BOB222", clock.now());
      assert.deepEqual(authorityFor(deps, "gpu-a", clock.now()).owners, ["U0BOB222"]);
      assert.deepEqual(authorityFor(deps, "gpu-b", clock.now()).owners, ["U0ALICE1"]);
    } finally {
      db.close();
    }
  });
});

function lend(
  reclaims: ReturnType<typeof createReclaimStore>,
  host: string,
  owner: string,
  atMs: number,
): void {
  reclaims.lend({ host, owner, project: null, sinceMs: atMs, byUser: "U0CAROL3", caseId: null });
}
