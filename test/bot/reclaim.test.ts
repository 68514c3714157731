import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createReaders } from "../../src/bot/readers.ts";
import { botWords } from "../../src/bot/views/renderers.ts";
import { translator } from "../../src/messages/translator.ts";
import type { StoredMessage } from "../../src/playground/slack-emulator/emulator-state.ts";
import { HOUR_MS, MINUTE_MS } from "../../src/shared/clock.ts";
import { dayjs } from "../../src/shared/time.ts";
import { ownersOf } from "../../src/usecases/warden/reclaim-owners.ts";
import { type ReclaimDeps, reviewReclaims } from "../../src/usecases/warden/review-reclaims.ts";
import { observed } from "../checks/builders.ts";
import {
  ALICE,
  BOB,
  BotHarness,
  CAROL,
  CHANNEL,
  DAVE,
  EVE,
  poweroffRuns,
  standardConfig,
} from "../helpers/bot-harness.ts";
import { actionIds, shownText as shown } from "../helpers/shown-blocks.ts";

const DAY = 24 * HOUR_MS;
const STEP = 5 * MINUTE_MS;
const LOW = ["gpu-c", "gpu-f", "gpu-g", "gpu-h"];

describe("reclaim workflow over the real Bolt app, the emulator and a SQLite file", {
  timeout: 120_000,
}, () => {
  let h: BotHarness;
  let deps: ReclaimDeps;
  let startMs: number;
  const date = (ms: number) =>
    translator({ language: "en", timeZone: "Europe/Berlin", currency: "EUR" }).date(ms, "weekdayDay");
  const decisionTs = new Map<string, string>();
  /** The warden's decision DM about `host`, as shown now (edits applied). */
  const decision = (host: string): StoredMessage => {
    const ts = decisionTs.get(host);
    const message = h.emulator
      .dms(CAROL)
      .find((m) => (ts === undefined ? m.text.startsWith(`Decide about ${host}`) : m.ts === ts));
    if (message === undefined) throw new Error(`no decision DM about ${host}`);
    decisionTs.set(host, message.ts);
    return message;
  };

  /** Host samples every 5 minutes in `[fromMs, toMs)`, then a rollup. */
  const write = (fromMs: number, toMs: number, util: (host: string, atMs: number) => number) => {
    for (let atMs = fromMs; atMs < toMs; atMs += STEP) {
      h.metrics.writeCycle(
        [...LOW, "gpu-e"].map((host) => observed(host, atMs, [util(host, atMs), util(host, atMs)])),
        atMs,
      );
    }
    while (!h.metrics.rollup(toMs + HOUR_MS, 10, 10_000).complete) {}
  };

  before(async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig(
        Object.fromEntries([...LOW, "gpu-e"].map((host) => [host, { owners: [ALICE], stop: "script" }])),
        // NOTE: the samples come every 5 min (STEP): a poll interval of 5 min, so that each stands
        // for the 5 min until the next in the rollups, as in production.
        { reclaim: { observe_days: 2 }, poll: { interval_seconds: STEP / 1000 } },
        { sleepS: 0 },
      ),
    });
    deps = {
      config: h.config,
      metrics: h.metrics,
      reclaims: h.deps.reclaims,
      state: h.state,
      notifier: h.outbox,
      warden: h.deps.warden,
      clock: h.clock,
      logger: h.logger,
      reclaimWords: botWords(createReaders(h.config.team)).reclaimWords,
    };
    startMs = h.clock.now();
    write(startMs - 31 * DAY, startMs, (host) => (host === "gpu-e" ? 60 : 5));
  });

  after(async () => {
    if (h === undefined) return;
    assert.deepEqual(h.emulator.failures(), [], "every delivery acked within 3 s");
    assert.deepEqual(h.problems(), []);
    await h.close();
  });

  test("hosts under 15 % over 30 days become pending reclaim; the warden is told; status shows it", async () => {
    const review = reviewReclaims(deps);
    assert.deepEqual(review, { started: LOW, cleared: [], due: [] });
    await h.settle();
    const dms = h.dmTexts(CAROL);
    assert.deepEqual(
      dms,
      LOW.map(
        (host) =>
          `${host} is pending reclaim: its mean GPU utilisation over the last 30 days was 5 %, below 15 %.`,
      ),
    );
    assert.deepEqual(
      h.state.audit.byAction("reclaim-pending").map((e) => [e.host, e.detail.windowMeanPct]),
      LOW.map((host) => [host, 5]),
    );
    assert.deepEqual(
      reviewReclaims(deps),
      { started: [], cleared: [], due: [] },
      "a second review changes nothing",
    );
    const board = await h.user.slashCommand({ user: EVE, text: "status" });
    const due = date(startMs + 2 * DAY);
    assert.match(
      shown(board.ackPayload?.blocks as unknown[]),
      new RegExp(
        `\\*Reclaim\\*\\n• \\*gpu-c\\*: pending reclaim since ${date(startMs)}, decision due ${due}`,
      ),
    );
  });

  test("a day of sustained use clears a case; the others go to the warden with the decision buttons", async () => {
    const firstMidnight = dayjs(startMs).tz("Europe/Berlin").add(1, "day").startOf("day").valueOf();
    write(startMs, startMs + 2 * DAY + HOUR_MS, (host, atMs) => {
      if (host === "gpu-e") return 60;
      if (host === "gpu-f" && atMs >= firstMidnight && atMs < firstMidnight + DAY) return 40;
      return 5;
    });
    h.clock.set(startMs + 2 * DAY + HOUR_MS);
    const review = reviewReclaims(deps);
    assert.deepEqual(review, { started: [], cleared: ["gpu-f"], due: ["gpu-c", "gpu-g", "gpu-h"] });
    await h.settle();
    assert.ok(
      h
        .dmTexts(CAROL)
        .includes(`gpu-f is no longer pending reclaim: it averaged 40 % on ${date(firstMidnight)}.`),
    );
    for (const host of ["gpu-c", "gpu-g", "gpu-h"]) {
      assert.deepEqual(actionIds(decision(host).blocks), ["reclaim_stop", "reclaim_lend", "reclaim_keep"]);
    }
  });

  test("only the warden or an admin decides; Keep needs a reason; the decision is audited and shown", async () => {
    const seen = h.ephemeralTexts(EVE).length;
    await h.user.clickButton({ user: EVE, message: decision("gpu-c"), actionId: "reclaim_keep" });
    await h.emulator.waitFor(() => h.ephemeralTexts(EVE).length > seen, "the refusal");
    assert.equal(
      h.ephemeralTexts(EVE).at(-1),
      `Only the cost warden (<@${CAROL}>) or an admin can decide about gpu-c.`,
    );
    assert.equal(h.emulator.modals(EVE).length, 0);
    await h.user.clickButton({ user: CAROL, message: decision("gpu-c"), actionId: "reclaim_keep" });
    await h.emulator.waitFor(() => h.emulator.modals(CAROL).length === 1, "the keep modal");
    const blank = await h.emulator.submitView({ user: CAROL, values: { reclaim_reason: { reason: "   " } } });
    assert.deepEqual(blank.ackPayload, {
      response_action: "errors",
      errors: { reclaim_reason: "Keeping a host needs a reason." },
    });
    const kept = await h.emulator.submitView({
      user: CAROL,
      values: { reclaim_reason: { reason: "reserved for the March eval runs" } },
    });
    assert.deepEqual(kept.ackPayload ?? {}, {}, "a plain ack: the modal closes");
    assert.equal(h.emulator.modals(CAROL).length, 0);
    await h.settle();
    const message = decision("gpu-c");
    assert.equal(message.text, "gpu-c: kept by <@U0CAROL>: “reserved for the March eval runs”.");
    assert.deepEqual(actionIds(message.blocks), [], "the buttons are gone");
    assert.ok(
      h.emulator
        .channel(CHANNEL)
        .messages.some(
          (m) =>
            m.text === "Reclaim decision on gpu-c: kept by <@U0CAROL>: “reserved for the March eval runs”.",
        ),
    );
    assert.deepEqual(
      h.state.audit.byAction("reclaim-keep").map((e) => [e.host, e.actor, e.detail.reason]),
      [["gpu-c", CAROL, "reserved for the March eval runs"]],
    );
    const detail = await h.user.slashCommand({ user: EVE, text: "status gpu-c" });
    assert.match(
      shown(detail.ackPayload?.blocks as unknown[]),
      /\*Reclaim\*\n• \*gpu-c\*: last reclaim kept by <@U0CAROL>: “reserved for the March eval runs” on /,
    );
  });

  test("Lend to… a person: they own the host now (owner lookups honour it) and are told", async () => {
    await h.user.clickButton({ user: DAVE, message: decision("gpu-g"), actionId: "reclaim_lend" });
    await h.emulator.waitFor(() => h.emulator.modals(DAVE).length === 1, "the lend modal");
    const empty = await h.emulator.submitView({ user: DAVE, values: {} });
    assert.deepEqual(empty.ackPayload, {
      response_action: "errors",
      errors: { reclaim_person: "Pick a person or name a project." },
    });
    await h.emulator.submitView({
      user: DAVE,
      values: { reclaim_person: { person: BOB }, reclaim_project: { project: "llm-eval" } },
    });
    await h.settle();
    assert.equal(decision("gpu-g").text, "gpu-g: lent to <@U0BOB> (project llm-eval) by <@U0DAVE>.");
    assert.deepEqual(ownersOf("gpu-g", h.config, h.deps.reclaims), [BOB]);
    assert.deepEqual(ownersOf("gpu-c", h.config, h.deps.reclaims), [ALICE]);
    assert.match(h.dmTexts(BOB).at(-1) ?? "", /^<@U0DAVE> lent you gpu-g for llm-eval: you own it now/);
    const board = await h.user.slashCommand({ user: EVE, text: "status" });
    assert.match(
      shown(board.ackPayload?.blocks as unknown[]),
      /• \*gpu-g\*: lent to <@U0BOB> \(project llm-eval\) by <@U0DAVE> on /,
    );
  });

  test("Stop runs the host's stop action once, even when clicked twice", async () => {
    h.poll((atMs) => [observed("gpu-h", atMs, [5, 5])]);
    const message = decision("gpu-h");
    await Promise.all([
      h.user.clickButton({ user: CAROL, message, actionId: "reclaim_stop" }),
      h.user.clickButton({ user: CAROL, message, actionId: "reclaim_stop" }),
    ]);
    await h.emulator.waitFor(() => decision("gpu-h").text.startsWith("gpu-h: stopped"), "the decision");
    await h.emulator.waitFor(() => h.ephemeralTexts(CAROL).length >= 1, "the second click's answer");
    await h.settle();
    assert.deepEqual(poweroffRuns(h), ["gpu-h"]);
    assert.equal(decision("gpu-h").text, "gpu-h: stopped by <@U0CAROL>.");
    assert.match(
      h.ephemeralTexts(CAROL).at(-1)!,
      /^(Already decided|gpu-h was not stopped: gpu-h is already being stopped)/,
    );
    assert.deepEqual(
      h.state.audit.byAction("reclaim-stop").map((e) => [e.host, e.actor]),
      [["gpu-h", CAROL]],
    );
    assert.deepEqual(h.deps.reclaims.allOpen(), [], "every case is decided or cleared");
  });
});
