import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import {
  ALICE,
  allHosts,
  BotHarness,
  CHANNEL,
  idleHost,
  poweroffRuns,
  standardConfig,
} from "../helpers/bot-harness.ts";
import { shownText } from "../helpers/shown-blocks.ts";

describe("a stop that did not stop, over the real Bolt app", { timeout: 60_000 }, () => {
  let h: BotHarness;
  afterEach(() => h.closeChecked());

  test("stop exits 0 but the host keeps reporting: after the grace period the thread says it once, naming the clicker (no DM repeats it), and the next alert points to it", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig({ "gpu-a": { owners: [ALICE], stop: "script" } }),
    });
    h.pollFor(6, allHosts(idleHost("gpu-a")));
    await h.settle();
    const first = h.alertMessage("gpu-a");
    await h.user.clickButton({ user: ALICE, message: first, actionId: "stop_host" });
    await h.emulator.waitFor(() => h.state.stopRuns.latestFor("gpu-a")?.state === "done", "the outcome");
    await h.settle();
    assert.deepEqual(poweroffRuns(h), ["gpu-a"]);
    const thread = () =>
      h.emulator
        .channel(CHANNEL)
        .thread(first.ts)
        .map((message) => message.text);
    assert.equal(thread().length, 2, "the stop's own two notes");

    h.pollFor(9, allHosts(idleHost("gpu-a")));
    await h.settle();
    assert.equal(thread().length, 2, "nothing within the 10-minute grace period");
    assert.equal(h.alertMessage("gpu-a").ts, first.ts, "no new idle alert within the grace period");
    assert.equal(h.state.alerts.openFor("gpu-a", "idle"), null);
    assert.deepEqual(
      h.dmTexts(ALICE).filter((text) => text.startsWith("⚠️")),
      [],
    );

    h.pollFor(4, allHosts(idleHost("gpu-a")));
    await h.settle();
    const doubt =
      "⚠️ gpu-a was stopped at 10:06 (by <@U0ALICE>) but is still reporting (latest reading 10:16): " +
      "the stop may not have worked. Check the host; Stop can be tried again (`/gpu stop gpu-a`).";
    assert.equal(thread().at(-1), doubt);
    assert.deepEqual(
      h.dmTexts(ALICE).filter((text) => text.includes("⚠️")),
      [],
      "said once, in the thread",
    );
    assert.equal(h.ephemeralTexts(ALICE).length, 1, "the click's one answer; nothing later");
    const next = h.alertMessage("gpu-a");
    assert.notEqual(next.ts, first.ts, "a new idle episode, a new alert");
    assert.match(
      shownText(next.blocks),
      new RegExp(
        `^⚠️ The stop at \\*10:06\\* may not have worked: gpu-a kept reporting\\. See <https://gpu-team\\.slack\\.com/archives/${CHANNEL}/p${first.ts.replace(".", "")}\\|the thread of the alert of 10:05>\\.$`,
        "m",
      ),
    );
    assert.deepEqual(
      h.state.audit.byAction("stop-unconfirmed").map((entry) => entry.host),
      ["gpu-a"],
    );

    h.pollFor(20, allHosts(idleHost("gpu-a")));
    await h.settle();
    assert.equal(thread().filter((text) => text === doubt).length, 1, "said once");
  });
});
