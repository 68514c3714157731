import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  autopilotStoppingText,
  autopilotWarningMessage,
} from "../../../src/bot/views/power/autopilot-messages.ts";
import type { AutopilotPlan } from "../../../src/checks/autopilot-plan.ts";
import { translator } from "../../../src/messages/translator.ts";
import { blockProblems } from "../../../src/playground/slack-emulator/validate-blocks.ts";
import { shownText } from "../../helpers/shown-blocks.ts";

const ZH = translator({ language: "zh-CN", timeZone: "Asia/Shanghai", currency: "CNY" });
const EN = translator({ language: "en", timeZone: "Asia/Shanghai", currency: "CNY" });
/** 18:00 in Shanghai. */
const NOW = Date.UTC(2026, 0, 5, 10, 0);
const MINUTE_MS = 60_000;

const stale: AutopilotPlan = {
  host: "gpu-a",
  alertId: 3,
  evidence: {
    class: "stale",
    idleSinceMs: NOW - 19 * 60 * MINUTE_MS,
    holders: [{ user: "alice", name: "python", pid: 4242, gpus: [0], memMiB: 20_480 }],
    sessions: [],
  },
  warnedAtMs: NOW,
  stopAtMs: NOW + 30 * MINUTE_MS,
};
const empty: AutopilotPlan = {
  host: "gpu-b",
  alertId: 4,
  evidence: { class: "empty", emptySinceMs: NOW - 30 * MINUTE_MS },
  warnedAtMs: NOW,
  stopAtMs: NOW + 30 * MINUTE_MS,
};
const view = (plan: AutopilotPlan) => ({
  reader: "U0ALICE",
  plan,
  nowMs: NOW,
  keepUntilTomorrowAt: "09:00",
  dryRun: false,
  preStop: true,
});

describe("the autopilot's words", () => {
  test("in Chinese: the warning names the process, its owner and its memory, with Keep until tomorrow / Stop now", () => {
    const message = autopilotWarningMessage(ZH, view(stale));
    assert.equal(
      shownText(message.blocks),
      "🤖 *gpu-a*：只剩 alice 的 python（pid 4242，占用 20.0 GiB），已 19 小时无人操作。除非你保留它，它将于工作时间外的 *18:30* 停机；停机前先运行预停机钩子。",
    );
    assert.match(JSON.stringify(message.blocks), /"text":"保留到明天 09:00".*"text":"立即停机"/);
    assert.deepEqual(blockProblems(message.blocks, "message"), []);
    assert.equal(
      autopilotWarningMessage(ZH, view(empty)).text,
      "gpu-b 已空闲 30 分钟，上面什么都没有；除非你保留它，它将于 18:30 停机",
    );
  });

  test("Keep until tomorrow names the day when the keep runs past tomorrow (a Friday evening, before a holiday)", () => {
    const friday = Date.UTC(2026, 0, 9, 10, 0);
    const monday = Date.UTC(2026, 0, 12, 1, 0);
    const at = (nowMs: number, keepTomorrowUntilMs: number | undefined) =>
      JSON.stringify(autopilotWarningMessage(EN, { ...view(stale), nowMs, keepTomorrowUntilMs }).blocks);
    assert.match(at(friday, monday), /"text":"Keep until Mon 09:00"/);
    assert.match(at(NOW, NOW + 15 * 60 * MINUTE_MS), /"text":"Keep until tomorrow 09:00"/);
    assert.match(at(NOW, undefined), /"text":"Keep until tomorrow 09:00"/);
    assert.match(
      JSON.stringify(
        autopilotWarningMessage(ZH, { ...view(stale), nowMs: friday, keepTomorrowUntilMs: monday }).blocks,
      ),
      /"text":"保留到周一 09:00"/,
    );
  });

  test("the thread says what evidence a stop acted on", () => {
    assert.equal(
      autopilotStoppingText(EN, { plan: empty, nowMs: NOW }),
      "🤖 Autopilot: nothing on gpu-b since 17:30 (30 min): no GPU process, no memory held, no login, no claim, no reservation within the hour; nobody kept it.",
    );
    assert.equal(
      autopilotStoppingText(ZH, { plan: stale, nowMs: NOW }),
      "🤖 自动驾驶：gpu-a 的 GPU 自周日 23:00 起（19 小时）闲置，只剩 alice 的 python（pid 4242，占用 20.0 GiB）且无人操作，现在是工作时间外；无人保留。",
    );
  });
});
