import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { parseCommand } from "../../src/bot/commands/parse-command.ts";
import type { HostObservation } from "../../src/domain/observation.ts";
import { HOUR_MS, MINUTE_MS } from "../../src/shared/clock.ts";
import { observed, reading } from "../checks/builders.ts";
import { ALICE, BOB, BotHarness, CAROL, EVE, standardConfig, T0 } from "../helpers/bot-harness.ts";
import { lastDm, shownText as shown } from "../helpers/shown-blocks.ts";

/** `host`'s four GPUs, idle, with `memMiB` each. */
const hostOf =
  (host: string, memMiB: number) =>
  (atMs: number): HostObservation => ({
    ...observed(host, atMs, [0, 0, 0, 0]),
    gpus: [0, 1, 2, 3].map((index) => reading(index, 0, { memTotalMiB: memMiB })),
  });
const fleet = (atMs: number) => [hostOf("big", 81_559)(atMs), hostOf("small", 24_564)(atMs)];

/** T0 is Monday 10:00 in Berlin; the valley runs 23:00 to 07:00. */
const BERLIN = (hours: number, minutes = 0) => T0 + (hours - 10) * HOUR_MS + minutes * MINUTE_MS;

describe("--wait with a memory floor and --valley", { timeout: 120_000 }, () => {
  test("grammar: --wait goes with gpus>= and --valley", () => {
    assert.deepEqual(parseCommand("claim 2 gpus>=40g --valley --wait"), {
      kind: "claim",
      target: { kind: "count", count: 2, model: null },
      durationMs: null,
      note: "",
      placement: { floorMiB: 40 * 1024, valley: true },
      wait: true,
    });
  });
});

describe("--wait with a memory floor and --valley over the real Bolt app", { timeout: 120_000 }, () => {
  let h: BotHarness;
  afterEach(() => h.closeChecked());

  test("over signed HTTP: granted only GPUs above the floor, only in the valley, cut at its end", async () => {
    h = await BotHarness.start({
      transport: "http",
      config: standardConfig(
        { big: { cost_per_hour: 8 }, small: { cost_per_hour: 2 } },
        {
          team: { timezone: "Europe/Berlin", currency: "EUR" },
          costs: {
            electricity: {
              price_per_kwh: 0.3,
              windows: [{ name: "valley", from: "23:00", to: "07:00", price_per_kwh: 0.1 }],
            },
          },
        },
      ),
    });
    h.pollFor(1, fleet);
    const queued = await h.user.slashCommand({
      user: EVE,
      text: "claim 2 gpus>=40g for 12h batch --valley --wait",
    });
    assert.equal(
      queued.ackPayload?.text,
      "You are in line for 2 GPUs with at least 40 GiB, in the valley hours only (12 h) (batch): you are next. " +
        "I'll DM you when it is yours; `/gpu queue cancel` leaves the line.",
    );
    h.runFor(10, fleet);
    await h.settle();
    assert.deepEqual(h.dmTexts(EVE), [], "big is free, but it is day: not granted");
    const list = await h.user.slashCommand({ user: BOB, text: "queue" });
    assert.match(
      shown(list.ackPayload?.blocks as unknown[]),
      new RegExp(
        `1\\. <@${EVE}>: 2 GPUs with at least 40 GiB, in the valley hours only for 12 h \\(batch\\)`,
      ),
    );

    await h.user.event({ type: "app_home_opened", user: EVE });
    await h.emulator.waitFor(() => h.emulator.home(EVE) !== undefined, "Eve's App Home");
    assert.match(
      shown(h.emulator.home(EVE)?.view.blocks as unknown[]),
      /\*Your place in line\*\n1\. 2 GPUs with at least 40 GiB, in the valley hours only: .*\(no project, priority 0\)/,
    );

    h.clock.set(BERLIN(22, 50));
    h.pollFor(1, fleet);
    await h.user.slashCommand({ user: BOB, text: "claim big for 4h" });
    h.clock.set(BERLIN(23, 30));
    h.runFor(5, fleet);
    await h.settle();
    assert.deepEqual(h.dmTexts(EVE), [], "in the valley, but only small (24 GiB) is free: not granted");
    assert.equal(h.state.queue.waiting().length, 1);
    assert.deepEqual(h.state.queue.waiting()[0]?.want, {
      kind: "count",
      count: 2,
      model: null,
      floorMiB: 40 * 1024,
      valley: true,
    });

    await h.user.slashCommand({ user: BOB, text: "release" });
    await h.settle();
    assert.deepEqual(h.dmTexts(EVE), ["big:0,1 is yours until tomorrow 07:00"]);
    assert.match(shown(lastDm(h, EVE).blocks), /• \*big\*, GPU 0,1: `CUDA_VISIBLE_DEVICES=0,1`/);
    const granted = h.state.claims.activeOf(EVE, h.clock.now());
    assert.deepEqual(
      granted.map((claim) => [claim.host, claim.gpuIndex, claim.untilMs]),
      [
        ["big", 0, BERLIN(31)],
        ["big", 1, BERLIN(31)],
      ],
      "cut to the valley's end, 07:00 Berlin, instead of 12 h",
    );
  });
});

describe("preemption for a waiting request with a memory floor", { timeout: 120_000 }, () => {
  let h: BotHarness;
  afterEach(() => h.closeChecked());

  test("asks only the holder of GPUs with enough memory, not the newest claim on too small ones", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig(
        { big: {}, small: {} },
        {
          projects: {
            paper: { members: [ALICE], priority: 10 },
            batch: { members: [BOB, CAROL], preempt: true },
          },
        },
      ),
    });
    h.pollFor(1, fleet);
    await h.user.slashCommand({ user: BOB, text: "claim big for 4h" });
    h.pollFor(1, fleet);
    await h.user.slashCommand({ user: CAROL, text: "claim small for 4h" });
    const queued = await h.user.slashCommand({ user: ALICE, text: "claim 2 gpus>=40g --wait" });
    assert.match(String(queued.ackPayload?.text), /^You are in line for 2 GPUs with at least 40 GiB/);
    h.runFor(1, fleet);
    await h.settle();
    assert.match(
      shown(lastDm(h, BOB).blocks),
      /is waiting for 2 GPUs with at least 40 GiB .*your claim on \*big\*/,
    );
    assert.deepEqual(h.dmTexts(CAROL), [], "small's 24 GiB GPUs would not do: Carol is not asked");
  });
});
