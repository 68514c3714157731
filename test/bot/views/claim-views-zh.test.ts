import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  claimEndedDm,
  claimFreeDm,
  claimNudgeDm,
  claimReminderDm,
} from "../../../src/bot/views/claims/claim-dm.ts";
import {
  claimReply,
  extendReply,
  mineReply,
  releaseReply,
  stillUsingReply,
  waitlistReply,
} from "../../../src/bot/views/claims/claim-reply.ts";
import {
  confirmGrantReply,
  joinQueueReply,
  queueCancelReply,
  queueGrantDm,
  queueLapsedDm,
  queueListReply,
} from "../../../src/bot/views/queue/queue-messages.ts";
import type { Reply } from "../../../src/bot/views/reply-message.ts";
import type { ClaimGroup } from "../../../src/checks/claim-groups.ts";
import type { Claim } from "../../../src/domain/claim.ts";
import type { QueueRequest } from "../../../src/domain/queue-request.ts";
import { translator } from "../../../src/messages/translator.ts";
import { HOUR_MS } from "../../../src/shared/clock.ts";
import type { ClaimGpusResult } from "../../../src/usecases/claims/claim-gpus.ts";
import type { ReleaseResult } from "../../../src/usecases/claims/release-claims.ts";

const NOW = Date.UTC(2026, 2, 27, 9, 0);
const ZONE = "Asia/Shanghai";
const ZH = translator({ language: "zh-CN", timeZone: ZONE, currency: "CNY" });
const EN = translator({ language: "en", timeZone: ZONE, currency: "CNY" });
const at = { nowMs: NOW, zone: ZONE };

const group = (over: Partial<ClaimGroup> = {}): ClaimGroup => ({
  host: "gpu-a",
  gpus: [0, 1],
  user: "U0BOB",
  fromMs: NOW,
  untilMs: NOW + 4 * HOUR_MS,
  note: "llama sft",
  claimIds: [1, 2],
  remindedAtMs: null,
  nudgedAtMs: null,
  stillUsingAtMs: null,
  ...over,
});
const claim = (id: number, gpuIndex: number | null): Claim => ({
  id,
  host: "gpu-a",
  gpuIndex,
  user: "U0BOB",
  fromMs: NOW,
  untilMs: NOW + 50 * HOUR_MS,
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
  user: "U0EVE",
  want: { kind: "count", count: 2, model: "a100" },
  durationMs: 8 * HOUR_MS,
  note: "",
  createdAtMs: NOW - HOUR_MS,
  project: null,
  priority: 0,
  state: "granted",
  grantedAtMs: NOW,
  confirmByMs: NOW + 15 * 60_000,
  endedAtMs: null,
};

const claimResults: ClaimGpusResult[] = [
  {
    kind: "claimed",
    groups: [group()],
    durationMs: 4 * HOUR_MS,
    models: ["A100"],
    alsoHeld: { host: "gpu-a", gpus: [2] },
    replaced: [group({ gpus: [3] })],
    busy: { slots: [{ host: "gpu-a", gpus: [1] }], count: 1, users: ["bob"] },
  },
  { kind: "already-yours", slots: { host: "gpu-a", gpus: null }, allOf: true, untilMs: NOW + HOUR_MS },
  {
    kind: "held",
    slots: { host: "gpu-a", gpus: [1] },
    holders: [group(), group({ user: "U0EVE" })],
    forceable: true,
  },
  { kind: "short", free: 1, total: 8, count: 2, models: ["A100", "H100"], holders: [group()] },
  {
    kind: "invalid",
    problem: { kind: "unknown-host", host: "gpu-x", suggestion: null, known: ["gpu-a", "gpu-b"] },
  },
  { kind: "invalid", problem: { kind: "no-such-gpus", host: "gpu-a", has: [0, 1, 2, 3], missing: [7] } },
  { kind: "invalid", problem: { kind: "no-model", model: "v100", models: ["A100"] } },
  { kind: "invalid", problem: { kind: "too-long", maxMs: 48 * HOUR_MS, durationMs: 72 * HOUR_MS } },
];
const releaseResults: ReleaseResult[] = [
  { kind: "released", groups: [group()], forced: [group({ user: "U0EVE" })] },
  { kind: "none", why: "no-claims" },
  { kind: "none", why: "nobody-holds", slots: { host: "gpu-a", gpus: [3] } },
  { kind: "refused", holders: [group()], warden: "U0CAROL", admins: ["U0DAVE"] },
  {
    kind: "invalid",
    problem: { kind: "say-which", groups: [group(), group({ host: "gpu-b", gpus: null })] },
  },
  { kind: "invalid", problem: { kind: "whole-host", host: "gpu-a" } },
];

/** Every view's output for one reader. */
function everyReply(tr: typeof ZH): Reply[] {
  const asked = { target: { kind: "count" as const, count: 2, model: "a100" }, durationMs: null, note: "" };
  return [
    ...claimResults.map((result) => claimReply(tr, result, NOW, "/gpu", asked)),
    ...releaseResults.map((result) => releaseReply(tr, result, NOW, "/gpu")),
    extendReply(tr, { kind: "extended", groups: [group()], capped: true, maxMs: 48 * HOUR_MS }, NOW, "/gpu"),
    extendReply(tr, { kind: "none", slots: { host: "gpu-a", gpus: [0] } }, NOW, "/gpu"),
    extendReply(tr, { kind: "refused", holders: [group()] }, NOW, "/gpu"),
    stillUsingReply(tr, { kind: "noted", groups: [group()], nudgeMs: 2 * HOUR_MS }, NOW),
    stillUsingReply(tr, { kind: "refused", holders: [group()] }, NOW),
    waitlistReply(tr, { kind: "waiting", slots: { host: "gpu-a", gpus: [1] } }, "/gpu"),
    waitlistReply(tr, { kind: "free", slots: { host: "gpu-a", gpus: [1] } }, "/gpu"),
    mineReply(tr, [{ group: group(), gpus: [] }], NOW, "/gpu"),
    mineReply(tr, [], NOW, "/gpu"),
    claimReminderDm(tr, group(), at),
    claimNudgeDm(tr, group(), NOW - 2 * HOUR_MS, NOW + 2 * HOUR_MS, at),
    claimEndedDm(tr, group(), { kind: "forced", actor: "U0CAROL", role: "warden" }, NOW, at),
    claimEndedDm(tr, group(), { kind: "idle", idleFromMs: NOW - 4 * HOUR_MS }, NOW, at),
    claimFreeDm(tr, "gpu-a", [1], "/gpu"),
    queueGrantDm(tr, request, [claim(1, 0), claim(2, 1)], request.confirmByMs!, at),
    queueLapsedDm(tr, request, [claim(1, 0)], at, "/gpu"),
    joinQueueReply(tr, { kind: "queued", request, position: 1 }, "/gpu"),
    joinQueueReply(tr, { kind: "already-waiting", request, position: 3 }, "/gpu"),
    queueListReply(
      tr,
      { waiting: [{ request, position: 1 }], awaitingConfirm: [request] },
      "U0EVE",
      at,
      "/gpu",
    ),
    queueCancelReply(tr, [request]),
    confirmGrantReply(tr, { kind: "confirmed", request, claims: [claim(1, 0)] }, at),
  ];
}

/** The words of a reply: every `text` in it (fallback, blocks, buttons, confirms), without code and mentions. */
function words(reply: Reply): string {
  const found: string[] = [];
  const walk = (node: unknown, key: string): void => {
    if (typeof node === "string") {
      if (key === "text") found.push(node);
    } else if (Array.isArray(node)) {
      for (const item of node) walk(item, key);
    } else if (typeof node === "object" && node !== null) {
      for (const [name, value] of Object.entries(node)) walk(value, name === "value" ? "value" : name);
    }
  };
  walk(reply, "");
  return found
    .join("\n")
    .replace(/`[^`]*`/g, "")
    .replace(/<@U0[A-Z]+>/g, "")
    .replace(/正确格式：.*/g, "正确格式："); // the command's right form is the help's (src/bot/commands/command-table.ts)
}

describe("the claim views in Chinese", () => {
  test("every claim, release, extend and waiting-list answer and DM reads Chinese, with no English words left", () => {
    const english =
      /\b(?:you|hold|until|claim(?:ed|s)?|release[ds]?|free|line|confirm|GPUs|held|only|the|and|or|is|are)\b/i;
    for (const reply of everyReply(ZH)) {
      const shown = words(reply);
      assert.match(shown, /[\u4e00-\u9fff]/, shown);
      assert.doesNotMatch(shown.replace(/llama sft|a100|A100|H100|gpu-[a-z]/g, ""), english, shown);
    }
  });

  test("dates and durations come out in each reader's words", () => {
    const later = group({ untilMs: NOW + 50 * HOUR_MS });
    assert.equal(claimReminderDm(ZH, later, at).text, "你对 gpu-a:0,1 的认领将于 3月29日周日 19:00 结束");
    assert.equal(claimReminderDm(EN, later, at).text, "Your claim on gpu-a:0,1 ends at Sun, Mar 29 19:00");
    assert.equal(
      claimReminderDm(ZH, group({ untilMs: NOW + 20 * HOUR_MS }), at).text,
      "你对 gpu-a:0,1 的认领将于明天 13:00 结束",
    );
  });

  test("English stays as before for English readers", () => {
    const texts = everyReply(EN).map((reply) => reply.text);
    assert.ok(
      texts.includes("Released gpu-a:0,1. Released gpu-a:0,1, claimed by <@U0EVE>; they have been told."),
    );
    assert.ok(
      texts.includes(
        "You are in line for 2 a100 GPUs (8 h): you are next. I'll DM you when it is yours; `/gpu queue cancel` leaves the line.",
      ),
    );
  });
});
