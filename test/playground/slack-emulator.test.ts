import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import bolt, { type App as BoltApp } from "@slack/bolt";
import {
  type SlackEmulator,
  startSlackEmulator,
} from "../../src/playground/slack-emulator/start-slack-emulator.ts";
import { boltTestLogger } from "../helpers/bolt-test-logger.ts";

const { App } = bolt;
const { WebAPIPlatformError } = bolt.webApi;

interface Seen {
  commands: number;
  retryNums: Array<number | undefined>;
  refusals: unknown[];
  logged: string[];
}

const ALICE = "U0ALICE";
const BOB = "U0BOB";
const GPUS = "C0GPUS";
const QUIET = "C0QUIET";

const alertBlocks = (host: string) => [
  {
    type: "section",
    block_id: "alert",
    text: { type: "mrkdwn", text: `*${host}* has been idle for 42 min` },
  },
  {
    type: "actions",
    block_id: "alert_actions",
    elements: [
      {
        type: "button",
        action_id: "stop_host",
        value: host,
        style: "danger",
        text: { type: "plain_text", text: "Stop this host" },
        confirm: {
          title: { type: "plain_text", text: "Stop gpu-a?" },
          text: { type: "mrkdwn", text: "This powers the host off." },
          confirm: { type: "plain_text", text: "Stop" },
          deny: { type: "plain_text", text: "Cancel" },
        },
      },
      {
        type: "button",
        action_id: "keep_host",
        value: `${host}:1h`,
        text: { type: "plain_text", text: "Keep 1 h" },
      },
    ],
  },
];

/** A minimal Bolt app: the listeners only exercise the emulator, they are not the bot. */
function buildApp(emulator: SlackEmulator, seen: Seen): BoltApp {
  const app = new App({
    token: emulator.identity.botToken,
    appToken: emulator.identity.appToken,
    socketMode: true,
    logger: boltTestLogger(seen.logged),
    clientOptions: {
      slackApiUrl: emulator.apiUrl,
      retryConfig: { retries: 0 },
      timeout: 5000,
      logger: boltTestLogger(seen.logged),
    },
  });
  app.command("/gpu", async ({ ack, respond, client, command, context }) => {
    seen.commands += 1;
    seen.retryNums.push(context.retryNum);
    if (command.text === "modal") {
      await ack();
      await client.views.open({
        trigger_id: command.trigger_id,
        view: {
          type: "modal",
          callback_id: "keep_modal",
          title: { type: "plain_text", text: "Keep a host" },
          submit: { type: "plain_text", text: "Keep" },
          blocks: [
            {
              type: "input",
              block_id: "duration",
              label: { type: "plain_text", text: "For how long" },
              element: { type: "plain_text_input", action_id: "value" },
            },
          ],
        },
      });
      return;
    }
    if (command.text === "huge") {
      await ack();
      const sections = Array.from({ length: 51 }, (_, i) => ({
        type: "section",
        text: { type: "mrkdwn", text: `gpu-${i}` },
      }));
      const refusal = await client.chat
        .postMessage({ channel: command.channel_id, text: "fleet", blocks: sections })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      seen.refusals.push(refusal);
      const code = refusal instanceof WebAPIPlatformError ? refusal.data.error : "none";
      await respond({ response_type: "ephemeral", text: `Slack refused the board: ${code}` });
      return;
    }
    if (command.text === "slow") {
      await new Promise((resolve) => setTimeout(resolve, 3500));
      await ack();
      return;
    }
    await ack();
    await respond({ response_type: "ephemeral", text: "Checking gpu-a…" });
    await client.chat.postMessage({
      channel: command.channel_id,
      text: "gpu-a is idle",
      blocks: alertBlocks("gpu-a"),
    });
  });
  app.action("stop_host", async ({ ack, client, body, respond }) => {
    await ack();
    if (body.type !== "block_actions" || body.channel === undefined || body.message === undefined) return;
    const action = body.actions[0];
    const host = action?.type === "button" ? action.value : "?";
    await client.chat.update({
      channel: body.channel.id,
      ts: body.message.ts,
      text: `${host} stopped`,
      blocks: [
        { type: "section", text: { type: "mrkdwn", text: `*${host}* stopped by <@${body.user.id}>` } },
      ],
    });
    await client.chat.postMessage({
      channel: body.channel.id,
      thread_ts: body.message.ts,
      text: "exit code 0",
    });
    await respond({ response_type: "ephemeral", replace_original: false, text: "Done." });
  });
  app.action("keep_host", async ({ ack }) => {
    await ack();
  });
  app.action("refresh_home", async ({ ack, client, body }) => {
    await ack();
    if (body.type !== "block_actions" || body.view === undefined) return;
    await client.views.update({
      view_id: body.view.id,
      hash: body.view.hash,
      view: { type: "home", blocks: [{ type: "section", text: { type: "mrkdwn", text: "Refreshed" } }] },
    });
  });
  app.view("keep_modal", async ({ ack, view }) => {
    const value = view.state.values.duration?.value?.value ?? "";
    if (!/^\d+h$/.test(value)) {
      await ack({ response_action: "errors", errors: { duration: "Use a duration like 4h" } });
      return;
    }
    await ack();
  });
  app.event("app_home_opened", async ({ event, client }) => {
    if (event.tab !== "home") return;
    const info = await client.users.info({ user: event.user });
    await client.views.publish({
      user_id: event.user,
      view: {
        type: "home",
        blocks: [
          { type: "header", text: { type: "plain_text", text: "Your GPUs" } },
          { type: "section", text: { type: "mrkdwn", text: `Times in ${info.user?.tz ?? "?"}` } },
        ],
      },
    });
  });
  return app;
}

describe("slack emulator over Socket Mode with a real Bolt app", { timeout: 30_000 }, () => {
  let emulator: SlackEmulator;
  let app: BoltApp;
  const seen: Seen = { commands: 0, retryNums: [], refusals: [], logged: [] };

  before(
    async () => {
      emulator = await startSlackEmulator({
        users: [
          { id: ALICE, name: "alice", tz: "Europe/Berlin" },
          { id: BOB, name: "bob", tz: "America/New_York" },
        ],
        channels: [
          { id: GPUS, name: "gpus" },
          { id: QUIET, name: "quiet", botIsMember: false },
        ],
      });
      app = buildApp(emulator, seen);
      await app.start();
    },
    { timeout: 15_000 },
  );

  after(async () => {
    await app.stop();
    await emulator.close();
  });

  test("the app connects with hello after auth.test and apps.connections.open", () => {
    assert.equal(emulator.socket.connectionCount, 1);
    assert.equal(emulator.calls("auth.test")[0]?.token, emulator.identity.botToken);
    assert.equal(emulator.calls("apps.connections.open")[0]?.token, emulator.identity.appToken);
  });

  test("a slash command is acked, answered ephemerally and posts an alert with buttons", async () => {
    const delivery = await emulator.slashCommand({ user: ALICE, text: "status", channel: GPUS });
    assert.equal(delivery.acked, true);
    assert.deepEqual(delivery.ackPayload, {});
    await emulator.waitFor(() => emulator.channel(GPUS).messages.length === 1, "the alert");
    const alert = emulator.channel(GPUS).latest;
    assert.equal(alert?.text, "gpu-a is idle");
    assert.equal(alert?.user, emulator.identity.botUserId);
    assert.deepEqual(
      alert?.blocks.map((b) => b.block_id),
      ["alert", "alert_actions"],
    );
    assert.deepEqual(
      emulator.ephemerals(ALICE).map((m) => [m.channel, m.text, m.via]),
      [[GPUS, "Checking gpu-a…", "response_url"]],
    );
    assert.deepEqual(emulator.ephemerals(BOB), []);
  });

  test("a button click is acked, edits the alert in place and replies in its thread", async () => {
    const alert = emulator.channel(GPUS).latest;
    assert.ok(alert !== undefined);
    const click = await emulator.clickButton({ user: BOB, message: alert, actionId: "stop_host" });
    assert.equal(click.acked, true);
    assert.match(click.responseUrl ?? "", /^http:\/\/127\.0\.0\.1:\d+\/response\//);
    await emulator.waitFor(() => emulator.channel(GPUS).thread(alert.ts).length === 1, "the thread reply");
    await emulator.waitFor(() => emulator.ephemerals(BOB).length === 1, "the ephemeral");
    const edited = emulator.channel(GPUS).latest;
    assert.equal(edited?.ts, alert.ts);
    assert.equal(edited?.text, "gpu-a stopped");
    assert.deepEqual(edited?.blocks[0]?.text, { type: "mrkdwn", text: `*gpu-a* stopped by <@${BOB}>` });
    assert.deepEqual(
      edited?.edits.map((e) => e.text),
      ["gpu-a is idle"],
    );
    assert.deepEqual(
      emulator
        .channel(GPUS)
        .thread(alert.ts)
        .map((m) => m.text),
      ["exit code 0"],
    );
    assert.equal(emulator.channel(GPUS).messages.length, 1);
    assert.deepEqual(
      emulator.ephemerals(BOB).map((m) => m.text),
      ["Done."],
    );
  });

  test("the click payload looks like Slack's block_actions", async () => {
    const posted = await emulator.slashCommand({ user: ALICE, text: "status", channel: GPUS });
    assert.equal(posted.acked, true);
    await emulator.waitFor(() => emulator.channel(GPUS).messages.length === 2, "a second alert");
    const alert = emulator.channel(GPUS).latest;
    assert.ok(alert !== undefined);
    const click = await emulator.clickButton({
      user: ALICE,
      message: alert,
      actionId: "keep_host",
      value: "gpu-a:1h",
    });
    const payload = click.envelope.payload;
    assert.equal(click.envelope.type, "interactive");
    assert.equal(payload.type, "block_actions");
    assert.deepEqual(payload.container, {
      type: "message",
      message_ts: alert.ts,
      channel_id: GPUS,
      is_ephemeral: false,
    });
    assert.deepEqual(payload.channel, { id: GPUS, name: "gpus" });
    const actions = payload.actions as Array<Record<string, unknown>>;
    assert.equal(actions[0]?.action_id, "keep_host");
    assert.equal(actions[0]?.block_id, "alert_actions");
    assert.equal(actions[0]?.value, "gpu-a:1h");
    assert.equal(typeof payload.trigger_id, "string");
    await assert.rejects(
      emulator.clickButton({ user: ALICE, message: alert, actionId: "claim_host" }),
      /no button claim_host on screen/,
    );
  });

  test("app_home_opened publishes the Home tab, with the user's time zone from users.info", async () => {
    const delivery = await emulator.event({ type: "app_home_opened", user: ALICE });
    assert.equal(delivery.acked, true);
    await emulator.waitFor(() => emulator.home(ALICE) !== undefined, "the Home tab");
    const home = emulator.home(ALICE);
    assert.equal(home?.type, "home");
    assert.deepEqual(home?.view.blocks, [
      { type: "header", text: { type: "plain_text", text: "Your GPUs" } },
      { type: "section", text: { type: "mrkdwn", text: "Times in Europe/Berlin" } },
    ]);
    const event = delivery.envelope.payload.event as Record<string, unknown>;
    assert.equal(event.tab, "home");
    assert.match(String(event.channel), /^D/);
  });

  test("a Home tab button arrives with a view container and no response_url", async () => {
    await app.client.views.publish({
      user_id: BOB,
      view: {
        type: "home",
        blocks: [
          {
            type: "actions",
            elements: [
              { type: "button", action_id: "refresh_home", text: { type: "plain_text", text: "Refresh" } },
            ],
          },
        ],
      },
    });
    const home = emulator.home(BOB);
    assert.ok(home !== undefined);
    const click = await emulator.clickButton({ user: BOB, view: home, actionId: "refresh_home" });
    assert.deepEqual(click.envelope.payload.container, { type: "view", view_id: home.id });
    assert.equal(click.responseUrl, undefined);
    await emulator.waitFor(() => emulator.home(BOB)?.versions.length === 1, "the refreshed Home tab");
    assert.deepEqual(emulator.home(BOB)?.view.blocks, [
      { type: "section", text: { type: "mrkdwn", text: "Refreshed" } },
    ]);
  });

  test("a modal opened with the command's trigger_id shows field errors, then closes on a valid submit", async () => {
    const command = await emulator.slashCommand({ user: ALICE, text: "modal", channel: GPUS });
    assert.equal(command.acked, true);
    await emulator.waitFor(() => emulator.modals(ALICE).length === 1, "the modal");
    const rejected = await emulator.submitView({ user: ALICE, values: { duration: { value: "soon" } } });
    assert.deepEqual(rejected.ackPayload, {
      response_action: "errors",
      errors: { duration: "Use a duration like 4h" },
    });
    assert.deepEqual(emulator.modals(ALICE)[0]?.errors, { duration: "Use a duration like 4h" });
    const accepted = await emulator.submitView({ user: ALICE, values: { duration: { value: "4h" } } });
    assert.equal(accepted.acked, true);
    assert.deepEqual(emulator.modals(ALICE), []);
    const view = accepted.envelope.payload.view as { state: { values: unknown } };
    assert.deepEqual(view.state.values, { duration: { value: { type: "plain_text_input", value: "4h" } } });
  });

  test("a trigger_id is single-use", async () => {
    const command = await emulator.slashCommand({ user: BOB, text: "modal", channel: GPUS });
    await emulator.waitFor(() => emulator.modals(BOB).length === 1, "bob's modal");
    const reuse = await app.client.views
      .open({
        trigger_id: command.triggerId ?? "",
        view: { type: "modal", title: { type: "plain_text", text: "Again" }, blocks: [] },
      })
      .catch((error: unknown) => error);
    assert.equal((reuse as { data?: { error?: string } }).data?.error, "exchanged_trigger_id");
  });

  test("a replayed envelope reaches the app again, with retry_attempt as context.retryNum", async () => {
    const before = seen.commands;
    const posted = emulator.channel(GPUS).history.length;
    const first = await emulator.slashCommand({ user: ALICE, text: "status", channel: GPUS });
    const again = await emulator.replay(first, { attempt: 1, reason: "timeout" });
    assert.equal(again.envelope.envelopeId, first.envelope.envelopeId);
    assert.equal(again.acked, true);
    assert.equal(seen.commands, before + 2);
    assert.deepEqual(seen.retryNums.slice(-2), [undefined, 1]);
    await emulator.waitFor(
      () => emulator.channel(GPUS).history.length === posted + 2,
      "one alert per delivery",
    );
  });

  test("an over-limit message makes the listener's client throw WebAPIPlatformError invalid_blocks", async () => {
    const before = emulator.channel(GPUS).history.length;
    await emulator.slashCommand({ user: BOB, text: "huge", channel: GPUS });
    await emulator.waitFor(() => seen.refusals.length === 1, "the refusal");
    const refusal = seen.refusals[0];
    assert.ok(refusal instanceof WebAPIPlatformError);
    assert.equal(refusal.data.error, "invalid_blocks");
    assert.deepEqual(refusal.data.response_metadata?.messages, [
      "[ERROR] no more than 50 items allowed [json-pointer:/blocks]",
    ]);
    await emulator.waitFor(
      () => emulator.ephemerals(BOB).at(-1)?.text === "Slack refused the board: invalid_blocks",
      "the reply",
    );
    assert.equal(emulator.channel(GPUS).history.length, before);
    assert.deepEqual(seen.logged, ["no more than 50 items allowed [json-pointer:/blocks]"]);
  });

  test("posting where the bot is not a member fails with not_in_channel until it joins", async () => {
    const refused = await app.client.chat
      .postMessage({ channel: QUIET, text: "hello" })
      .catch((error: unknown) => error);
    assert.equal((refused as { data?: { error?: string } }).data?.error, "not_in_channel");
    await app.client.conversations.join({ channel: QUIET });
    await app.client.chat.postMessage({ channel: QUIET, text: "hello" });
    assert.deepEqual(
      emulator.channel(QUIET).messages.map((m) => m.text),
      ["hello"],
    );
  });

  test("a DM goes to the user's own conversation with the bot", async () => {
    const opened = await app.client.conversations.open({ users: BOB });
    const dm = opened.channel?.id ?? "";
    await app.client.chat.postMessage({ channel: dm, text: "gpu-a is yours until 18:00" });
    assert.deepEqual(
      emulator.dms(BOB).map((m) => m.text),
      ["gpu-a is yours until 18:00"],
    );
    assert.deepEqual(emulator.dms(ALICE), []);
  });

  test("filesUploadV2 uploads the bytes and shares the file in the channel", async () => {
    await app.client.filesUploadV2({
      channel_id: GPUS,
      filename: "usage.csv",
      content: "host,util\ngpu-a,3\n",
      initial_comment: "Usage for the last 14 days",
    });
    const file = emulator.files().find((f) => f.filename === "usage.csv");
    assert.equal(file?.bytes?.toString("utf8"), "host,util\ngpu-a,3\n");
    assert.deepEqual(file?.channels, [GPUS]);
    const shared = emulator.channel(GPUS).latest;
    assert.equal(shared?.text, "Usage for the last 14 days");
    assert.deepEqual(shared?.fileIds, [file?.id]);
    const history = await app.client.conversations.history({ channel: GPUS, limit: 1 });
    const [seen] = history.messages ?? [];
    assert.equal(seen?.upload, true);
    assert.equal(seen?.user, emulator.identity.botUserId);
    assert.deepEqual(
      seen?.files?.map((f) => [f.id, f.name, f.title]),
      [[file?.id, "usage.csv", "usage.csv"]],
      "history shows the shared file's name and title, as Slack does",
    );
  });

  test("unknown methods and bad tokens are refused like Slack does", async () => {
    const unknown = await app.client.apiCall("gpus.reserve", {}).catch((error: unknown) => error);
    assert.equal((unknown as { data?: { error?: string } }).data?.error, "unknown_method");
    const bad = await app.client.auth.test({ token: "xoxb-not-ours" }).catch((error: unknown) => error);
    assert.equal((bad as { data?: { error?: string } }).data?.error, "invalid_auth");
    const wrongKind = await app.client.chat
      .postMessage({ token: emulator.identity.appToken, channel: GPUS, text: "x" })
      .catch((error: unknown) => error);
    assert.equal((wrongKind as { data?: { error?: string } }).data?.error, "not_allowed_token_type");
  });

  test("a command not acked within 3 s is recorded as operation_timeout and shown to the user", async () => {
    assert.deepEqual(emulator.failures(), []);
    const delivery = await emulator.slashCommand({ user: BOB, text: "slow", channel: GPUS });
    assert.equal(delivery.acked, false);
    assert.deepEqual(
      emulator.failures().map((f) => [f.kind, f.transport, f.what, f.user]),
      [["operation_timeout", "socket", "/gpu", BOB]],
    );
    assert.equal(emulator.ephemerals(BOB).at(-1)?.text, '/gpu failed with the error "operation_timeout"');
    await emulator.waitFor(() => emulator.socket.strayAcks.length === 1, "the late ack");
    assert.equal(emulator.socket.strayAcks[0]?.envelopeId, delivery.envelope.envelopeId);
  });

  test("the emulator itself raised no errors", () => {
    assert.deepEqual(emulator.internalErrors(), []);
  });
});
