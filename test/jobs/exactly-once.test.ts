import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  type SlackEmulator,
  startSlackEmulator,
} from "../../src/playground/slack-emulator/start-slack-emulator.ts";
import { runChildScript } from "../helpers/kill-child.ts";

const CHANNEL = "C0GPUTEAM";
const child = join(import.meta.dirname, "post-once-child.ts");
const dir = mkdtempSync(join(tmpdir(), "gw-exactly-once-"));
const db = join(dir, "gpu-warden.db");
let slack: SlackEmulator;

before(async () => {
  slack = await startSlackEmulator({ channels: [{ id: CHANNEL, name: "gpu" }] });
});
after(async () => {
  await slack.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Runs the child bot at `atMs`. In a crash mode, waits for it to reach the crash point, then kills
 * it with SIGKILL (no shutdown code runs) and waits for it to die.
 */
function runAt(atMs: number, mode: "run" | "crash-after-compute" | "crash-after-commit"): Promise<string> {
  return runChildScript(
    child,
    [db, slack.apiUrl, slack.identity.botToken, String(atMs), mode],
    mode === "run" ? null : /computed|committed/,
  );
}

const posted = () => slack.channel(CHANNEL).messages.map((message) => message.text);
const MINUTE_MS = 60_000;
/** Monday 2026-03-16 10:00 in Berlin: the first period's slot. */
const P0 = Date.UTC(2026, 2, 16, 9, 0);
/** Two weeks on, after the switch to summer time: 10:00 CEST. */
const P1 = Date.UTC(2026, 2, 30, 8, 0);

describe("a biweekly post is exactly once per period across crashes and restarts", () => {
  it("killed between computing and posting, restarted, restarted again → one post", async () => {
    assert.equal(await runAt(P0 + 30_000, "crash-after-compute"), "computed");
    assert.deepEqual(posted(), []);
    assert.equal(await runAt(P0 + MINUTE_MS, "run"), "done");
    assert.equal(await runAt(P0 + 2 * MINUTE_MS, "run"), "done");
    assert.deepEqual(posted(), ["Summary for the fortnight ending 2026-03-16 10:00"]);
  });

  it("killed after queueing, before Slack got it → delivered on restart, once", async () => {
    assert.equal(await runAt(P1 + 30_000, "crash-after-commit"), "committed");
    assert.equal(posted().length, 1);
    await runAt(P1 + MINUTE_MS, "run");
    assert.deepEqual(posted().slice(1), ["Summary for the fortnight ending 2026-03-30 10:00"]);
  });

  it("nothing for the off-week Monday; three days down over the next period → posted once, marked late", async () => {
    // Up on Sunday evening (the off-week Monday 6 April is behind: not a period), down until
    // Wednesday evening: Monday 13 April 10:00 passes unseen.
    await runAt(Date.UTC(2026, 3, 12, 21, 0), "run");
    assert.equal(posted().length, 2);
    await runAt(Date.UTC(2026, 3, 15, 21, 0), "run");
    await runAt(Date.UTC(2026, 3, 15, 21, 5), "run");
    assert.deepEqual(posted().slice(2), [
      "Summary for the fortnight ending 2026-04-13 10:00 (late: the bot was down)",
    ]);
  });
});
