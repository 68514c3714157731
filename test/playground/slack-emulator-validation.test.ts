import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import bolt from "@slack/bolt";
import {
  type SlackEmulator,
  startSlackEmulator,
} from "../../src/playground/slack-emulator/start-slack-emulator.ts";
import { blockProblems, viewProblems } from "../../src/playground/slack-emulator/validate-blocks.ts";
import { boltTestLogger } from "../helpers/bolt-test-logger.ts";

const { WebClient } = bolt.webApi;

const x = (n: number): string => "x".repeat(n);
const plain = (text: string) => ({ type: "plain_text", text });
const mrkdwn = (text: string) => ({ type: "mrkdwn", text });
const section = (text: string) => ({ type: "section", text: mrkdwn(text) });
const button = (fields: Record<string, unknown> = {}) => ({
  type: "button",
  action_id: "stop",
  text: plain("Stop"),
  ...fields,
});
const actions = (...elements: unknown[]) => ({ type: "actions", elements });
const confirm = (fields: Record<string, unknown> = {}) => ({
  title: plain("Stop gpu-a?"),
  text: mrkdwn("It powers off."),
  confirm: plain("Stop"),
  deny: plain("Cancel"),
  ...fields,
});

describe("Block Kit limits, with Slack's wording and json-pointers", { timeout: 30_000 }, () => {
  const cases: Array<[string, unknown[], string[]]> = [
    ["section text at 3000 is fine", [section(x(3000))], []],
    [
      "section text over 3000",
      [section(x(3001))],
      [
        "failed to match all allowed schemas [json-pointer:/blocks/0/text]",
        "must be less than 3001 characters [json-pointer:/blocks/0/text/text]",
      ],
    ],
    [
      "empty text",
      [section("")],
      [
        "failed to match all allowed schemas [json-pointer:/blocks/0/text]",
        "must be more than 0 characters [json-pointer:/blocks/0/text/text]",
      ],
    ],
    ["characters are counted as code points", [{ type: "header", text: plain("🔥".repeat(150)) }], []],
    [
      "header over 150",
      [{ type: "header", text: plain(x(151)) }],
      ["must be less than 151 characters [json-pointer:/blocks/0/text/text]"],
    ],
    [
      "header in mrkdwn",
      [{ type: "header", text: mrkdwn("hi") }],
      ["failed to match all allowed schemas [json-pointer:/blocks/0/text]"],
    ],
    [
      "11 section fields",
      [{ type: "section", fields: Array.from({ length: 11 }, () => mrkdwn("f")) }],
      ["no more than 10 items allowed [json-pointer:/blocks/0/fields]"],
    ],
    [
      "a field over 2000",
      [{ type: "section", fields: [mrkdwn(x(2001))] }],
      [
        "failed to match all allowed schemas [json-pointer:/blocks/0/fields/0]",
        "must be less than 2001 characters [json-pointer:/blocks/0/fields/0/text]",
      ],
    ],
    [
      "a section with neither text nor fields",
      [{ type: "section" }],
      ["missing required field: text [json-pointer:/blocks/0]"],
    ],
    [
      "51 blocks in a message",
      Array.from({ length: 51 }, () => ({ type: "divider" })),
      ["no more than 50 items allowed [json-pointer:/blocks]"],
    ],
    [
      "26 action elements",
      [actions(...Array.from({ length: 26 }, (_, i) => button({ action_id: `b${i}` })))],
      ["no more than 25 items allowed [json-pointer:/blocks/0/elements]"],
    ],
    [
      "11 context elements",
      [{ type: "context", elements: Array.from({ length: 11 }, () => mrkdwn("c")) }],
      ["no more than 10 items allowed [json-pointer:/blocks/0/elements]"],
    ],
    [
      "block_id over 255",
      [{ type: "divider", block_id: x(256) }],
      ["must be less than 256 characters [json-pointer:/blocks/0/block_id]"],
    ],
    [
      "duplicate block_id",
      [
        { type: "divider", block_id: "d" },
        { type: "divider", block_id: "d" },
      ],
      ['`block_id` "d" already exists [json-pointer:/blocks/1/block_id]'],
    ],
    [
      "action_id over 255",
      [actions(button({ action_id: x(256) }))],
      ["must be less than 256 characters [json-pointer:/blocks/0/elements/0/action_id]"],
    ],
    [
      "duplicate action_id in one block",
      [actions(button(), button())],
      ['`action_id` "stop" already exists [json-pointer:/blocks/0/elements/1/action_id]'],
    ],
    ["the same action_id in two blocks is fine", [actions(button()), actions(button())], []],
    [
      "button text over 75",
      [actions(button({ text: plain(x(76)) }))],
      ["must be less than 76 characters [json-pointer:/blocks/0/elements/0/text/text]"],
    ],
    [
      "button value over 2000",
      [actions(button({ value: x(2001) }))],
      ["must be less than 2001 characters [json-pointer:/blocks/0/elements/0/value]"],
    ],
    [
      "button url over 3000",
      [actions(button({ url: `https://${x(2993)}` }))],
      ["must be less than 3001 characters [json-pointer:/blocks/0/elements/0/url]"],
    ],
    [
      "button style other than primary/danger",
      [actions(button({ style: "warning" }))],
      ["must be one of: primary, danger [json-pointer:/blocks/0/elements/0/style]"],
    ],
    [
      "confirm over its limits",
      [
        actions(
          button({
            confirm: confirm({
              title: plain(x(101)),
              text: mrkdwn(x(301)),
              confirm: plain(x(31)),
              deny: plain(x(31)),
            }),
          }),
        ),
      ],
      [
        "must be less than 101 characters [json-pointer:/blocks/0/elements/0/confirm/title/text]",
        "failed to match all allowed schemas [json-pointer:/blocks/0/elements/0/confirm/text]",
        "must be less than 301 characters [json-pointer:/blocks/0/elements/0/confirm/text/text]",
        "must be less than 31 characters [json-pointer:/blocks/0/elements/0/confirm/confirm/text]",
        "must be less than 31 characters [json-pointer:/blocks/0/elements/0/confirm/deny/text]",
      ],
    ],
    [
      "confirm without deny",
      [actions(button({ confirm: { title: plain("t"), text: plain("t"), confirm: plain("ok") } }))],
      ["missing required field: deny [json-pointer:/blocks/0/elements/0/confirm]"],
    ],
    [
      "an unknown property",
      [{ type: "section", text: mrkdwn("hi"), color: "red" }],
      ["invalid additional property: color [json-pointer:/blocks/0]"],
    ],
    [
      "an unknown block type",
      [{ type: "banner" }],
      ["failed to match all allowed schemas [json-pointer:/blocks/0]"],
    ],
    [
      "a text input in an actions block",
      [actions({ type: "plain_text_input", action_id: "t" })],
      ["failed to match all allowed schemas [json-pointer:/blocks/0/elements/0]"],
    ],
    [
      "static select options over 75 chars",
      [
        actions({
          type: "static_select",
          action_id: "pick",
          options: [{ text: plain(x(76)), value: "v" }],
        }),
      ],
      ["must be less than 76 characters [json-pointer:/blocks/0/elements/0/options/0/text/text]"],
    ],
    [
      "6 overflow options",
      [
        actions({
          type: "overflow",
          action_id: "more",
          options: Array.from({ length: 6 }, (_, i) => ({ text: plain(`o${i}`), value: `o${i}` })),
        }),
      ],
      ["no more than 5 items allowed [json-pointer:/blocks/0/elements/0/options]"],
    ],
    [
      "an image without alt_text",
      [{ type: "image", image_url: "https://example.com/chart.png" }],
      ["missing required field: alt_text [json-pointer:/blocks/0]"],
    ],
  ];
  for (const [name, blocks, expected] of cases) {
    test(name, () => {
      assert.deepEqual(blockProblems(blocks, "message"), expected);
    });
  }

  test("views take 100 blocks, not 101", () => {
    const dividers = (n: number) => Array.from({ length: n }, () => ({ type: "divider" }));
    assert.deepEqual(blockProblems(dividers(100), "home"), []);
    assert.deepEqual(blockProblems(dividers(101), "modal"), [
      "no more than 100 items allowed [json-pointer:/blocks]",
    ]);
  });

  test("a modal title over 24 characters and an input without submit", () => {
    const view = {
      type: "modal",
      title: plain(x(25)),
      blocks: [
        { type: "input", label: plain("Hours"), element: { type: "plain_text_input", action_id: "h" } },
      ],
    };
    assert.deepEqual(viewProblems(view, "modal"), [
      "failed to match all allowed schemas [json-pointer:/view/title]",
      "must be less than 25 characters [json-pointer:/view/title/text]",
      "missing required field: submit [json-pointer:/view]",
    ]);
  });
});

describe("the Web API refuses what Slack refuses, as WebAPIPlatformError", { timeout: 30_000 }, () => {
  let emulator: SlackEmulator;
  let client: InstanceType<typeof WebClient>;

  before(async () => {
    emulator = await startSlackEmulator();
    client = new WebClient(emulator.identity.botToken, {
      slackApiUrl: emulator.apiUrl,
      retryConfig: { retries: 0 },
      logger: boltTestLogger(),
    });
  });

  after(async () => {
    await emulator.close();
  });

  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => assert.fail("Slack accepted it"),
      (error: unknown) => error as { code?: string; data?: Record<string, unknown> },
    );

  test("an over-limit section: invalid_blocks with errors and [ERROR] messages; nothing posted", async () => {
    const error = await refusal(
      client.chat.postMessage({ channel: "C0GENERAL", text: "t", blocks: [section(x(3001))] }),
    );
    assert.equal(error.code, "slack_webapi_platform_error");
    assert.deepEqual(error.data, {
      ok: false,
      error: "invalid_blocks",
      errors: [
        "failed to match all allowed schemas [json-pointer:/blocks/0/text]",
        "must be less than 3001 characters [json-pointer:/blocks/0/text/text]",
      ],
      response_metadata: {
        messages: [
          "[ERROR] failed to match all allowed schemas [json-pointer:/blocks/0/text]",
          "[ERROR] must be less than 3001 characters [json-pointer:/blocks/0/text/text]",
        ],
      },
    });
    assert.deepEqual(emulator.channel("C0GENERAL").history, []);
    assert.equal(emulator.attempts("chat.postMessage"), 1);
  });

  test("too many blocks, too much block text, no text, blocks that are not an array", async () => {
    const dividers = Array.from({ length: 51 }, () => ({ type: "divider" }));
    const tooMany = await refusal(
      client.chat.postMessage({ channel: "C0GENERAL", text: "t", blocks: dividers }),
    );
    assert.deepEqual(tooMany.data?.errors, ["no more than 50 items allowed [json-pointer:/blocks]"]);
    const long = Array.from({ length: 5 }, () => section(x(2900)));
    const tooLong = await refusal(client.chat.postMessage({ channel: "C0GENERAL", text: "t", blocks: long }));
    assert.equal(tooLong.data?.error, "msg_blocks_too_long");
    const empty = await refusal(client.apiCall("chat.postMessage", { channel: "C0GENERAL" }));
    assert.equal(empty.data?.error, "no_text");
    const notArray = await refusal(
      client.apiCall("chat.postMessage", { channel: "C0GENERAL", blocks: "[{" }),
    );
    assert.equal(notArray.data?.error, "invalid_blocks_format");
    assert.deepEqual(emulator.channel("C0GENERAL").history, []);
  });

  test("chat.update refuses text over 4,000 characters; chat.postMessage takes it", async () => {
    const posted = await client.chat.postMessage({ channel: "C0GENERAL", text: x(4001) });
    const error = await refusal(
      client.chat.update({ channel: "C0GENERAL", ts: posted.ts ?? "", text: x(4001) }),
    );
    assert.equal(error.data?.error, "msg_too_long");
    assert.equal(emulator.channel("C0GENERAL").latest?.edits.length, 0);
  });

  test("views: invalid_arguments with [ERROR] messages under /view", async () => {
    const error = await refusal(
      client.views.publish({
        user_id: "U0ALICE",
        view: { type: "home", blocks: Array.from({ length: 101 }, () => ({ type: "divider" })) },
      }),
    );
    assert.deepEqual(error.data, {
      ok: false,
      error: "invalid_arguments",
      response_metadata: { messages: ["[ERROR] no more than 100 items allowed [json-pointer:/view/blocks]"] },
    });
    assert.equal(emulator.home("U0ALICE"), undefined);
  });
});
