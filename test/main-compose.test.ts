import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { configSchema } from "../src/config/schema.ts";
import type { Source } from "../src/domain/source.ts";
import { composeBot } from "../src/main/compose-bot.ts";
import { ManualClock, MINUTE_MS } from "../src/shared/clock.ts";
import { silentLogger } from "../src/shared/logger.ts";
import { openDatabase } from "../src/store/open-database.ts";
import { stopHost } from "../src/usecases/power/stop-host.ts";
import { observed } from "./checks/builders.ts";
import { RecordingNotifier } from "./helpers/bot-harness.ts";

const dir = mkdtempSync(join(tmpdir(), "gw-compose-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const ALICE = "U0ALICE1";
const BOB = "U0BOB222";
const CAROL = "U0CAROL3";
const DAVE = "U0DAVE44";
const T0 = Date.UTC(2026, 0, 5, 9, 0);

describe("composeBot", () => {
  it("wires the ports it is given into the whole bot: sources, messages, the stop executor", async () => {
    const clock = new ManualClock(T0);
    const config = configSchema.parse({
      slack: { channel: "C0GPU", admins: [DAVE] },
      warden: { roster: [CAROL, BOB] },
      hosts: { "gpu-a": { owners: [ALICE], stop: { webhook: "http://stop.invalid/gpu-a" } } },
    });
    const source: Source = {
      kind: "simulated",
      hosts: ["gpu-a"],
      poll: async () => [observed("gpu-a", clock.now(), [0, 0, 0, 0], [])],
    };
    const webhooks: string[] = [];
    const fetchPort = (async (url: string | URL | Request) => {
      webhooks.push(String(url));
      return new Response("ok", { status: 200 });
    }) as typeof fetch;
    const notifier = new RecordingNotifier();
    const db = openDatabase(join(dir, "gpu-warden.db"));
    try {
      const bot = composeBot({
        config,
        clock,
        db,
        ports: { logger: silentLogger, messages: { notifier }, sources: [source], fetch: fetchPort },
      });
      assert.equal(bot.deps.fleet, bot.alerts, "the listeners read the alert lifecycle's fleet");
      assert.equal(bot.deps.warden, bot.deps.wardens, "one warden rotation, swaps included");
      assert.deepEqual(
        bot.jobs.map((job) => job.name),
        [
          "poll",
          "rollup",
          "retention",
          "ledger",
          "warden-announce",
          "summary",
          "reclaim-review",
          "claims",
          "queue-deadlines",
          "budgets",
          "interrupted-stops",
          "hygiene",
          "summary-hygiene",
        ],
      );

      bot.alerts.restore();
      await bot.poll();
      assert.equal(bot.alerts.latest("gpu-a")?.observation.ok, true, "the poll read the source port");

      assert.equal(bot.deps.warden.current(clock.now()), CAROL);
      assert.equal(bot.deps.wardens.swap(CAROL, BOB, clock.now()).ok, true);
      assert.equal(bot.deps.warden.current(clock.now()), BOB, "the swap is what the bot sees");

      bot.stores.reclaims.lend({
        host: "gpu-a",
        owner: BOB,
        project: null,
        sinceMs: clock.now(),
        byUser: CAROL,
        caseId: null,
      });
      assert.deepEqual(bot.deps.owners("gpu-a"), [BOB], "a lent host belongs to whom it was lent to");

      clock.advance(MINUTE_MS);
      await bot.poll();
      const result = await stopHost(bot.deps, { host: "gpu-a", actor: DAVE, reason: "/gpu stop" });
      assert.equal(result.kind, "stopped");
      assert.deepEqual(webhooks, ["http://stop.invalid/gpu-a"], "the stop ran through the fetch port");
      await bot.alerts.settled();
    } finally {
      db.close();
    }
  });
});
