import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { EmulatorState } from "../../src/playground/slack-emulator/emulator-state.ts";
import { trimEmulatorState } from "../../src/playground/trim-emulator-state.ts";
import { ManualClock } from "../../src/shared/clock.ts";

describe("trimEmulatorState", () => {
  it("drops old call records, old message versions and expired URLs, and keeps what people see", () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 7, 9, 0));
    const state = new EmulatorState(clock, "UTC");
    state.addChannel({ id: "C0GPU", name: "gpu" });
    for (let i = 0; i < 520; i++) {
      state.calls.push({
        method: "chat.update",
        args: {},
        token: "t",
        atMs: clock.now(),
        status: 200,
        error: undefined,
      });
    }
    const message = state.addMessage({
      channel: "C0GPU",
      user: "UBOT",
      botId: "B1",
      text: "v0",
      blocks: [],
      via: "chat.postMessage",
    });
    for (let i = 1; i <= 6; i++) state.edit(message, `v${i}`, []);
    state.issueResponseUrl("http://127.0.0.1:1", "U1", "C0GPU", { kind: "none" });
    clock.advance(31 * 60_000);
    const fresh = state.issueResponseUrl("http://127.0.0.1:1", "U1", "C0GPU", { kind: "none" });

    assert.equal(trimEmulatorState(state), 20);
    assert.equal(state.calls.length, 500);
    assert.deepEqual(
      message.edits.map((edit) => edit.text),
      ["v3", "v4", "v5"],
    );
    assert.equal(message.text, "v6", "the message as shown stays");
    assert.deepEqual(
      [...state.responseUrls.values()].map((record) => record.url),
      [fresh],
    );
    assert.equal(trimEmulatorState(state), 0);
  });
});
