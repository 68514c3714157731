import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { DAY_MS, MINUTE_MS } from "../../src/shared/clock.ts";
import { observed } from "../checks/builders.ts";
import { allHosts, BOB, BotHarness, busyHost, EVE, standardConfig, T0 } from "../helpers/bot-harness.ts";
import { shownText as shown } from "../helpers/shown-blocks.ts";

const STEP = 5 * MINUTE_MS;

/**
 * 29 days before T0 (Monday 10:00 in Berlin, UTC+1): gpu-a's four GPUs busy on weekdays 09:00–17:00
 * Berlin time and idle otherwise, one poll every 5 minutes, rolled up in the harness's SQLite store.
 */
function writeHistory(h: BotHarness): void {
  for (let at = T0 - 29 * DAY_MS; at < T0 - MINUTE_MS; at += STEP) {
    const d = new Date(at + 3_600_000);
    const weekday = (d.getUTCDay() + 6) % 7;
    const util = weekday < 5 && d.getUTCHours() >= 9 && d.getUTCHours() < 17 ? 90 : 0;
    h.metrics.writeCycle([observed("gpu-a", at, [util, util, util, util])], at);
  }
  while (!h.metrics.rollup(T0, 10, 10_000).complete) {}
}

describe("estimated times over the real Bolt app", { timeout: 120_000 }, () => {
  let h: BotHarness;
  afterEach(() => h.closeChecked());

  test("the queued reply, /gpu queue, /gpu status and App Home say when GPUs are usually free (after the claims on them end)", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig({ "gpu-a": {} }, { poll: { interval_seconds: STEP / 1000 } }),
    });
    writeHistory(h);
    h.pollFor(6, allHosts(busyHost("gpu-a")));
    await h.user.slashCommand({ user: BOB, text: "claim gpu-a for 30h" });
    const queued = await h.user.slashCommand({ user: EVE, text: "claim gpu-a for 4h eval --wait" });
    assert.match(
      shown(queued.ackPayload?.blocks as unknown[]),
      /Place in line: 1\. Estimated: around Tue 17:00\./,
    );
    const list = await h.user.slashCommand({ user: EVE, text: "queue" });
    assert.match(
      shown(list.ackPayload?.blocks as unknown[]),
      /Estimated times, from the hour-of-week usage of the last 8 weeks\n1\. around Tue 17:00/,
    );
    const status = await h.user.slashCommand({ user: EVE, text: "status" });
    assert.match(shown(status.ackPayload?.blocks as unknown[]), /\*gpu-a\*: around Mon 17:00/);
    await h.user.event({ type: "app_home_opened", user: EVE });
    await h.settle();
    const home = shown(h.emulator.home(EVE)?.view.blocks as unknown[]);
    assert.match(home, /\*Your place in line\*\n1\. gpu-a: around Tue 17:00 \(no project, priority 0\)/);
    assert.match(home, /NVIDIA H100 80GB HBM3 \(4 GPUs\), the next one free: around Mon 17:00/);
    await h.user.event({ type: "app_home_opened", user: BOB });
    await h.settle();
    assert.match(shown(h.emulator.home(BOB)?.view.blocks as unknown[]), /You are not waiting for GPUs\./);
  });
});
