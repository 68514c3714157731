import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { ALICE, allHosts, BotHarness, EVE, idleHost, standardConfig } from "../helpers/bot-harness.ts";

describe("a button whose value cannot be read", { timeout: 60_000 }, () => {
  let h: BotHarness;
  afterEach(() => h.closeChecked());

  test("is answered in the clicker's language (team.language auto), and nothing is done", async () => {
    h = await BotHarness.start({
      transport: "http",
      locales: { [ALICE]: "zh-CN" },
      config: standardConfig(
        { "gpu-a": { owners: [ALICE], stop: "script" } },
        { team: { timezone: "Europe/Berlin", language: "auto", currency: "CNY" } },
      ),
    });
    h.pollFor(6, allHosts(idleHost("gpu-a")));
    await h.settle();
    const posted = await h.slack.client.chat.postMessage({
      channel: "C0GPU",
      text: "forged",
      blocks: [
        {
          type: "actions",
          elements: [
            {
              type: "button",
              action_id: "keep_host_4h",
              value: '{"host":"gpu-a","keep":"9y"}',
              text: { type: "plain_text", text: "Keep" },
            },
          ],
        },
      ],
    });
    const message = { channel: "C0GPU", ts: String(posted.ts) };
    await h.user.clickButton({ user: ALICE, message, actionId: "keep_host_4h" });
    await h.user.clickButton({ user: EVE, message, actionId: "keep_host_4h" });
    await h.emulator.waitFor(
      () => h.ephemeralTexts(ALICE).length === 1 && h.ephemeralTexts(EVE).length === 1,
      "both answers",
    );
    assert.match(h.ephemeralTexts(ALICE)[0] ?? "", /^无法读取这个按钮（.*keep.*），什么也没有做。$/);
    assert.match(
      h.ephemeralTexts(EVE)[0] ?? "",
      /^That button could not be read \(.*keep.*\); nothing was done\.$/,
    );
  });
});
