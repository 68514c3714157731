import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { after, before, describe, test } from "node:test";
import type { App } from "@slack/bolt";
import type { Database } from "better-sqlite3";
import { Counter, Registry } from "prom-client";
import { createSlackApp, type SlackApp } from "../../src/bot/app.ts";
import {
  type HttpDriver,
  type SlackEmulator,
  startSlackEmulator,
} from "../../src/playground/slack-emulator/start-slack-emulator.ts";
import { systemClock } from "../../src/shared/clock.ts";
import { createLogger, type Logger } from "../../src/shared/logger.ts";
import { type BotStateStore, createBotStateStore } from "../../src/store/bot-state-store.ts";
import { openDatabase } from "../../src/store/open-database.ts";

const ALICE = "U0ALICE";
const GPUS = "C0GPUS";
const QUIET = "C0QUIET";

interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

/** What the trivial listeners saw: one entry per run. */
interface Seen {
  commands: string[];
  clicks: string[];
  homes: string[];
}

/** A trivial listener set: not the bot's listeners, just enough to prove the wiring. */
function register(seen: Seen) {
  return (app: App) => {
    app.command("/gpu", async ({ ack, command, client }) => {
      seen.commands.push(command.text);
      if (command.text === "post-quiet") {
        await ack();
        await client.chat.postMessage({ channel: QUIET, text: "hello" });
        return;
      }
      await ack({ response_type: "ephemeral", text: `pong ${command.text}` });
      if (command.text === "alert") {
        await client.chat.postMessage({
          channel: command.channel_id,
          text: "gpu-a is idle",
          blocks: [
            {
              type: "actions",
              elements: [
                {
                  type: "button",
                  action_id: "stop_host",
                  value: '{"host":"gpu-a","alertId":1}',
                  text: { type: "plain_text", text: "Stop this host" },
                },
                {
                  type: "button",
                  action_id: "broken_button",
                  text: { type: "plain_text", text: "Broken" },
                },
              ],
            },
          ],
        });
      }
    });
    app.action("stop_host", async ({ ack, body }) => {
      await ack();
      seen.clicks.push(body.user.id);
    });
    app.action("broken_button", async () => {
      throw new Error("the handler broke before its ack");
    });
    app.event("app_home_opened", async ({ event }) => {
      seen.homes.push(event.user);
    });
  };
}

function captureLogger(lines: LogLine[]): Logger {
  return createLogger(
    "info",
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        for (const line of chunk.toString("utf8").split("\n")) if (line !== "") lines.push(JSON.parse(line));
        callback();
      },
    }),
  );
}

class Fixture {
  readonly dir = mkdtempSync(join(tmpdir(), "gpu-warden-app-"));
  readonly logs: LogLine[] = [];
  readonly logger = captureLogger(this.logs);
  readonly seen: Seen = { commands: [], clicks: [], homes: [] };
  emulator!: SlackEmulator;
  db!: Database;
  store!: BotStateStore;

  async open(): Promise<void> {
    this.emulator = await startSlackEmulator({
      users: [{ id: ALICE, name: "alice" }],
      channels: [
        { id: GPUS, name: "gpus" },
        { id: QUIET, name: "quiet", botIsMember: false },
      ],
    });
    this.db = openDatabase(join(this.dir, "state.db"));
    this.store = createBotStateStore(this.db);
  }

  async close(): Promise<void> {
    await this.emulator.close();
    this.db.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

describe("createSlackApp in Socket Mode against the emulator", { timeout: 30_000 }, () => {
  const fx = new Fixture();
  let slack: SlackApp;

  before(async () => {
    await fx.open();
    slack = createSlackApp({
      botToken: fx.emulator.identity.botToken,
      appToken: fx.emulator.identity.appToken,
      signingSecret: "ignored when an app token is given",
      slackApiUrl: fx.emulator.apiUrl,
      logger: fx.logger,
      clock: systemClock,
      deliveries: fx.store.deliveries,
      retryConfig: { retries: 0 },
      connectRetryConfig: { retries: 0 },
      register: register(fx.seen),
    });
    await slack.start();
  });

  after(async () => {
    await slack.stop();
    await fx.close();
  });

  test("it connects over Socket Mode after auth.test (no bot id was given)", () => {
    assert.equal(slack.mode, "socket");
    assert.equal(fx.emulator.attempts("auth.test"), 1);
    assert.equal(fx.emulator.attempts("apps.connections.open"), 1);
    assert.equal(fx.emulator.socket.connectionCount, 1);
    assert.equal(
      fx.logs.some((l) => l.msg === "connected to Slack over Socket Mode"),
      true,
      "the connection is logged",
    );
  });

  test("a slash command and a button click reach the registered listeners", async () => {
    const command = await fx.emulator.slashCommand({ user: ALICE, text: "alert", channel: GPUS });
    assert.deepEqual(command.ackPayload, { response_type: "ephemeral", text: "pong alert" });
    await fx.emulator.waitFor(() => fx.emulator.channel(GPUS).latest !== undefined, "the alert");
    const click = await fx.emulator.clickButton({
      user: ALICE,
      message: fx.emulator.channel(GPUS).latest!,
      actionId: "stop_host",
    });
    assert.equal(click.acked, true);
    assert.deepEqual(fx.seen.commands, ["alert"]);
    assert.deepEqual(fx.seen.clicks, [ALICE]);
  });

  test("Slack redelivering a command, a click or an event runs its listener once, and acks the retry", async () => {
    const command = await fx.emulator.slashCommand({ user: ALICE, text: "once", channel: GPUS });
    const retried = await fx.emulator.replay(command, { attempt: 1, reason: "timeout" });
    assert.equal(retried.acked, true);
    const click = await fx.emulator.clickButton({
      user: ALICE,
      message: fx.emulator.channel(GPUS).latest!,
      actionId: "stop_host",
    });
    await fx.emulator.replay(click, { attempt: 1, reason: "timeout" });
    const home = await fx.emulator.event({ type: "app_home_opened", user: ALICE, tab: "home" });
    await fx.emulator.replay(home, { attempt: 1, reason: "http_timeout" });
    await fx.emulator.replay(home, { attempt: 2, reason: "http_timeout" });
    await fx.emulator.waitFor(() => fx.seen.homes.length === 1, "the home event");
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(fx.seen.commands, ["alert", "once"]);
    assert.deepEqual(fx.seen.clicks, [ALICE, ALICE]);
    assert.deepEqual(fx.seen.homes, [ALICE]);
    assert.equal(fx.logs.filter((l) => l.msg === "duplicate Slack delivery acked and ignored").length, 4);
    assert.deepEqual(fx.emulator.failures(), []);
  });

  test("a listener error is logged with the delivery and an operator hint", async () => {
    await fx.emulator.slashCommand({ user: ALICE, text: "post-quiet", channel: GPUS });
    await fx.emulator.waitFor(() => fx.logs.some((l) => l.slackError === "not_in_channel"), "the error log");
    const line = fx.logs.find((l) => l.slackError === "not_in_channel")!;
    assert.equal(line.level, 50);
    assert.equal(
      line.msg,
      "Slack listener failed (not_in_channel): invite the bot: type /invite @gpu-warden in the channel",
    );
    assert.deepEqual(line.delivery, {
      kind: "command",
      command: "/gpu",
      text: "post-quiet",
      user: ALICE,
      channel: GPUS,
    });
  });

  test("the receiver does not log that listener error a second time", () => {
    assert.deepEqual(
      fx.logs.filter((l) => l.level >= 50).map((l) => l.msg),
      ["Slack listener failed (not_in_channel): invite the bot: type /invite @gpu-warden in the channel"],
    );
  });
});

describe("createSlackApp in HTTP mode against the emulator", { timeout: 30_000 }, () => {
  const fx = new Fixture();
  const registry = new Registry();
  const polls = new Counter({ name: "gpu_warden_test_polls_total", help: "test", registers: [registry] });
  let slack: SlackApp;
  let baseUrl: string;
  let driver: HttpDriver;

  before(async () => {
    await fx.open();
    polls.inc(3);
    slack = createSlackApp({
      botToken: fx.emulator.identity.botToken,
      signingSecret: fx.emulator.identity.signingSecret,
      botId: fx.emulator.identity.botId,
      botUserId: fx.emulator.identity.botUserId,
      slackApiUrl: fx.emulator.apiUrl,
      port: 0,
      host: "127.0.0.1",
      logger: fx.logger,
      clock: systemClock,
      deliveries: fx.store.deliveries,
      endpoints: { registry, health: () => ({ ok: true, lastPollAtMs: 1_767_000_000_000 }) },
      retryConfig: { retries: 0 },
      register: register(fx.seen),
    });
    const started = await slack.start();
    baseUrl = started.url ?? assert.fail("HTTP mode reports its URL");
    driver = fx.emulator.http(`${baseUrl}/slack/events`);
  });

  after(async () => {
    await slack.stop();
    await fx.close();
  });

  test("signed requests reach the listeners; no auth.test when the bot ids are given", async () => {
    assert.equal(slack.mode, "http");
    const command = await driver.slashCommand({ user: ALICE, text: "alert", channel: GPUS });
    assert.equal(command.httpStatus, 200);
    assert.deepEqual(command.ackPayload, { response_type: "ephemeral", text: "pong alert" });
    await fx.emulator.waitFor(() => fx.emulator.channel(GPUS).latest !== undefined, "the alert");
    const click = await driver.clickButton({
      user: ALICE,
      message: fx.emulator.channel(GPUS).latest!,
      actionId: "stop_host",
    });
    assert.equal(click.httpStatus, 200);
    assert.deepEqual(fx.seen.commands, ["alert"]);
    assert.deepEqual(fx.seen.clicks, [ALICE]);
    assert.equal(fx.emulator.attempts("auth.test"), 0);
  });

  for (const tamper of ["bad_signature", "missing_signature", "stale_timestamp"] as const) {
    test(`a request with a ${tamper.replace("_", " ")} gets 401 and runs nothing`, async () => {
      const before = fx.seen.commands.length;
      const delivery = await driver.slashCommand({ user: ALICE, text: tamper, channel: GPUS, tamper });
      assert.equal(delivery.httpStatus, 401);
      assert.equal(fx.seen.commands.length, before);
    });
  }

  test("an exact replay of a signed request is acked but its listener runs once", async () => {
    const command = await driver.slashCommand({ user: ALICE, text: "replayed", channel: GPUS });
    const replayed = await driver.replayExact(command);
    assert.equal(replayed.httpStatus, 200);
    assert.deepEqual(replayed.request, command.request);
    const click = await driver.clickButton({
      user: ALICE,
      message: fx.emulator.channel(GPUS).latest!,
      actionId: "stop_host",
    });
    assert.equal((await driver.replayExact(click)).httpStatus, 200);
    const home = await driver.event({ type: "app_home_opened", user: ALICE, tab: "home" });
    assert.equal((await driver.replayExact(home)).httpStatus, 200);
    assert.equal((await driver.replay(home, { attempt: 1, reason: "http_timeout" })).httpStatus, 200);
    await fx.emulator.waitFor(() => fx.seen.homes.length === 1, "the home event");
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(fx.seen.commands, ["alert", "replayed"]);
    assert.deepEqual(fx.seen.clicks, [ALICE, ALICE]);
    assert.deepEqual(fx.seen.homes, [ALICE]);
  });

  test("20 concurrent deliveries of the same click run the listener once", async () => {
    const before = fx.seen.clicks.length;
    const click = await driver.clickButton({
      user: ALICE,
      message: fx.emulator.channel(GPUS).latest!,
      actionId: "stop_host",
    });
    const copies = await Promise.all(Array.from({ length: 20 }, () => driver.replayExact(click)));
    assert.deepEqual(
      copies.map((copy) => copy.httpStatus),
      Array.from({ length: 20 }, () => 200),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(fx.seen.clicks.length, before + 1);
  });

  test("/healthz and /metrics answer on the same port", async () => {
    const health = await fetch(`${baseUrl}/healthz`);
    assert.equal(health.status, 200);
    assert.equal(health.headers.get("content-type"), "application/json");
    assert.deepEqual(await health.json(), { ok: true, lastPollAtMs: 1_767_000_000_000 });
    const metrics = await fetch(`${baseUrl}/metrics`);
    assert.equal(metrics.status, 200);
    assert.equal(metrics.headers.get("content-type"), registry.contentType);
    assert.match(await metrics.text(), /^gpu_warden_test_polls_total 3$/m);
  });

  test("the emulator saw no missing acks", () => {
    assert.deepEqual(fx.emulator.failures(), []);
    assert.deepEqual(fx.emulator.internalErrors(), []);
  });

  test("a listener that throws before its ack gets 500 at once, logged once with the delivery", async () => {
    const errorsBefore = fx.logs.filter((l) => l.level >= 50).length;
    const click = await driver.clickButton({
      user: ALICE,
      message: fx.emulator.channel(GPUS).latest!,
      actionId: "broken_button",
    });
    assert.equal(click.httpStatus, 500);
    assert.equal(click.timedOut, false);
    await fx.emulator.waitFor(() => fx.logs.filter((l) => l.level >= 50).length > errorsBefore, "the log");
    await new Promise((resolve) => setTimeout(resolve, 100));
    const errors = fx.logs.filter((l) => l.level >= 50).slice(errorsBefore);
    assert.deepEqual(
      errors.map((l) => [l.msg, l.delivery]),
      [
        [
          "Slack listener failed: the handler broke before its ack",
          { kind: "action", actionId: "broken_button", user: ALICE, channel: GPUS },
        ],
      ],
    );
  });
});

describe("createSlackApp refuses what cannot work, with a hint", { timeout: 30_000 }, () => {
  const fx = new Fixture();

  before(async () => {
    await fx.open();
  });

  after(async () => {
    await fx.close();
  });

  test("no app token and no signing secret", () => {
    assert.throws(
      () =>
        createSlackApp({
          botToken: "xoxb-1",
          logger: fx.logger,
          clock: systemClock,
          deliveries: fx.store.deliveries,
        }),
      /Slack needs SLACK_APP_TOKEN \(Socket Mode\) or SLACK_SIGNING_SECRET \(HTTP mode\) next to SLACK_BOT_TOKEN/,
    );
  });

  test("a wrong bot token fails start() with invalid_auth and says which token to copy", async () => {
    const slack = createSlackApp({
      botToken: "xoxb-wrong",
      appToken: fx.emulator.identity.appToken,
      slackApiUrl: fx.emulator.apiUrl,
      logger: fx.logger,
      clock: systemClock,
      deliveries: fx.store.deliveries,
      retryConfig: { retries: 0 },
      connectRetryConfig: { retries: 0 },
    });
    await assert.rejects(slack.start(), {
      message:
        "Slack: auth.test failed: invalid_auth — SLACK_BOT_TOKEN is wrong or revoked: copy the Bot User OAuth Token (xoxb-…) from OAuth & Permissions of the installed app",
    });
    assert.equal(fx.emulator.attempts("apps.connections.open"), 0);
    await slack.stop();
  });
});
