import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { payloadProblem } from "../../src/bot/transport/payload-problem.ts";
import type { HttpDriver } from "../../src/playground/slack-emulator/http-driver.ts";
import { BotHarness, EVE, standardConfig } from "../helpers/bot-harness.ts";

const nowS = () => Math.floor(Date.now() / 1000);

describe("payloadProblem", () => {
  test("names what a Slack payload of its kind always carries and this one lacks", () => {
    assert.equal(
      payloadProblem({ type: "block_actions", user: { id: EVE }, actions: [{ action_id: "x" }] }),
      null,
    );
    assert.equal(payloadProblem({ command: "/gpu", text: "", user_id: EVE, channel_id: "C1" }), null);
    assert.equal(payloadProblem({ type: "event_callback", event: { type: "app_home_opened" } }), null);
    assert.equal(
      payloadProblem({ type: "block_actions", user: { id: EVE }, actions: [{ type: "button" }] }),
      "block_actions action 0 without an action_id",
    );
    assert.equal(
      payloadProblem({ type: "block_actions", user: { id: EVE } }),
      "block_actions without actions",
    );
    assert.equal(
      payloadProblem({ type: "view_submission", user: { id: EVE }, view: {} }),
      "view_submission without a view id and callback_id",
    );
    assert.equal(payloadProblem({ command: "/gpu", text: "" }), "slash command without user_id, channel_id");
    assert.equal(payloadProblem({ hello: 1 }), "no type, command or event");
    assert.equal(payloadProblem({ type: "nonsense" }), 'unknown payload type "nonsense"');
  });
});

describe("signed HTTP requests the bot refuses", { timeout: 60_000 }, () => {
  let h: BotHarness;
  afterEach(() => h.close());

  const driver = () => h.user as HttpDriver;

  test("a timestamp more than 5 minutes in the future gets 401 and runs nothing; 4 minutes is fine", async () => {
    h = await BotHarness.start({ transport: "http", config: standardConfig({}) });
    const near = await driver().slashCommand({ user: EVE, text: "help", timestampS: nowS() + 4 * 60 });
    assert.equal(near.httpStatus, 200);
    assert.match(String(near.ackPayload?.text ?? JSON.stringify(near.ackPayload)), /gpu/);
    const far = await driver().slashCommand({ user: EVE, text: "mine", timestampS: nowS() + 10 * 60 });
    assert.equal(far.httpStatus, 401);
    assert.equal(far.acked, false);
    assert.deepEqual(
      h.emulator.failures().map((failure) => [failure.kind, failure.detail]),
      [["http_error", "HTTP 401"]],
    );
    // NOTE: the request was dated by the wall clock (Slack's signature check reads it too); the bot
    // reads it a moment later, so a second may have passed: 600 s ahead when signed, 59x s when read.
    assert.deepEqual(
      h.logs.map((line) => line.level),
      [40],
    );
    assert.match(
      h.logs[0]?.msg ?? "",
      /^refused a Slack request dated (59[0-9]|600) s in the future \(Slack allows 300 s either way\)$/,
    );
    assert.deepEqual(h.emulator.internalErrors(), []);
  });

  for (const transport of ["http", "socket"] as const) {
    test(`a half-formed block_actions payload is answered at once with one warning (${transport})`, async () => {
      h = await BotHarness.start({ transport, config: standardConfig({}) });
      const halfFormed = await h.user.rawInteraction({
        type: "block_actions",
        user: { id: EVE },
        team: { id: h.emulator.identity.teamId },
        actions: [{ type: "button", block_id: "b" }],
      });
      const untyped = await h.user.rawInteraction({ user: { id: EVE } });
      for (const delivery of [halfFormed, untyped]) {
        assert.ok(delivery.elapsedMs < 1_000, `answered in ${delivery.elapsedMs} ms`);
        assert.equal(delivery.timedOut, false);
        // HTTP: 400. Socket Mode has no status: the envelope is acked so Slack does not send it again.
        if (transport === "http") assert.equal(delivery.httpStatus, 400);
        else assert.equal(delivery.acked, true);
      }
      assert.deepEqual(
        h.logs.map((line) => [line.level, line.msg]),
        [
          [40, "refused a malformed Slack payload: block_actions action 0 without an action_id"],
          [40, "refused a malformed Slack payload: no type, command or event"],
        ],
      );
      assert.deepEqual(h.emulator.internalErrors(), []);
    });
  }
});
