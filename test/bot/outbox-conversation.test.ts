import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ConversationIndex, conversationOf } from "../../src/bot/outbox/outbox-conversation.ts";
import type { OutboxRoute } from "../../src/store/outbox-store.ts";

const route = (id: number, over: Partial<OutboxRoute>): OutboxRoute => ({
  id,
  method: "chat.postMessage",
  alertId: null,
  notBeforeMs: 0,
  channel: null,
  threadTs: null,
  user: null,
  placeholderAlertId: null,
  ...over,
});

describe("outbox conversations", () => {
  test("an alert with its updates and thread replies is one; threads, channels, DMs and Home tabs are apart", () => {
    assert.equal(conversationOf(route(1, { alertId: 7, channel: "C1" })), "alert:7");
    assert.equal(conversationOf(route(2, { placeholderAlertId: 7, channel: "C1" })), "alert:7");
    assert.equal(conversationOf(route(3, { channel: "C1", threadTs: "1.2" })), "thread:C1/1.2");
    assert.equal(conversationOf(route(4, { channel: "C1" })), "channel:C1");
    assert.equal(conversationOf(route(5, { channel: "U0ALICE" })), "channel:U0ALICE");
    assert.equal(conversationOf(route(6, { method: "views.publish", user: "U0ALICE" })), "home:U0ALICE");
  });

  test("heads: the oldest item per conversation; each item's arguments are read once", () => {
    const routes = [
      route(1, { alertId: 7 }),
      route(2, { channel: "C1" }),
      route(3, { placeholderAlertId: 7 }),
      route(4, { channel: "U0BOB" }),
      route(5, { channel: "C1" }),
    ];
    const reads: number[] = [];
    const routesFrom = (minId: number) => {
      reads.push(minId);
      return routes.filter((r) => r.id >= minId);
    };
    const index = new ConversationIndex();
    const schedule = routes.map((r) => ({ id: r.id, notBeforeMs: r.id * 10 }));
    assert.deepEqual(
      [...index.heads(schedule, routesFrom)].map((h) => [h.id, h.conversation]),
      [
        [1, "alert:7"],
        [2, "channel:C1"],
        [4, "channel:U0BOB"],
      ],
    );
    routes.push(route(6, { channel: "C2" }));
    const next = [...schedule.slice(1), { id: 6, notBeforeMs: 60 }];
    assert.deepEqual(
      [...index.heads(next, routesFrom)].map((h) => h.id),
      [2, 3, 4, 6],
    );
    assert.deepEqual(reads, [1, 6], "only the new item is read the second time");
  });

  test("heads are read lazily: a caller that takes the first reads one item of the schedule, not the backlog", () => {
    const routes = Array.from({ length: 1_000 }, (_, i) => route(i + 1, { channel: `U${i}` }));
    let read = 0;
    function* schedule() {
      for (const r of routes) {
        read++;
        yield { id: r.id, notBeforeMs: 0 };
      }
    }
    const index = new ConversationIndex();
    const routesFrom = (minId: number) => routes.filter((r) => r.id >= minId);
    for (const head of index.heads(schedule(), routesFrom)) {
      assert.equal(head.id, 1);
      break;
    }
    assert.equal(read, 1);
    assert.equal([...index.heads(schedule(), routesFrom)].length, 1_000, "read to its end, every head");
  });

  test("a post in another alert's thread (a storm digest's) waits until that alert's post has left the outbox; posts carry their channel's pace key", () => {
    const routes = [
      route(1, { alertId: 9, channel: "C1" }),
      route(2, { alertId: 10, placeholderAlertId: 9, channel: "C1" }),
      route(3, { channel: "U0BOB" }),
      route(4, { method: "chat.update", alertId: 11, channel: "C1" }),
    ];
    const index = new ConversationIndex();
    const schedule = routes.map((r) => ({ id: r.id, notBeforeMs: 0 }));
    const heads = [...index.heads(schedule, (minId) => routes.filter((r) => r.id >= minId))];
    assert.deepEqual(
      heads.map((h) => [h.id, h.paceKey]),
      [
        [1, "post:C1"],
        [3, "post:U0BOB"],
        [4, null],
      ],
    );
    const after = [...index.heads(schedule.slice(1), (minId) => routes.filter((r) => r.id >= minId))];
    assert.deepEqual(
      after.map((h) => [h.id, h.after]),
      [
        [2, "alert:9"],
        [3, null],
        [4, null],
      ],
    );
  });
});
