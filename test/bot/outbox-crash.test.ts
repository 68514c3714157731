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
const USER = "U0ALICE01";
const child = join(import.meta.dirname, "outbox-crash-child.ts");
const dir = mkdtempSync(join(tmpdir(), "gw-outbox-crash-"));
const db = join(dir, "gpu-warden.db");
let slack: SlackEmulator;

before(async () => {
  slack = await startSlackEmulator({
    channels: [{ id: CHANNEL, name: "gpu" }],
    users: [{ id: USER, name: "alice" }],
  });
});
after(async () => {
  await slack.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Runs the child bot. In `crash-after-post`, waits until Slack has answered its post, then kills it
 * with SIGKILL (no shutdown code runs) and waits for it to die.
 */
function runChild(
  mode: "crash-after-post" | "restart" | "dm" | "restart-dm" | "upload" | "restart-upload",
  killWhen: RegExp | Promise<unknown> | null = mode === "crash-after-post" ? /posted/ : null,
): Promise<string> {
  return runChildScript(child, [db, slack.apiUrl, slack.identity.botToken, mode], killWhen);
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

describe("a DM posted just before a kill -9 is not sent again on restart", () => {
  it("Slack took the DM and its answer was lost, then the bot died → found in the DM's history, not re-sent", async () => {
    const held = slack.failNext("chat.postMessage", { hangAfter: true });
    const dms = () => slack.dms(USER).map((message) => message.text);
    await runChild(
      "dm",
      slack.waitFor(() => dms().length === 1, "the DM posted, its answer held", 30_000),
    );
    assert.equal(held.hits, 1);

    await runChild("restart-dm");

    assert.deepEqual(dms(), ["gpu-a: your claim ends in 15 min"], "one DM, not two");
    const postsToUser = slack.calls("chat.postMessage").filter((call) => call.args.channel === USER);
    assert.equal(postsToUser.length, 1, "the restarted bot did not post it again");
    const [opened] = slack.calls("conversations.open");
    assert.equal(opened?.args.users, USER);
    const lookups = slack.calls("conversations.history").filter((call) => call.args.channel !== CHANNEL);
    assert.equal(lookups.length, 1, "looked up once, in the DM's history");
  });
});

describe("a summary uploaded just before a kill -9 is not uploaded again on restart", () => {
  it("Slack shared the files and the answer was lost, then the bot died → found by its file names, not re-sent", async () => {
    const held = slack.failNext("files.completeUploadExternal", { hangAfter: true });
    const summaries = () => slack.channel(CHANNEL).messages.filter((message) => message.fileIds.length > 0);
    await runChild(
      "upload",
      slack.waitFor(() => summaries().length === 1, "the summary shared, its answer held", 30_000),
    );
    assert.equal(held.hits, 1);

    await runChild("restart-upload");

    const [summary, ...again] = summaries();
    assert.equal(again.length, 0, "one summary in the channel, not two");
    const names = summary?.fileIds.map((id) => slack.files().find((file) => file.id === id)?.filename);
    assert.deepEqual(names, [
      "gpu-summary-2026-03-16.png",
      "gpu-summary-2026-03-16-hours.png",
      "gpu-summary-2026-03-16-hosts.csv",
    ]);
    assert.equal(slack.calls("files.completeUploadExternal").length, 1, "not uploaded again");
    const lookups = slack.calls("conversations.history").filter((call) => call.args.channel === CHANNEL);
    assert.ok(lookups.length >= 1, "looked for in the channel's history");
  });
});
