import assert from "node:assert/strict";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import bolt, { type App as BoltApp } from "@slack/bolt";
import {
  type HttpDriver,
  type SlackEmulator,
  slackSignature,
  startSlackEmulator,
} from "../../src/playground/slack-emulator/start-slack-emulator.ts";
import { boltTestLogger } from "../helpers/bolt-test-logger.ts";

const { App, isValidSlackRequest } = bolt;

const ALICE = "U0ALICE";
const GPUS = "C0GPUS";

interface Seen {
  commands: number;
  events: Array<{ retryNum: number | undefined; retryReason: string | undefined }>;
  logged: string[];
}

/** A minimal HTTP-mode Bolt app: the listeners only exercise the emulator, they are not the bot. */
function buildApp(emulator: SlackEmulator, seen: Seen): BoltApp {
  const app = new App({
    token: emulator.identity.botToken,
    signingSecret: emulator.identity.signingSecret,
    botId: emulator.identity.botId,
    botUserId: emulator.identity.botUserId,
    logger: boltTestLogger(seen.logged),
    clientOptions: {
      slackApiUrl: emulator.apiUrl,
      retryConfig: { retries: 0 },
      timeout: 5000,
      logger: boltTestLogger(seen.logged),
    },
  });
  app.command("/gpu", async ({ ack, respond, client, command }) => {
    seen.commands += 1;
    if (command.text === "slow") {
      await new Promise((resolve) => setTimeout(resolve, 3500));
      return;
    }
    await ack({ response_type: "ephemeral", text: "Working on it" });
    await respond({ response_type: "ephemeral", text: "gpu-a: 0 % for 42 min" });
    await client.chat.postMessage({
      channel: command.channel_id,
      text: "gpu-a is idle",
      blocks: [
        { type: "section", text: { type: "mrkdwn", text: "*gpu-a* is idle" } },
        {
          type: "actions",
          elements: [
            {
              type: "button",
              action_id: "stop_host",
              value: "gpu-a",
              text: { type: "plain_text", text: "Stop" },
            },
          ],
        },
      ],
    });
  });
  app.action("stop_host", async ({ ack, client, body }) => {
    await ack();
    if (body.type !== "block_actions" || body.channel === undefined || body.message === undefined) return;
    await client.chat.update({
      channel: body.channel.id,
      ts: body.message.ts,
      text: "gpu-a stopped",
      blocks: [],
    });
  });
  app.event("app_home_opened", async ({ event, client, context }) => {
    seen.events.push({ retryNum: context.retryNum, retryReason: context.retryReason });
    await client.views.publish({
      user_id: event.user,
      view: {
        type: "home",
        blocks: [{ type: "section", text: { type: "mrkdwn", text: "No GPUs claimed" } }],
      },
    });
  });
  return app;
}

describe("slack emulator delivering signed HTTP requests to a real Bolt HTTPReceiver", {
  timeout: 30_000,
}, () => {
  let emulator: SlackEmulator;
  let app: BoltApp;
  let driver: HttpDriver;
  const seen: Seen = { commands: 0, events: [], logged: [] };

  before(
    async () => {
      emulator = await startSlackEmulator({
        users: [{ id: ALICE, name: "alice", tz: "Asia/Tokyo" }],
        channels: [{ id: GPUS, name: "gpus" }],
      });
      app = buildApp(emulator, seen);
      const server = (await app.start(0)) as Server;
      const { port } = server.address() as AddressInfo;
      driver = emulator.http(`http://127.0.0.1:${port}/slack/events`);
    },
    { timeout: 15_000 },
  );

  after(async () => {
    await app.stop();
    await emulator.close();
  });

  test("a slash command: the 200 body is the ack, then respond() and chat.postMessage", async () => {
    const delivery = await driver.slashCommand({ user: ALICE, text: "status", channel: GPUS });
    assert.equal(delivery.httpStatus, 200);
    assert.equal(delivery.acked, true);
    assert.deepEqual(delivery.ackPayload, { response_type: "ephemeral", text: "Working on it" });
    assert.equal(delivery.request?.headers["content-type"], "application/x-www-form-urlencoded");
    await emulator.waitFor(() => emulator.channel(GPUS).messages.length === 1, "the alert");
    await emulator.waitFor(() => emulator.ephemerals(ALICE).length === 2, "the respond() reply");
    assert.deepEqual(
      emulator.ephemerals(ALICE).map((m) => [m.text, m.via]),
      [
        ["Working on it", "ack"],
        ["gpu-a: 0 % for 42 min", "response_url"],
      ],
    );
    assert.equal(emulator.channel(GPUS).latest?.text, "gpu-a is idle");
  });

  test("a button click arrives as a form-encoded payload and the handler edits the message", async () => {
    const alert = emulator.channel(GPUS).latest;
    assert.ok(alert !== undefined);
    const click = await driver.clickButton({ user: ALICE, message: alert, actionId: "stop_host" });
    assert.equal(click.acked, true);
    assert.match(click.request?.body ?? "", /^payload=%7B/);
    await emulator.waitFor(() => emulator.channel(GPUS).latest?.text === "gpu-a stopped", "the edit");
    assert.deepEqual(emulator.channel(GPUS).latest?.blocks, []);
    assert.equal(emulator.channel(GPUS).latest?.edits.length, 1);
  });

  test("app_home_opened arrives as a JSON event_callback and publishes the Home tab", async () => {
    const delivery = await driver.event({ type: "app_home_opened", user: ALICE });
    assert.equal(delivery.acked, true);
    assert.equal(delivery.request?.headers["content-type"], "application/json");
    await emulator.waitFor(() => emulator.home(ALICE) !== undefined, "the Home tab");
    assert.deepEqual(emulator.home(ALICE)?.view.blocks, [
      { type: "section", text: { type: "mrkdwn", text: "No GPUs claimed" } },
    ]);
  });

  test("the driver signs exactly as Slack does (Bolt's own verifier agrees)", async () => {
    const delivery = await driver.event({ type: "app_home_opened", user: ALICE });
    const request = delivery.request;
    assert.ok(request !== undefined);
    const timestampS = Number(request.headers["x-slack-request-timestamp"]);
    assert.equal(
      request.headers["x-slack-signature"],
      slackSignature(emulator.identity.signingSecret, timestampS, request.body),
    );
    assert.equal(
      isValidSlackRequest({
        signingSecret: emulator.identity.signingSecret,
        body: request.body,
        headers: {
          "x-slack-signature": request.headers["x-slack-signature"] ?? "",
          "x-slack-request-timestamp": timestampS,
        },
      }),
      true,
    );
  });

  for (const tamper of ["bad_signature", "missing_signature", "stale_timestamp"] as const) {
    test(`Bolt answers 401 to a ${tamper.replace("_", " ")} and runs no listener`, async () => {
      const before = seen.commands;
      const delivery = await driver.slashCommand({ user: ALICE, text: "status", channel: GPUS, tamper });
      assert.equal(delivery.httpStatus, 401);
      assert.equal(delivery.acked, false);
      assert.equal(seen.commands, before);
    });
  }

  test("an exact replay of a signed request is accepted and handled again (the app must de-duplicate)", async () => {
    const before = seen.events.length;
    const first = await driver.event({ type: "app_home_opened", user: ALICE });
    const replayed = await driver.replayExact(first);
    assert.equal(replayed.httpStatus, 200);
    assert.deepEqual(replayed.request, first.request);
    await emulator.waitFor(() => seen.events.length === before + 2, "both deliveries");
    assert.deepEqual(seen.events.slice(before), [
      { retryNum: undefined, retryReason: undefined },
      { retryNum: undefined, retryReason: undefined },
    ]);
  });

  test("a Slack retry carries X-Slack-Retry-Num and X-Slack-Retry-Reason", async () => {
    const first = await driver.event({ type: "app_home_opened", user: ALICE });
    const retried = await driver.replay(first, { attempt: 1, reason: "http_timeout" });
    assert.equal(retried.request?.headers["x-slack-retry-num"], "1");
    assert.equal(retried.request?.headers["x-slack-retry-reason"], "http_timeout");
    assert.equal(retried.request?.body, first.request?.body);
    await emulator.waitFor(() => seen.events.some((e) => e.retryNum === 1), "the retry");
    assert.deepEqual(seen.events.at(-1), { retryNum: 1, retryReason: "http_timeout" });
  });

  test("tampered requests are not counted as Slack-side failures", async () => {
    const before = { failures: emulator.failures(), ephemerals: emulator.ephemerals(ALICE).length };
    for (const tamper of ["bad_signature", "missing_signature", "stale_timestamp"] as const) {
      const delivery = await driver.slashCommand({ user: ALICE, text: "status", channel: GPUS, tamper });
      assert.equal(delivery.httpStatus, 401, tamper);
      assert.equal(delivery.acked, false, tamper);
    }
    assert.deepEqual(emulator.failures(), before.failures);
    assert.equal(
      emulator.ephemerals(ALICE).length,
      before.ephemerals,
      "Slack shows the user no failure either",
    );
  });

  test("a command not acked within 3 s is recorded as operation_timeout and shown to the user", async () => {
    const delivery = await driver.slashCommand({ user: ALICE, text: "slow", channel: GPUS });
    assert.equal(delivery.acked, false);
    assert.equal(delivery.timedOut, true);
    assert.deepEqual(
      emulator.failures().map((f) => [f.kind, f.transport, f.what, f.user]),
      [["operation_timeout", "http", "/gpu", ALICE]],
    );
    assert.equal(emulator.ephemerals(ALICE).at(-1)?.text, '/gpu failed with the error "operation_timeout"');
    await emulator.waitFor(() => seen.logged.length > 0, "Bolt's own complaint");
    assert.match(seen.logged[0] ?? "", /not acknowledged within 3 seconds/);
  });

  test("the emulator itself raised no errors", () => {
    assert.deepEqual(emulator.internalErrors(), []);
  });
});
