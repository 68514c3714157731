import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { after, before, describe, test } from "node:test";
import bolt from "@slack/bolt";
import { slackPeopleDirectory } from "../../src/bot/slack-people.ts";
import {
  type SlackEmulator,
  startSlackEmulator,
} from "../../src/playground/slack-emulator/start-slack-emulator.ts";
import { ManualClock } from "../../src/shared/clock.ts";
import { createLogger } from "../../src/shared/logger.ts";

describe("people's names from users.info (the emulator)", () => {
  let slack: SlackEmulator;
  const clock = new ManualClock(Date.UTC(2026, 2, 16, 9));
  const warnings: string[] = [];
  const logger = createLogger(
    "warn",
    new Writable({
      write: (chunk: Buffer, _encoding, callback) => {
        for (const line of chunk.toString("utf8").split("\n")) {
          if (line !== "") warnings.push((JSON.parse(line) as { msg: string }).msg);
        }
        callback();
      },
    }),
  );

  before(async () => {
    slack = await startSlackEmulator({
      clock,
      users: [
        { id: "U0ALICE", name: "alice", realName: "Alice Liddell" },
        { id: "U0BOB", name: "bob" },
      ],
    });
  });
  after(() => slack.close());

  test("display names for known people, cached for a day; an unknown ID is left out with one warning and asked again after ten minutes", async () => {
    const client = new bolt.webApi.WebClient(slack.identity.botToken, {
      slackApiUrl: slack.apiUrl,
      retryConfig: { retries: 0 },
    });
    const people = slackPeopleDirectory(client, clock, logger);
    const names = await people.names(["U0ALICE", "U0BOB", "U0GONE", "U0ALICE"]);
    assert.deepEqual(
      [...names],
      [
        ["U0ALICE", "alice"],
        ["U0BOB", "bob"],
      ],
    );
    assert.equal(slack.attempts("users.info"), 3);
    await people.names(["U0ALICE", "U0GONE"]);
    assert.equal(
      slack.attempts("users.info"),
      3,
      "alice is cached; the unknown one is not asked again at once",
    );
    clock.advance(10 * 60_000);
    await people.names(["U0ALICE", "U0GONE"]);
    assert.equal(slack.attempts("users.info"), 4, "ten minutes later the unknown one is asked again");
    assert.deepEqual(warnings, [
      "could not look up a person's name (user_not_found); showing the member ID instead",
    ]);
  });
});
