import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { payloadProblem } from "../../src/bot/payload-problem.ts";
import type { HttpDriver } from "../../src/playground/slack-emulator/http-driver.ts";
import { slackSignature } from "../../src/playground/slack-emulator/start-slack-emulator.ts";
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
    assert.deepEqual(
      h.logs.map((line) => [line.level, line.msg]),
      [[40, "refused a Slack request dated 600 s in the future (Slack allows 300 s either way)"]],
    );
    assert.deepEqual(h.emulator.internalErrors(), []);
  });

  test("a signed but half-formed block_actions payload gets 400 at once and one warning", async () => {
    h = await BotHarness.start({ transport: "http", config: standardConfig({}) });
    const url =
      (await driver().slashCommand({ user: EVE, text: "help" })).request?.url ?? assert.fail("HTTP");
    const send = (payload: unknown) => {
      const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
      const timestampS = nowS();
      return driver().send({
        url,
        body,
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "x-slack-request-timestamp": String(timestampS),
          "x-slack-signature": slackSignature(h.emulator.identity.signingSecret, timestampS, body),
        },
      });
    };
    const halfFormed = await send({
      type: "block_actions",
      user: { id: EVE },
      team: { id: h.emulator.identity.teamId },
      actions: [{ type: "button", block_id: "b" }],
    });
    assert.equal(halfFormed.status, 400);
    assert.ok(halfFormed.elapsedMs < 1_000, `answered in ${halfFormed.elapsedMs} ms`);
    const untyped = await send({ user: { id: EVE } });
    assert.equal(untyped.status, 400);
    assert.deepEqual(
      h.logs.map((line) => [line.level, line.msg]),
      [
        [40, "refused a malformed Slack payload: block_actions action 0 without an action_id"],
        [40, "refused a malformed Slack payload: no type, command or event"],
      ],
    );
    assert.deepEqual(h.emulator.internalErrors(), []);
  });
});
