import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { budgetNoticeText } from "../../src/bot/views/ledger/budget-notice.ts";
import { translator } from "../../src/messages/translator.ts";
import { createBotStateStore } from "../../src/store/bot-state-store.ts";
import { type BudgetDeps, checkBudgets } from "../../src/usecases/ledger/check-budgets.ts";
import { tempDir } from "../store/store-fixtures.ts";
import { host, LedgerRig } from "./ledger-rig.ts";

const files = tempDir("gw-budgets-");
after(() => files.remove());

const H = 3_600_000;
const ALICE = "U0ALICE";
const CAROL = "U0CAROL";
const NOV1 = Date.UTC(2026, 10, 1);
const CONFIG = {
  team: { timezone: "UTC", currency: "EUR" },
  hosts: { "gpu-a": { cost_per_hour: 10 } },
  projects: { nlp: { members: [ALICE], monthly_budget: 300 } },
};
const EN = translator({ language: "en", timeZone: "UTC", currency: "EUR" });

/** gpu-a: GPU 0 busy under alice's claim (project nlp), GPU 1 idle; 240 EUR a day, 120 of it nlp's. */
function setUp(file: string, nowMs: number) {
  const r = new LedgerRig(file, CONFIG, nowMs);
  const state = createBotStateStore(r.db);
  const sent: { channel: string; text: string }[] = [];
  const deps: BudgetDeps = {
    ...r.deps,
    config: r.config,
    claims: state.claims,
    queue: state.queue,
    workloads: state.workloads,
    budgetNotices: state.budgetNotices,
    notifier: { send: (_method, args) => sent.push(args as { channel: string; text: string }) },
    warden: { current: () => CAROL },
    transaction: state.transaction,
  };
  const check = () => checkBudgets(deps, (notice) => budgetNoticeText(EN, notice));
  return { r, state, sent, check };
}

describe("project budgets", () => {
  it("tells the members and the warden at 80 % and at 100 %, each exactly once, across a restart", () => {
    const file = files.file("budgets.db");
    const first = setUp(file, NOV1 + 2 * 24 * H + 30 * 60_000);
    first.state.claims.add({
      host: "gpu-a",
      gpuIndex: 0,
      user: ALICE,
      fromMs: NOV1,
      untilMs: NOV1 + 5 * 24 * H,
      note: "",
      project: "nlp",
    });
    first.r.write(NOV1, NOV1 + 2 * 24 * H + 20 * 60_000, (atMs) => [host("gpu-a", atMs, [80, 0])]);
    assert.deepEqual(
      first.check().map((n) => [n.project, n.level, Math.round(n.spent)]),
      [["nlp", 80, 240]],
    );
    assert.deepEqual(
      first.sent.map((m) => m.channel),
      [ALICE, CAROL],
    );
    assert.equal(
      first.sent[0]?.text,
      "💸 Project `nlp` has spent €240 of its €300 budget for 2026-11 (80 %).\n" +
        `Claimed GPU-hours by host: gpu-a (48.5). By person: <@${ALICE}> (48.5). Idle GPUs it held: 0 % of its cost.`,
    );
    assert.deepEqual(first.check(), [], "not twice");
    first.r.close();

    const again = setUp(file, NOV1 + 3 * 24 * H + 30 * 60_000);
    assert.deepEqual(again.check(), [], "not again after a restart");
    again.r.write(NOV1 + 2 * 24 * H + 30 * 60_000, NOV1 + 3 * 24 * H + 20 * 60_000, (atMs) => [
      host("gpu-a", atMs, [80, 0]),
    ]);
    assert.deepEqual(
      again.check().map((n) => [n.level, Math.round(n.spent)]),
      [[100, 360]],
    );
    assert.match(
      again.sent[0]?.text ?? "",
      /^🛑 Project `nlp` has spent €360 of its €300 budget for 2026-11: the budget is used up\./,
    );
    assert.deepEqual(again.check(), []);
    assert.equal(again.sent.length, 2);
    again.r.close();
  });
});
