import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { HOUR_MS, MINUTE_MS } from "../../src/shared/clock.ts";
import { type ReclaimDeps, reviewReclaims } from "../../src/usecases/warden/review-reclaims.ts";
import { observed } from "../checks/builders.ts";
import { ALICE, BotHarness, CAROL, EVE, standardConfig } from "../helpers/bot-harness.ts";

const DAY = 24 * HOUR_MS;
const STEP = 5 * MINUTE_MS;

describe("a zh-CN team decides a reclaim in Chinese, over the real Bolt app and the emulator", {
  timeout: 120_000,
}, () => {
  let h: BotHarness;
  let deps: ReclaimDeps;

  const write = (fromMs: number, toMs: number) => {
    for (let atMs = fromMs; atMs < toMs; atMs += STEP)
      h.metrics.writeCycle([observed("gpu-c", atMs, [5, 5])], atMs);
    while (!h.metrics.rollup(toMs + HOUR_MS, 10, 10_000).complete) {}
  };

  before(async () => {
    const config = standardConfig(
      { "gpu-c": { owners: [ALICE], stop: "script" } },
      // NOTE: samples every 5 min (STEP): a 5 min poll interval, as production would roll them up.
      { reclaim: { observe_days: 2 }, poll: { interval_seconds: STEP / 1000 } },
      { sleepS: 0 },
    );
    h = await BotHarness.start({
      transport: "socket",
      config: (dir) => {
        const base = config(dir);
        return { ...base, team: { ...(base.team as object), language: "zh-CN", currency: "CNY" } };
      },
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
      reclaimWords: h.deps.reclaimWords,
    };
  });

  after(async () => {
    if (h === undefined) return;
    assert.deepEqual(h.emulator.failures(), [], "every delivery acked within 3 s");
    await h.close();
  });

  test("the warden's DMs, the refusal, the Keep modal and its error read Chinese", async () => {
    const startMs = h.clock.now();
    write(startMs - 31 * DAY, startMs);
    assert.deepEqual(reviewReclaims(deps).started, ["gpu-c"]);
    write(startMs, startMs + 2 * DAY + HOUR_MS);
    h.clock.set(startMs + 2 * DAY + HOUR_MS);
    assert.deepEqual(reviewReclaims(deps).due, ["gpu-c"]);
    await h.settle();
    const dms = h.emulator.dms(CAROL);
    assert.equal(dms[0]!.text, "gpu-c 待回收：过去 30 天的平均 GPU 利用率为 5 %，低于 15 %。");
    const decision = dms.find((m) => m.text.startsWith("请决定 gpu-c"))!;
    assert.equal(decision.text, "请决定 gpu-c：观察 2 天后仍低于 15 %。");
    assert.match(JSON.stringify(decision.blocks), /"停机 gpu-c".*"借出给…".*"保留…"/);

    const seen = h.ephemeralTexts(EVE).length;
    await h.user.clickButton({ user: EVE, message: decision, actionId: "reclaim_keep" });
    await h.emulator.waitFor(() => h.ephemeralTexts(EVE).length > seen, "the refusal");
    assert.equal(h.ephemeralTexts(EVE).at(-1), `只有成本看守人（<@${CAROL}>）或管理员可以决定 gpu-c。`);

    await h.user.clickButton({ user: CAROL, message: decision, actionId: "reclaim_keep" });
    await h.emulator.waitFor(() => h.emulator.modals(CAROL).length === 1, "the keep modal");
    const modal = h.emulator.modals(CAROL)[0]!.view as {
      title: { text: string };
      submit: { text: string };
      close: { text: string };
      blocks: { label?: { text: string }; hint?: { text: string } }[];
    };
    assert.equal(modal.title.text, "保留主机");
    assert.equal(modal.submit.text, "保留");
    assert.equal(modal.close.text, "取消");
    assert.equal(modal.blocks[0]!.label!.text, "为什么保留 gpu-c？");
    assert.match(modal.blocks[0]!.hint!.text, /^会显示在 \/gpu status 和审计记录中/);
    const blank = await h.emulator.submitView({ user: CAROL, values: { reclaim_reason: { reason: " " } } });
    assert.deepEqual(blank.ackPayload, {
      response_action: "errors",
      errors: { reclaim_reason: "保留主机需要说明理由。" },
    });
    await h.emulator.submitView({ user: CAROL, values: { reclaim_reason: { reason: "三月评测" } } });
    await h.settle();
    assert.equal(
      h.emulator.dms(CAROL).find((m) => m.ts === decision.ts)!.text,
      "gpu-c：已由 <@U0CAROL> 保留：“三月评测”。",
    );
  });
});
