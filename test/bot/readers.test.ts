import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import bolt from "@slack/bolt";
import { createReaders } from "../../src/bot/readers.ts";
import { slackPeopleDirectory } from "../../src/bot/slack-people.ts";
import {
  type SlackEmulator,
  startSlackEmulator,
} from "../../src/playground/slack-emulator/start-slack-emulator.ts";
import { ManualClock } from "../../src/shared/clock.ts";
import { silentLogger } from "../../src/shared/logger.ts";

const TEAM = { timezone: "Asia/Shanghai", currency: "CNY" } as const;

describe("who reads: the channel in the team's language, each person in their Slack locale", () => {
  let slack: SlackEmulator;
  const clock = new ManualClock(Date.UTC(2026, 2, 16, 9));

  before(async () => {
    slack = await startSlackEmulator({
      clock,
      users: [
        { id: "U0LI", name: "li", locale: "zh-CN" },
        { id: "U0ANN", name: "ann", locale: "en-GB" },
      ],
    });
  });
  after(() => slack.close());

  const people = () =>
    slackPeopleDirectory(
      new bolt.webApi.WebClient(slack.identity.botToken, {
        slackApiUrl: slack.apiUrl,
        retryConfig: { retries: 0 },
      }),
      clock,
      silentLogger,
    );

  test("auto: a person reads their locale's language once looked up; the channel reads English", async () => {
    const readers = createReaders({ ...TEAM, language: "auto" }, people());
    assert.equal(readers.channel.t("chart.weekend"), "weekend");
    assert.equal((await readers.lookUp("U0LI")).t("chart.weekend"), "周末");
    assert.equal(readers.person("U0LI").t("chart.weekend"), "周末", "known now without asking again");
    assert.equal((await readers.lookUp("U0ANN")).t("chart.weekend"), "weekend");
    assert.equal(readers.person("U0NEW").t("chart.weekend"), "weekend", "never looked up: English for now");
  });

  test("a fixed language: everyone reads it and nobody is looked up", async () => {
    const before = slack.attempts("users.info");
    const readers = createReaders({ ...TEAM, language: "zh-CN" }, people());
    assert.equal((await readers.lookUp("U0ANN")).t("chart.weekend"), "周末");
    assert.equal(readers.channel.t("common.money", { amount: 1234 }), "¥1,234");
    assert.equal(slack.attempts("users.info"), before);
  });
});
