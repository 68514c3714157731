import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { deliveryKey } from "../../src/bot/transport/dedupe-deliveries.ts";

describe("deliveryKey: the same delivery gets the same key, different ones never share it", () => {
  test("events by event_id, commands by trigger_id", () => {
    assert.equal(
      deliveryKey({ type: "event_callback", event_id: "Ev01", event: { type: "app_home_opened" } }),
      "event:Ev01",
    );
    assert.equal(
      deliveryKey({ command: "/gpu", text: "status", trigger_id: "13.42.abc" }),
      "command:13.42.abc",
    );
  });

  test("a click by user, action id and action_ts (two people clicking at once are two clicks)", () => {
    const click = (user: string, actionTs: string) => ({
      type: "block_actions",
      user: { id: user },
      trigger_id: "t1",
      actions: [{ action_id: "stop_host", action_ts: actionTs }],
    });
    assert.equal(deliveryKey(click("U0ALICE", "1767600000.1")), "action:U0ALICE:stop_host:1767600000.1");
    assert.notEqual(
      deliveryKey(click("U0BOB", "1767600000.1")),
      deliveryKey(click("U0ALICE", "1767600000.1")),
    );
    assert.notEqual(
      deliveryKey(click("U0ALICE", "1767600000.2")),
      deliveryKey(click("U0ALICE", "1767600000.1")),
    );
  });

  test("modal submissions and shortcuts by trigger_id; suggestions and closes are always handled", () => {
    assert.equal(deliveryKey({ type: "view_submission", trigger_id: "t2", view: { id: "V1" } }), "view:t2");
    assert.equal(deliveryKey({ type: "shortcut", trigger_id: "t3" }), "shortcut:t3");
    assert.equal(deliveryKey({ type: "block_suggestion", action_id: "host", value: "gp" }), undefined);
    assert.equal(deliveryKey({ type: "view_closed", view: { id: "V1" } }), undefined);
    assert.equal(deliveryKey("not an object"), undefined);
  });
});
