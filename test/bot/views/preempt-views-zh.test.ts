import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  deferPreemptReply,
  preemptAskDm,
  preemptReleasedDm,
  preemptVoidDm,
  preemptWaitingDm,
} from "../../../src/bot/views/queue/preempt-messages.ts";
import { projectProblemReply, withPriorities } from "../../../src/bot/views/queue/priority-messages.ts";
import type { Claim } from "../../../src/domain/claim.ts";
import type { QueueRequest } from "../../../src/domain/queue-request.ts";
import { translator } from "../../../src/messages/translator.ts";
import { HOUR_MS } from "../../../src/shared/clock.ts";
import type { PreemptAsk } from "../../../src/usecases/queue/queue-preempt.ts";

const NOW = Date.UTC(2026, 2, 27, 9, 0);
const ZONE = "Asia/Shanghai";
const ZH = translator({ language: "zh-CN", timeZone: ZONE, currency: "CNY" });
const at = { nowMs: NOW, zone: ZONE };

const claim = (gpuIndex: number): Claim => ({
  id: gpuIndex + 1,
  host: "gpu-a",
  gpuIndex,
  user: "U0BOB",
  fromMs: NOW - HOUR_MS,
  untilMs: NOW + 4 * HOUR_MS,
  note: "",
  releasedAtMs: null,
  releasedBy: null,
  endReason: null,
  remindedAtMs: null,
  nudgedAtMs: null,
  stillUsingAtMs: null,
});
const request: QueueRequest = {
  id: 7,
  user: "U0ALICE",
  want: { kind: "count", count: 2, model: "a100" },
  durationMs: 8 * HOUR_MS,
  note: "",
  createdAtMs: NOW - HOUR_MS,
  project: "paper",
  priority: 10,
  state: "waiting",
  grantedAtMs: null,
  confirmByMs: null,
  endedAtMs: null,
};
const ask: PreemptAsk = {
  holder: "U0BOB",
  holderProject: "batch",
  request,
  claims: [claim(0), claim(1)],
  preemptIds: [3, 4],
  releaseAtMs: NOW + 30 * 60_000,
};

describe("projects, priorities and preemption in Chinese", () => {
  test("every DM and answer reads Chinese, with dates in the reader's words", () => {
    const replies = [
      preemptAskDm(ZH, ask, at),
      preemptWaitingDm(ZH, request, [ask], at),
      preemptReleasedDm(ZH, request, ask.claims, at),
      preemptVoidDm(ZH, ask.claims, at),
      deferPreemptReply(ZH, { kind: "deferred", releaseAtMs: NOW + HOUR_MS, claims: ask.claims }, at),
      deferPreemptReply(ZH, { kind: "already", releaseAtMs: NOW + HOUR_MS }, at),
      deferPreemptReply(ZH, { kind: "not-yours" }, at),
      deferPreemptReply(ZH, { kind: "gone" }, at),
      projectProblemReply(ZH, { kind: "unknown", asked: "nope", known: [] }),
      projectProblemReply(ZH, { kind: "not-member", asked: "batch" }),
      withPriorities(ZH, { text: "" }, { waiting: [{ request, position: 1 }], awaitingConfirm: [] }),
    ];
    const english = /\b(?:you|make room|release[ds]?|waiting|priority|project|minutes|the|is)\b/i;
    for (const reply of replies) {
      const shown = JSON.stringify(reply)
        .replace(/`[^`]*`/g, "")
        .replace(/<@U0[A-Z]+>/g, "")
        .replace(/"(?:type|action_id|style|value)":"[^"]*"/g, "")
        .replace(
          /gpu-a[:0-9,]*|a100|mrkdwn|plain_text|section|actions|button|blocks|text|elements|paper|batch/g,
          "",
        );
      assert.match(shown, /[\u4e00-\u9fff]/, shown);
      assert.doesNotMatch(shown, english, shown);
    }
    assert.equal(preemptAskDm(ZH, ask, at).text, "请在 17:30 前让出 gpu-a:0,1");
    assert.match(JSON.stringify(preemptAskDm(ZH, ask, at).blocks), /2 块 a100 GPU（项目 paper，优先级 10）/);
  });
});
