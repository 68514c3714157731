import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { StoredMessage } from "../../src/playground/slack-emulator/emulator-state.ts";
import { HOUR_MS } from "../../src/shared/clock.ts";
import { observed } from "../checks/builders.ts";
import { ALICE, BotHarness, CAROL, CHANNEL, DAVE, EVE, standardConfig, T0 } from "../helpers/bot-harness.ts";
import { actionIds, shownText } from "../helpers/shown-blocks.ts";

/** The request form once it is filled in (it opens first with a line saying the months are being read). */
function isForm(modals: readonly { view: { blocks?: unknown } }[]): boolean {
  const blocks = (modals[0]?.view.blocks ?? []) as { block_id?: string }[];
  return modals.length === 1 && blocks.some((block) => block.block_id === "procurement_model");
}

const DEC_1 = Date.UTC(2025, 11, 1, 9, 0);
const RULE =
  "No plan, no new GPUs: add the tasks with dates, the GPU-hours per month for at least the next 3 months and the acceptance criteria, or use on-demand cloud instead.";

/** What ALICE types into the request form; `plan` false leaves the plan out. */
const form = (over: Record<string, string | null> = {}) => {
  const values: Record<string, string | null> = {
    procurement_model: "H100 80GB",
    procurement_count: "8",
    procurement_kind: "buy",
    procurement_why: "the 70B runs wait 30 h a week on the waiting list",
    procurement_tasks: "2026-02-01 pretrain the 70B model\n2026-03-15 evaluate and fine-tune",
    procurement_hours: "2026-02 4000\n2026-03 4000\n2026-04 3000",
    procurement_acceptance: "the 70B model reaches 62 on the eval suite by April",
    ...over,
  };
  return Object.fromEntries(Object.entries(values).map(([block, value]) => [block, { value }]));
};

describe("/gpu request over the real Bolt app: the form, the red line, the decision", {
  timeout: 120_000,
}, () => {
  let h: BotHarness;
  const post = (id: number): StoredMessage => {
    const found = h.emulator
      .channel(CHANNEL)
      .messages.find(
        (m) => shownText(m.blocks).includes(`Request #${id}`) || m.text.startsWith(`Request #${id} `),
      );
    if (found === undefined) throw new Error(`no post of request #${id}`);
    return found;
  };
  const open = async (user: string, text = "request") => {
    await h.user.slashCommand({ user, text });
    await h.emulator.waitFor(() => isForm(h.emulator.modals(user)), "the request form, filled in");
    return h.emulator.modals(user)[0]!;
  };

  before(async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig(
        { "gpu-a": { owners: [ALICE], cost_per_hour: 2 } },
        { projects: { nlp: { members: [ALICE] } } },
      ),
    });
    h.state.claims.add({
      host: "gpu-a",
      gpuIndex: null,
      user: ALICE,
      fromMs: DEC_1,
      untilMs: DEC_1 + 10 * HOUR_MS,
      note: "",
      project: "nlp",
    });
    for (let atMs = DEC_1; atMs < DEC_1 + 10 * HOUR_MS; atMs += 60_000) {
      h.metrics.writeCycle([observed("gpu-a", atMs, [90, 90, 0, 0])], atMs);
    }
    while (!h.metrics.rollup(T0, 10, 10_000).complete) {}
  });

  after(async () => {
    if (h !== undefined) await h.closeChecked();
  });

  test("the form shows the rule and the project's last three months, the plan pre-filled", async () => {
    const modal = await open(ALICE);
    const opened = h.emulator.calls("views.open")[0]?.args.view as { blocks: unknown[] } | undefined;
    assert.equal(
      shownText(opened?.blocks ?? []),
      "Gathering the last 3 months of use…",
      "the form opens at once, before the months are read (a trigger_id lasts 3 s)",
    );
    const shown = shownText(modal.view.blocks as unknown[]);
    assert.match(shown, /^\*The red line:\* new GPUs need a plan for at least the next 3 months/);
    assert.match(
      shown,
      /\*Project nlp, the last 3 months:\*\n• 2025-10: 0 GPU-hours used, 0 GPU-hours claimed, none of the cost idle, 0 hours waited on the waiting list\n• 2025-11: .*\n• 2025-12: 20 GPU-hours used, 40 GPU-hours claimed, 64% of the cost idle, 0 hours waited on the waiting list/,
    );
    const hours = (modal.view.blocks as { block_id?: string; element?: { initial_value?: string } }[]).find(
      (b) => b.block_id === "procurement_hours",
    );
    assert.equal(hours?.element?.initial_value, "2026-02 7\n2026-03 7\n2026-04 7");
  });

  test("field errors show under the fields; a request without a plan is answered with the rule", async () => {
    const none = await h.emulator.submitView({
      user: ALICE,
      values: form({ procurement_tasks: null, procurement_hours: null, procurement_acceptance: null }),
    });
    assert.deepEqual(none.ackPayload, { response_action: "errors", errors: { procurement_tasks: RULE } });
    const wrong = await h.emulator.submitView({
      user: ALICE,
      values: form({
        procurement_tasks: "2025-12-01 pretrain the 70B model",
        procurement_hours: "2026-02 4000\n2026-03 -50\n2026-04 3000",
      }),
    });
    assert.deepEqual(wrong.ackPayload, {
      response_action: "errors",
      errors: {
        procurement_tasks: "2025-12-01 is in the past (today is 2026-01-05).",
        procurement_hours: "2026-03: -50 GPU-hours is negative.",
      },
    });
    const short = await h.emulator.submitView({
      user: ALICE,
      values: form({ procurement_hours: "2026-02 4000\n2026-03 4000" }),
    });
    assert.deepEqual(short.ackPayload, {
      response_action: "errors",
      errors: {
        procurement_hours:
          "The plan covers 2 months; the red line is at least 3. Plan further ahead, or use on-demand cloud instead.",
      },
    });
    assert.equal(h.emulator.modals(ALICE).length, 1, "the form stays open");
    assert.deepEqual(h.state.procurement.byId(1), null, "nothing was stored");
  });

  test("a complete request goes to the warden and the admins with the decision buttons", async () => {
    const sent = await h.emulator.submitView({ user: ALICE, values: form() });
    assert.deepEqual(sent.ackPayload ?? {}, {}, "a plain ack: the form closes");
    await h.settle();
    const message = post(1);
    assert.equal(message.text, `<@${CAROL}> <@${DAVE}>: <@${ALICE}> asks for 8 × H100 80GB (Buy) for nlp.`);
    assert.match(shownText(message.blocks), /\*Tasks:\*\n• 2026-02-01 pretrain the 70B model\n• 2026-03-15/);
    assert.match(
      shownText(message.blocks),
      /\*GPU-hours per month:\* 2026-02: 4000, 2026-03: 4000, 2026-04: 3000/,
    );
    assert.deepEqual(actionIds(message.blocks), [
      "procurement_approve",
      "procurement_reject",
      "procurement_more",
    ]);
    assert.deepEqual(
      h.state.audit.byAction("procurement-request").map((e) => [e.actor, e.detail.request, e.detail.project]),
      [[ALICE, 1, "nlp"]],
    );
  });

  test("only the warden or an admin may decide", async () => {
    for (const user of [EVE, ALICE]) {
      for (const actionId of ["procurement_approve", "procurement_reject"]) {
        const seen = h.ephemeralTexts(user).length;
        await h.user.clickButton({ user, message: post(1), actionId });
        await h.emulator.waitFor(() => h.ephemeralTexts(user).length > seen, "the refusal");
        assert.equal(
          h.ephemeralTexts(user).at(-1),
          `Only the cost warden (<@${CAROL}>) or an admin can decide about requests for GPUs.`,
        );
      }
      assert.equal(h.emulator.modals(user).length, 0);
    }
    assert.equal(h.state.procurement.byId(1)?.state, "open");
    assert.deepEqual(actionIds(post(1).blocks).length, 3);
  });

  test("a restart in the middle of a decision: decided once, posted in the thread once, audited once", async () => {
    await h.user.clickButton({ user: DAVE, message: post(1), actionId: "procurement_reject" });
    await h.emulator.waitFor(() => h.emulator.modals(DAVE).length === 1, "the reason modal");
    const blank = await h.emulator.submitView({
      user: DAVE,
      values: { procurement_reason: { value: "  " } },
    });
    assert.deepEqual(blank.ackPayload, {
      response_action: "errors",
      errors: { procurement_reason: "Say why." },
    });
    // NOTE: the outbox stops first: the process dies after deciding, before the thread post went out.
    await h.outbox.stop();
    const approve = await h.user.clickButton({
      user: CAROL,
      message: post(1),
      actionId: "procurement_approve",
    });
    await h.emulator.waitFor(() => h.state.procurement.byId(1)?.state === "approved", "the decision");
    assert.deepEqual(h.emulator.channel(CHANNEL).thread(post(1).ts), [], "not posted yet");
    await h.restart();
    await h.user.replay(approve, { attempt: 2, reason: "timeout" });
    const late = await h.emulator.submitView({
      user: DAVE,
      values: { procurement_reason: { value: "buy after the budget review" } },
    });
    assert.deepEqual(late.ackPayload, {
      response_action: "errors",
      errors: { procurement_reason: `Request #1 was decided already: approved by <@${CAROL}>.` },
    });
    await h.settle();
    const message = post(1);
    assert.equal(message.text, `Request #1 (8 × H100 80GB for nlp): approved by <@${CAROL}>.`);
    assert.deepEqual(actionIds(message.blocks), [], "the buttons are gone");
    assert.deepEqual(
      h.emulator
        .channel(CHANNEL)
        .thread(message.ts)
        .map((m) => m.text),
      [
        `<@${ALICE}>: approved by <@${CAROL}>. It is a tracked plan now: once its GPUs are in the fleet, each month's GPU-hours are compared with the plan.`,
      ],
    );
    assert.deepEqual(
      h.state.audit.byAction("procurement-approve").map((e) => [e.actor, e.detail.request]),
      [[CAROL, 1]],
    );
    assert.deepEqual(h.state.audit.byAction("procurement-reject"), []);
  });

  test("Ask for more: the question in the thread, audited; a project the person is not in is refused", async () => {
    await open(ALICE, "request nlp");
    await h.emulator.submitView({ user: ALICE, values: form({ procurement_count: "2" }) });
    await h.settle();
    await h.user.clickButton({ user: CAROL, message: post(2), actionId: "procurement_more" });
    await h.emulator.waitFor(() => h.emulator.modals(CAROL).length === 1, "the reason modal");
    assert.equal(
      (h.emulator.modals(CAROL)[0]!.view.blocks as { label?: { text: string } }[])[0]?.label?.text,
      "What does request #2 lack?",
    );
    await h.emulator.submitView({
      user: CAROL,
      values: { procurement_reason: { value: "the cloud quote" } },
    });
    await h.settle();
    assert.deepEqual(
      h.emulator
        .channel(CHANNEL)
        .thread(post(2).ts)
        .map((m) => m.text),
      [`<@${ALICE}>: <@${CAROL}> asks for more: “the cloud quote”. Send a new \`/gpu request\` with it.`],
    );
    assert.deepEqual(
      h.state.audit.byAction("procurement-more").map((e) => [e.actor, e.detail.reason]),
      [[CAROL, "the cloud quote"]],
    );
    const refused = await h.user.slashCommand({ user: EVE, text: "request nlp" });
    assert.equal(
      refused.ackPayload?.text,
      "You are not a member of project `nlp`: an admin adds you under `projects:` in the config.",
    );
    assert.equal(h.emulator.modals(EVE).length, 0);
  });
});

describe("/gpu request in Chinese (team.language: zh-CN)", { timeout: 60_000 }, () => {
  let h: BotHarness;
  after(async () => {
    if (h !== undefined) await h.closeChecked();
  });

  test("the form, its errors, the post and the decision are in Chinese", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig(
        {},
        {
          team: { timezone: "Europe/Berlin", language: "zh-CN", currency: "CNY" },
          projects: { nlp: { members: [ALICE] } },
        },
      ),
    });
    await h.user.slashCommand({ user: ALICE, text: "request" });
    await h.emulator.waitFor(() => isForm(h.emulator.modals(ALICE)), "the request form, filled in");
    const modal = h.emulator.modals(ALICE)[0]!;
    assert.equal((modal.view.title as { text: string }).text, "申请 GPU");
    assert.match(shownText(modal.view.blocks as unknown[]), /^\*红线：\* 新 GPU 需要至少未来 3 个月的计划/);
    const none = await h.emulator.submitView({
      user: ALICE,
      values: form({
        procurement_tasks: null,
        procurement_acceptance: null,
        procurement_hours: "2026-02 -1",
      }),
    });
    assert.deepEqual(none.ackPayload, {
      response_action: "errors",
      errors: {
        procurement_tasks:
          "没有计划，就没有新 GPU：请填写带日期的任务、至少未来 3 个月的每月 GPU 小时和验收标准，或改用按需云资源。",
      },
    });
    const past = await h.emulator.submitView({
      user: ALICE,
      values: form({ procurement_tasks: "2026-01-04 预训练", procurement_hours: "2026-02 -1" }),
    });
    assert.deepEqual(past.ackPayload, {
      response_action: "errors",
      errors: {
        procurement_tasks: "2026-01-04 已经过去（今天是 2026-01-05）。",
        procurement_hours: "2026-02：-1 GPU 小时是负数。",
      },
    });
    await h.emulator.submitView({ user: ALICE, values: form() });
    await h.settle();
    const message = h.emulator.channel(CHANNEL).messages.at(-1)!;
    assert.equal(message.text, `<@${CAROL}> <@${DAVE}>：<@${ALICE}> 为 nlp 申请 8 × H100 80GB（购买）。`);
    await h.user.clickButton({ user: EVE, message, actionId: "procurement_approve" });
    await h.emulator.waitFor(() => h.ephemeralTexts(EVE).length > 0, "the refusal");
    assert.equal(h.ephemeralTexts(EVE).at(-1), `只有成本看守人（<@${CAROL}>）或管理员可以决定 GPU 申请。`);
    await h.user.clickButton({ user: DAVE, message, actionId: "procurement_reject" });
    await h.emulator.waitFor(() => h.emulator.modals(DAVE).length === 1, "the reason modal");
    await h.emulator.submitView({ user: DAVE, values: { procurement_reason: { value: "预算不足" } } });
    await h.settle();
    const decided = h.emulator.channel(CHANNEL).messages.find((m) => m.ts === message.ts)!;
    assert.equal(decided.text, `申请 #1（nlp 的 8 × H100 80GB）：已被 <@${DAVE}> 拒绝：“预算不足”。`);
    assert.deepEqual(
      h.emulator
        .channel(CHANNEL)
        .thread(message.ts)
        .map((m) => m.text),
      [`<@${ALICE}>：已被 <@${DAVE}> 拒绝：“预算不足”。`],
    );
  });
});
