import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  autopilotKeepEndedText,
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

  test("a claim older than the empty host: the warning and the thread name its claimant, in both languages", () => {
    const claimed: AutopilotPlan = {
      ...empty,
      evidence: { class: "empty", emptySinceMs: NOW - 30 * MINUTE_MS, outlivedClaims: ["U0BOB"] },
    };
    assert.equal(
      shownText(autopilotWarningMessage(EN, view(claimed)).blocks),
      "🤖 *gpu-b* has had nothing on it for 30 min; it stops at *18:30* unless you keep it.\n<@U0BOB> claimed it before it emptied; outside working hours that claim no longer holds an empty host. The GPUs stay claimed, and `/gpu start gpu-b` brings it back.",
    );
    assert.match(
      shownText(autopilotWarningMessage(ZH, view(claimed)).blocks),
      /\n<@U0BOB> 在它空闲之前认领了它；工作时间外，这个认领不再留住一台空闲主机。GPU 仍归认领人，`\/gpu start gpu-b` 可重新开机。$/,
    );
    assert.equal(
      autopilotStoppingText(EN, { plan: claimed, nowMs: NOW }),
      "🤖 Autopilot: nothing on gpu-b since 17:30 (30 min): no GPU process, no memory held, no login, no reservation within the hour; the claim of <@U0BOB> is older than that, and it is outside working hours; nobody kept it.",
    );
    assert.match(
      autopilotStoppingText(ZH, { plan: claimed, nowMs: NOW }),
      /<@U0BOB> 的认领早于此时，且现在是工作时间外/,
    );
  });

  test("a Keep the autopilot ended: the keeper hears until when it ran and since when the host was empty", () => {
    const ended = {
      reader: "U0ALICE",
      host: "gpu-b",
      keptUntilMs: NOW + 15 * 60 * MINUTE_MS,
      emptySinceMs: NOW - 40 * MINUTE_MS,
      nowMs: NOW,
    };
    assert.equal(
      autopilotKeepEndedText(EN, ended),
      "🤖 Your Keep of *gpu-b* (until Tue 09:00) has ended: nothing has been on it since 17:20, and outside working hours an empty host is stopped after the autopilot's warning. `/gpu keep gpu-b tomorrow` keeps it again.",
    );
    assert.equal(
      autopilotKeepEndedText(ZH, ended),
      "🤖 你对 *gpu-b* 的保留（至周二 09:00）已结束：自 17:20 起它上面什么都没有；工作时间外，空闲主机会在自动驾驶警告后停机。`/gpu keep gpu-b tomorrow` 可再次保留。",
    );
  });
});
