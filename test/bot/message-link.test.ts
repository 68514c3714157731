import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import bolt from "@slack/bolt";
import { messagePermalink, workspaceUrlOf } from "../../src/bot/message-link.ts";
import { stopDoubtAlertNote } from "../../src/bot/views/power/stop-doubt.ts";
import { translator } from "../../src/messages/translator.ts";
import {
  type SlackEmulator,
  startSlackEmulator,
} from "../../src/playground/slack-emulator/start-slack-emulator.ts";
import { silentLogger } from "../../src/shared/logger.ts";

const { WebClient } = bolt.webApi;

describe("links to earlier alerts", () => {
  let slack: SlackEmulator;
  let client: InstanceType<typeof WebClient>;
  before(async () => {
    slack = await startSlackEmulator({
      channels: [{ id: "C0GPU", name: "gpu" }],
      users: [{ id: "U0OWNER" }],
    });
    client = new WebClient(slack.identity.botToken, {
      slackApiUrl: slack.apiUrl,
      retryConfig: { retries: 0 },
    });
  });
  after(() => slack.close());

  test("the permalink built from auth.test's workspace URL is the one chat.getPermalink gives", async () => {
    const posted = await client.chat.postMessage({ channel: "C0GPU", text: "💤 gpu-a is idle" });
    const url = await workspaceUrlOf(client, silentLogger);
    assert.ok(url !== null);
    const official = await client.chat.getPermalink({ channel: "C0GPU", message_ts: posted.ts! });
    assert.equal(messagePermalink(url, "C0GPU", posted.ts!), official.permalink);
  });

  test("the next alert's note links to the stopped alert's thread when the link is known", () => {
    const base = {
      host: "gpu-a",
      stoppedAtMs: Date.UTC(2026, 0, 5, 9, 6),
      nowMs: Date.UTC(2026, 0, 5, 9, 20),
    };
    const link = "https://acme.slack.com/archives/C0GPU/p1767604000000100";
    assert.equal(
      stopDoubtAlertNote(translator({ language: "en", timeZone: "Europe/Berlin", currency: "EUR" }), {
        ...base,
        alertOpenedAtMs: base.stoppedAtMs - 60_000,
        link,
      }),
      `⚠️ The stop at *10:06* may not have worked: gpu-a kept reporting. See <${link}|the thread of the alert of 10:05>.`,
    );
  });
});
