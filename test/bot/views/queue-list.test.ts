import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { withQueueEstimates } from "../../../src/bot/views/queue/eta-words.ts";
import { queueListReply } from "../../../src/bot/views/queue/queue-messages.ts";
import type { QueueRequest } from "../../../src/domain/queue-request.ts";
import { translator } from "../../../src/messages/translator.ts";
import type { QueueView } from "../../../src/usecases/queue/queue-requests.ts";
import { shownText } from "../../helpers/shown-blocks.ts";

const T0 = Date.UTC(2026, 11, 4, 9);
const tr = translator({ language: "en", timeZone: "UTC", currency: "EUR" });
const user = (i: number) => `U0P${String(i).padStart(6, "0")}`;

function request(i: number): QueueRequest {
  return {
    id: i,
    user: user(i),
    want: { kind: "count", count: 1, model: "a100" },
    durationMs: 3_600_000,
    note: `note ${i} `.padEnd(200, "x"),
    createdAtMs: T0 + i * 60_000,
    project: null,
    priority: 0,
    state: "waiting",
    grantedAtMs: null,
    confirmByMs: null,
    endedAtMs: null,
  };
}

const view: QueueView = {
  waiting: Array.from({ length: 60 }, (_, i) => ({ request: request(i + 1), position: i + 1 })),
  awaitingConfirm: [],
};
const at = { nowMs: T0 + 2 * 3_600_000, zone: "UTC" };

describe("/gpu queue with 60 people and 200-character notes", () => {
  test("every section is cut at a line boundary with '… and N more', under Slack's 3,000 characters", () => {
    const reply = queueListReply(tr, view, user(1), at, "/gpu");
    const list = (reply.blocks![0] as { text: { text: string } }).text.text;
    assert.ok(list.length <= 3000, `${list.length} characters`);
    const lines = list.split("\n");
    assert.match(lines.at(-1)!, /^… and \d+ more$/);
    for (const line of lines.slice(1, -1)) assert.match(line, /^\d+\. <@U0P\d+>: .*x\), since /);
    const shown = lines.filter((line) => /^\d+\./.test(line)).length;
    assert.equal(lines.at(-1), `… and ${60 - shown} more`);
  });

  test("place 55 sees their own line and the lines around it", () => {
    const reply = queueListReply(tr, view, user(55), at, "/gpu");
    const text = shownText(reply.blocks);
    assert.match(text, /^55\. <@U0P000055>: .* ← you$/m);
    assert.match(text, /^53\. /m);
    assert.match(text, /^57\. /m);
    assert.match(text, /^… and \d+ more$/m);
    assert.match(text, /^… and 3 more$/m, "58–60 counted after the asker's lines");
    assert.ok((reply.blocks![0] as { text: { text: string } }).text.text.length <= 3000);
  });

  test("the estimates under the list include the asker's", () => {
    const estimates = view.waiting.map(({ request: r, position }) => ({
      request: r,
      position,
      place: position,
      estimate: { kind: "unknown" as const, reason: "history" as const, days: 0, needDays: 28 },
    }));
    const reply = withQueueEstimates(tr, { text: "x" }, estimates as never, user(55));
    assert.match(shownText(reply.blocks), /^55\. /m);
  });
});
