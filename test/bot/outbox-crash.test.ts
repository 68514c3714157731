import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  type SlackEmulator,
  startSlackEmulator,
} from "../../src/playground/slack-emulator/start-slack-emulator.ts";
import { runChildScript } from "../helpers/kill-child.ts";

/** The child posts here (see outbox-crash-child.ts). */
const CHANNEL = "C0GPUTEAM";
const child = join(import.meta.dirname, "outbox-crash-child.ts");
const dir = mkdtempSync(join(tmpdir(), "gw-outbox-crash-"));
const db = join(dir, "gpu-warden.db");
let slack: SlackEmulator;

before(async () => {
  slack = await startSlackEmulator({ channels: [{ id: CHANNEL, name: "gpu" }] });
});
after(async () => {
  await slack.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Runs the child bot. In `crash-after-post`, waits until Slack has answered its post, then kills it
 * with SIGKILL (no shutdown code runs) and waits for it to die.
 */
function runChild(mode: "crash-after-post" | "restart"): Promise<string> {
  return runChildScript(
    child,
    [db, slack.apiUrl, slack.identity.botToken, mode],
    mode === "crash-after-post" ? /posted/ : null,
  );
}

describe("an alert posted just before a kill -9 is not posted again on restart", () => {
  it("killed after Slack answered the post but before it was recorded → one message, edited in place", async () => {
    assert.equal(await runChild("crash-after-post"), "posted");
    const [posted] = slack.channel(CHANNEL).messages;
    assert.equal(slack.channel(CHANNEL).messages.length, 1);
    assert.equal(posted?.text, "gpu-a idle for 30 min");

    const storedTs = await runChild("restart");

    const messages = slack.channel(CHANNEL).messages;
    assert.deepEqual(
      messages.map((message) => message.text),
      ["gpu-a idle for 45 min"],
      "one message in the channel, and the later edit went to it",
    );
    assert.equal(storedTs, posted?.ts, "the store adopted the ts of the message Slack had");
    assert.equal(slack.calls("chat.postMessage").length, 1);
    assert.equal(slack.calls("conversations.history").length, 1);
  });
});
