import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import bolt from "@slack/bolt";
import {
  type SlackEmulator,
  startSlackEmulator,
} from "../../src/playground/slack-emulator/start-slack-emulator.ts";
import { ManualClock } from "../../src/shared/clock.ts";
import { boltTestLogger } from "../helpers/bolt-test-logger.ts";

const { WebClient } = bolt.webApi;
const GPUS = "C0GPUS";

describe("emulator: message metadata and reading history back", { timeout: 30_000 }, () => {
  const clock = new ManualClock(Date.parse("2026-03-02T09:00:00Z"));
  let slack: SlackEmulator;
  let client: InstanceType<typeof WebClient>;
  const posted: string[] = [];

  before(async () => {
    slack = await startSlackEmulator({ clock, channels: [{ id: GPUS, name: "gpus" }] });
    client = new WebClient(slack.identity.botToken, {
      slackApiUrl: slack.apiUrl,
      retryConfig: { retries: 0 },
      logger: boltTestLogger(),
    });
    for (const n of [1, 2, 3, 4, 5]) {
      const answer = await client.chat.postMessage({
        channel: GPUS,
        text: `message ${n}`,
        metadata: { event_type: "test_item", event_payload: { n } },
      });
      posted.push(answer.ts ?? "");
      clock.advance(60_000);
    }
  });
  after(() => slack.close());

  const code = async (call: Promise<unknown>): Promise<string> => {
    try {
      await call;
      return "ok";
    } catch (error) {
      return (error as { data?: { error?: string } }).data?.error ?? String(error);
    }
  };

  test("metadata comes back only with include_all_metadata", async () => {
    const plain = await client.conversations.history({ channel: GPUS });
    assert.deepEqual(
      plain.messages?.map((m) => [m.text, m.metadata]),
      [5, 4, 3, 2, 1].map((n) => [`message ${n}`, undefined]),
    );
    const rich = await client.conversations.history({ channel: GPUS, include_all_metadata: true, limit: 1 });
    assert.deepEqual(rich.messages?.[0]?.metadata, { event_type: "test_item", event_payload: { n: 5 } });
  });

  test("oldest/latest are exclusive unless inclusive; limit and cursor page from newest to oldest", async () => {
    const texts = (answer: { messages?: Array<{ text?: string }> }) => answer.messages?.map((m) => m.text);
    const window = { channel: GPUS, oldest: posted[1] ?? "", latest: posted[3] ?? "" };
    assert.deepEqual(texts(await client.conversations.history(window)), ["message 3"]);
    assert.deepEqual(texts(await client.conversations.history({ ...window, inclusive: true })), [
      "message 4",
      "message 3",
      "message 2",
    ]);
    const first = await client.conversations.history({ channel: GPUS, limit: 2 });
    assert.deepEqual([texts(first), first.has_more], [["message 5", "message 4"], true]);
    const cursor = first.response_metadata?.next_cursor ?? assert.fail("a next cursor");
    const second = await client.conversations.history({ channel: GPUS, limit: 2, cursor });
    assert.deepEqual(texts(second), ["message 3", "message 2"]);
    const last = await client.conversations.history({
      channel: GPUS,
      limit: 2,
      cursor: second.response_metadata?.next_cursor ?? "",
    });
    assert.deepEqual(
      [texts(last), last.has_more, last.response_metadata?.next_cursor],
      [["message 1"], false, undefined],
    );
  });

  test("thread replies carry their metadata through conversations.replies", async () => {
    const parent = posted[0] ?? "";
    await client.chat.postMessage({
      channel: GPUS,
      thread_ts: parent,
      text: "reply",
      metadata: { event_type: "test_item", event_payload: { n: 6 } },
    });
    const replies = await client.conversations.replies({
      channel: GPUS,
      ts: parent,
      include_all_metadata: true,
    });
    assert.deepEqual(
      replies.messages?.map((m) => [m.text, m.metadata?.event_payload]),
      [
        ["message 1", { n: 1 }],
        ["reply", { n: 6 }],
      ],
    );
  });

  test("Slack's errors for malformed arguments", async () => {
    assert.equal(
      await code(client.conversations.history({ channel: GPUS, oldest: "yesterday" })),
      "invalid_ts_oldest",
    );
    assert.equal(
      await code(client.conversations.history({ channel: GPUS, latest: "soon" })),
      "invalid_ts_latest",
    );
    assert.equal(
      await code(client.conversations.history({ channel: GPUS, cursor: "bm9wZQ==" })),
      "invalid_cursor",
    );
    assert.equal(await code(client.conversations.history({ channel: "#gpus" })), "channel_not_found");
    const post = (metadata: unknown) =>
      code(client.chat.postMessage({ channel: GPUS, text: "x", metadata: metadata as never }));
    assert.equal(await post({ event_type: "test_item" }), "invalid_metadata_schema");
    assert.equal(await post({ event_payload: { n: 1 } }), "invalid_metadata_schema");
  });
});
