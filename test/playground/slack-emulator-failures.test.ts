import assert from "node:assert/strict";
import { after, afterEach, before, beforeEach, describe, test } from "node:test";
import bolt from "@slack/bolt";
import {
  type SlackEmulator,
  startSlackEmulator,
} from "../../src/playground/slack-emulator/start-slack-emulator.ts";
import { ManualClock, MINUTE_MS } from "../../src/shared/clock.ts";
import { boltTestLogger } from "../helpers/bolt-test-logger.ts";

const { App, SocketModeReceiver } = bolt;
const { WebClient, WebClientEvent } = bolt.webApi;

const GENERAL = "C0GENERAL";
const ALICE = "U0ALICE";

/** A client that retries fast: 10 ms between attempts instead of minutes. */
function fastClient(emulator: SlackEmulator, retries: number, extra: Record<string, unknown> = {}) {
  return new WebClient(emulator.identity.botToken, {
    slackApiUrl: emulator.apiUrl,
    retryConfig: { retries, factor: 1, minTimeout: 10, maxTimeout: 10 },
    logger: boltTestLogger(),
    ...extra,
  });
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => assert.fail("the call succeeded"),
    (error: unknown) =>
      error as { code?: string; statusCode?: number; retryAfter?: number; data?: { error?: string } },
  );

describe("failure injection, observed through web-api's own retries", { timeout: 30_000 }, () => {
  let emulator: SlackEmulator;
  const clock = new ManualClock(Date.parse("2026-03-02T09:00:00Z"));

  beforeEach(async () => {
    emulator = await startSlackEmulator({ clock });
  });

  afterEach(async () => {
    await emulator.close();
  });

  test("two 503s, then the third attempt posts the message exactly once", async () => {
    const rule = emulator.failNext("chat.postMessage", { status: 503 }, 2);
    await fastClient(emulator, 2).chat.postMessage({ channel: GENERAL, text: "gpu-a is idle" });
    assert.equal(rule.hits, 2);
    assert.equal(emulator.attempts("chat.postMessage"), 3);
    assert.deepEqual(
      emulator.calls("chat.postMessage").map((c) => c.error),
      ["http_503", "http_503", undefined],
    );
    assert.deepEqual(
      emulator.channel(GENERAL).messages.map((m) => m.text),
      ["gpu-a is idle"],
    );
  });

  test("a 503 with no retries left surfaces as WebAPIHTTPError and posts nothing", async () => {
    emulator.failNext("chat.postMessage", { status: 503 });
    const error = await failure(fastClient(emulator, 0).chat.postMessage({ channel: GENERAL, text: "x" }));
    assert.equal(error.code, "slack_webapi_http_error");
    assert.equal(error.statusCode, 503);
    assert.deepEqual(emulator.channel(GENERAL).history, []);
  });

  test("429 with Retry-After: the client waits that long, retries, and posts once", async () => {
    emulator.failNext("chat.postMessage", { status: 429, retryAfterS: 1 });
    const client = fastClient(emulator, 1);
    const pauses: number[] = [];
    client.on(WebClientEvent.RATE_LIMITED, (retryAfterS: number) => pauses.push(retryAfterS));
    await client.chat.postMessage({ channel: GENERAL, text: "gpu-a is idle" });
    assert.deepEqual(pauses, [1]);
    assert.deepEqual(
      emulator.calls("chat.postMessage").map((c) => [c.status, c.error]),
      [
        [429, "http_429"],
        [200, undefined],
      ],
    );
    assert.equal(emulator.channel(GENERAL).messages.length, 1);
  });

  test("a rate limit answers 429 past its budget; rejectRateLimitedCalls reads the Retry-After", async () => {
    emulator.rateLimit("chat.update", 1, MINUTE_MS, 7);
    const client = fastClient(emulator, 0, { rejectRateLimitedCalls: true });
    const posted = await client.chat.postMessage({ channel: GENERAL, text: "v1" });
    await client.chat.update({ channel: GENERAL, ts: posted.ts ?? "", text: "v2" });
    const error = await failure(client.chat.update({ channel: GENERAL, ts: posted.ts ?? "", text: "v3" }));
    assert.equal(error.code, "slack_webapi_rate_limited_error");
    assert.equal(error.retryAfter, 7);
    clock.advance(MINUTE_MS);
    await client.chat.update({ channel: GENERAL, ts: posted.ts ?? "", text: "v3" });
    assert.deepEqual(
      emulator.channel(GENERAL).latest?.edits.map((e) => e.text),
      ["v1", "v2"],
    );
  });

  test("a window on '*' fails every method until the clock passes it", async () => {
    emulator.failFor("*", { status: 503 }, 10 * MINUTE_MS);
    const client = fastClient(emulator, 0);
    assert.equal((await failure(client.chat.postMessage({ channel: GENERAL, text: "a" }))).statusCode, 503);
    assert.equal((await failure(client.users.info({ user: ALICE }))).statusCode, 503);
    clock.advance(10 * MINUTE_MS);
    await client.chat.postMessage({ channel: GENERAL, text: "a" });
    assert.deepEqual(
      emulator.channel(GENERAL).messages.map((m) => m.text),
      ["a"],
    );
  });

  test("an outage then recovery: a caller that retries in order delivers every message once, in order", async () => {
    emulator.failNext("chat.postMessage", { status: 503 }, 3);
    emulator.failNext("chat.postMessage", { status: 429, retryAfterS: 0 }, 2);
    const client = fastClient(emulator, 0, { rejectRateLimitedCalls: true });
    for (const text of ["first", "second", "third"]) {
      for (;;) {
        const sent = await client.chat.postMessage({ channel: GENERAL, text }).then(
          () => true,
          (error: { code?: string }) => {
            assert.ok(
              ["slack_webapi_http_error", "slack_webapi_rate_limited_error"].includes(error.code ?? ""),
            );
            return false;
          },
        );
        if (sent) break;
      }
    }
    assert.equal(emulator.attempts("chat.postMessage"), 8);
    assert.deepEqual(
      emulator.channel(GENERAL).messages.map((m) => m.text),
      ["first", "second", "third"],
    );
  });

  test("a platform error answers 200 {ok:false} and is not retried", async () => {
    emulator.failNext("chat.postMessage", { error: "fatal_error" });
    const error = await failure(fastClient(emulator, 3).chat.postMessage({ channel: GENERAL, text: "x" }));
    assert.equal(error.data?.error, "fatal_error");
    assert.equal(emulator.attempts("chat.postMessage"), 1);
  });

  test("a hanging call is cut by the client's timeout and recorded as a hang", async () => {
    emulator.failNext("chat.update", { hang: true });
    const client = fastClient(emulator, 0, { timeout: 200 });
    const posted = await client.chat.postMessage({ channel: GENERAL, text: "v1" });
    const error = await failure(client.chat.update({ channel: GENERAL, ts: posted.ts ?? "", text: "v2" }));
    assert.equal(error.code, "slack_webapi_request_error");
    assert.deepEqual(
      emulator.calls("chat.update").map((c) => c.error),
      ["hang"],
    );
    assert.equal(emulator.channel(GENERAL).latest?.text, "v1");
  });

  test("hangAfter: the call is done (the message posted) and its answer never comes", async () => {
    emulator.failNext("chat.postMessage", { hangAfter: true });
    const client = fastClient(emulator, 0, { timeout: 200 });
    const error = await failure(client.chat.postMessage({ channel: GENERAL, text: "held" }));
    assert.equal(error.code, "slack_webapi_request_error");
    assert.deepEqual(
      emulator.calls("chat.postMessage").map((c) => c.error),
      ["hang"],
    );
    assert.equal(emulator.channel(GENERAL).latest?.text, "held");
  });

  test("a slow answer past the client timeout, retried, posts the message twice (Slack has no idempotency key)", async () => {
    emulator.failNext("chat.postMessage", { delayMs: 300 });
    const client = fastClient(emulator, 1, { timeout: 100 });
    await client.chat.postMessage({ channel: GENERAL, text: "gpu-a is idle" });
    await emulator.waitFor(() => emulator.channel(GENERAL).messages.length === 2, "the slow first attempt");
    assert.deepEqual(
      emulator.channel(GENERAL).messages.map((m) => m.text),
      ["gpu-a is idle", "gpu-a is idle"],
    );
  });
});

describe("response_url semantics", { timeout: 30_000 }, () => {
  let emulator: SlackEmulator;
  const clock = new ManualClock(Date.parse("2026-03-02T09:00:00Z"));

  before(async () => {
    emulator = await startSlackEmulator({ clock });
  });

  after(async () => {
    await emulator.close();
  });

  const post = async (url: string, body: unknown) => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  test("replace_original edits the message the button was on; delete_original removes it", async () => {
    const client = fastClient(emulator, 0);
    const posted = await client.chat.postMessage({ channel: GENERAL, text: "gpu-a idle" });
    const message = { kind: "message", channel: GENERAL, ts: posted.ts ?? "" } as const;
    const url = emulator.state.issueResponseUrl(emulator.url, ALICE, GENERAL, message);
    assert.equal((await post(url, { replace_original: true, text: "gpu-a kept for 1 h" })).status, 200);
    assert.equal(emulator.channel(GENERAL).latest?.text, "gpu-a kept for 1 h");
    assert.equal((await post(url, { response_type: "in_channel", text: "kept by alice" })).status, 200);
    assert.deepEqual(
      emulator.channel(GENERAL).messages.map((m) => m.text),
      ["gpu-a kept for 1 h", "kept by alice"],
    );
    assert.equal((await post(url, { delete_original: true })).status, 200);
    assert.deepEqual(
      emulator.channel(GENERAL).messages.map((m) => m.text),
      ["kept by alice"],
    );
  });

  test("invalid blocks are refused with 400; a URL takes five replies within 30 minutes", async () => {
    const url = emulator.state.issueResponseUrl(emulator.url, ALICE, GENERAL, { kind: "none" });
    const bad = await post(url, {
      blocks: [{ type: "header", text: { type: "plain_text", text: "x".repeat(151) } }],
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error, "invalid_blocks");
    for (let i = 1; i <= 5; i += 1) assert.equal((await post(url, { text: `reply ${i}` })).status, 200);
    assert.deepEqual(await post(url, { text: "reply 6" }), {
      status: 404,
      body: { ok: false, error: "used_url" },
    });
    assert.equal(emulator.ephemerals(ALICE).length, 5);
    const later = emulator.state.issueResponseUrl(emulator.url, ALICE, GENERAL, { kind: "none" });
    clock.advance(31 * MINUTE_MS);
    assert.deepEqual(await post(later, { text: "late" }), {
      status: 404,
      body: { ok: false, error: "expired_url" },
    });
  });

  test("response_url can be failed too", async () => {
    const url = emulator.state.issueResponseUrl(emulator.url, ALICE, GENERAL, { kind: "none" });
    emulator.failNext("response_url", { status: 500 });
    const response = await fetch(url, { method: "POST", body: JSON.stringify({ text: "x" }) });
    assert.equal(response.status, 500);
    await response.arrayBuffer();
  });
});

describe("Socket Mode reconnects through apps.connections.open (own SocketModeReceiver)", {
  timeout: 30_000,
}, () => {
  test("after a disconnect the app reconnects and still gets envelopes", async () => {
    const emulator = await startSlackEmulator();
    const receiver = new SocketModeReceiver({
      appToken: emulator.identity.appToken,
      clientPingTimeout: 200,
      logger: boltTestLogger(),
      installerOptions: { clientOptions: { slackApiUrl: emulator.apiUrl, retryConfig: { retries: 0 } } },
    });
    const app = new App({
      token: emulator.identity.botToken,
      botId: emulator.identity.botId,
      botUserId: emulator.identity.botUserId,
      receiver,
      logger: boltTestLogger(),
      clientOptions: { slackApiUrl: emulator.apiUrl, retryConfig: { retries: 0 } },
    });
    app.command("/gpu", async ({ ack }) => {
      await ack("pong");
    });
    try {
      await app.start();
      emulator.socket.disconnect("refresh_requested");
      await emulator.waitFor(() => emulator.attempts("apps.connections.open") === 2, "the reconnect");
      await emulator.socket.waitForConnection();
      const delivery = await emulator.slashCommand({ user: ALICE, text: "ping" });
      assert.deepEqual(delivery.ackPayload, { text: "pong" });
      assert.equal(emulator.ephemerals(ALICE).at(-1)?.text, "pong");
    } finally {
      await app.stop();
      await receiver.client.disconnect();
      await emulator.close();
    }
  });
});
