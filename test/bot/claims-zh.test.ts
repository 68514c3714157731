import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { afterEach, describe, test } from "node:test";
import { viewProblems } from "../../src/playground/slack-emulator/validate-blocks.ts";
import { observed } from "../checks/builders.ts";
import {
  ALICE,
  allHosts,
  BOB,
  BotHarness,
  CAROL,
  EVE,
  idleHost,
  standardConfig,
} from "../helpers/bot-harness.ts";
import { actionIds as buttons, lastDm, shownText as shown } from "../helpers/shown-blocks.ts";

interface Block {
  type: string;
  elements?: Array<{ text?: { text: string } | string }>;
}

/** The labels of the buttons in blocks' actions, in order. */
function buttonLabels(blocks: readonly unknown[] | undefined): string[] {
  return ((blocks ?? []) as Block[]).flatMap((block) =>
    block.type === "actions"
      ? (block.elements ?? []).map((element) =>
          typeof element.text === "string" ? element.text : String(element.text?.text),
        )
      : [],
  );
}

/** The rendered Chinese App Home shown in the README; `UPDATE_DOCS=1` rewrites it. */
const HOME_DOC = new URL("../../docs/messages-zh-home.md", import.meta.url);

function homeDoc(text: string): string {
  return [
    "# The App Home in Chinese (`team.language: zh-CN`)",
    "",
    "What Bob reads on the bot's Home tab, as rendered by `test/bot/claims-zh.test.ts` over the real",
    "Bolt app and the Slack emulator (Slack mrkdwn as sent; `UPDATE_DOCS=1` rewrites this file).",
    "",
    "```text",
    text,
    "```",
    "",
  ].join("\n");
}

const hosts = { "gpu-a": { owners: [ALICE] }, "gpu-b": {} };
const busyA = (atMs: number) => [
  observed("gpu-a", atMs, [80, 80, 0, 0], []),
  observed("gpu-b", atMs, [97, 0], []),
];

describe("claims in Chinese over the real Bolt app (team.language: zh-CN, team.currency: CNY)", {
  timeout: 60_000,
}, () => {
  let h: BotHarness;
  afterEach(() => h.closeChecked());

  const start = async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig(hosts, {
        team: { timezone: "Europe/Berlin", language: "zh-CN", currency: "CNY" },
      }),
    });
    h.pollFor(
      1,
      allHosts(idleHost("gpu-a"), (atMs) => observed("gpu-b", atMs, [97, 0], [])),
    );
  };

  test("/gpu claim: success, a conflict with its buttons, and the cost warden's force release", async () => {
    await start();
    const claimed = await h.user.slashCommand({ user: BOB, text: "claim gpu-a:0,1 for 2h 训练" });
    assert.equal(claimed.ackPayload?.text, "你已认领 gpu-a:0,1，至 12:01（2 小时）（训练）。");

    const conflict = await h.user.slashCommand({ user: EVE, text: "claim gpu-a:1" });
    assert.equal(conflict.ackPayload?.text, `gpu-a:1 已被 <@${BOB}> 认领，至 12:01（训练）。`);
    const blocks = conflict.ackPayload?.blocks as unknown[];
    assert.deepEqual(buttons(blocks), ["queue_wait", "claim_notify"]);
    assert.deepEqual(buttonLabels(blocks), ["排队等候", "空闲时通知我"]);

    const byWarden = await h.user.slashCommand({ user: CAROL, text: "claim gpu-a" });
    assert.deepEqual(buttonLabels(byWarden.ackPayload?.blocks as unknown[]), [
      "排队等候",
      "空闲时通知我",
      "强制释放",
    ]);

    await h.user.clickButton({ user: EVE, message: h.latestEphemeral(EVE), actionId: "claim_notify" });
    await h.emulator.waitFor(() => h.latestEphemeral(EVE).text.endsWith("私信你。"), "the waitlist answer");
    assert.equal(h.latestEphemeral(EVE).text, "gpu-a:1 空闲时我会私信你。");

    const wrong = await h.user.slashCommand({ user: BOB, text: "claim gpu-a:7" });
    assert.match(String(wrong.ackPayload?.text), /^gpu-a 有 GPU 0-3（共 4 块）：没有 GPU 7。\n正确格式：/);
    await h.settle();
  });

  test("the reminder DM and its buttons, then Extend 4 h, in Chinese", async () => {
    await start();
    await h.user.slashCommand({ user: BOB, text: "claim gpu-a:0,1 for 2h 训练" });
    h.runFor(60, busyA);
    await h.settle();
    assert.deepEqual(h.dmTexts(BOB), ["你对 gpu-a:0,1 的认领将于 12:01 结束"]);
    const dm = lastDm(h, BOB);
    assert.equal(
      shown(dm.blocks),
      "⏳ 你对 *gpu-a:0,1*（训练）的认领将于 *12:01* 结束（还有 1 小时）。可以延长；用完了请释放。",
    );
    assert.deepEqual(buttonLabels(dm.blocks), ["延长 4 小时", "释放"]);
    await h.user.clickButton({ user: BOB, message: dm, actionId: "claim_extend_4h" });
    await h.emulator.waitFor(() => lastDm(h, BOB).edits.length === 1, "the DM replaced");
    assert.equal(lastDm(h, BOB).text, "gpu-a:0,1 归你，至 16:01。");
  });

  test("the App Home: your claims, the cost warden, the fleet", async () => {
    await start();
    await h.user.slashCommand({ user: BOB, text: "claim gpu-a:0,1 for 3h 评测" });
    await h.user.event({ type: "app_home_opened", user: BOB });
    await h.settle();
    const home = h.emulator.home(BOB)!;
    assert.deepEqual(viewProblems(home.view, "home"), []);
    const text = shown(home.view.blocks as unknown[]);
    assert.match(text, /^\*你的认领\* \(1\)$/m);
    assert.match(text, /^\*gpu-a:0,1\*（评测）至 \*13:01\*（还剩 3 小时） · 当前利用率 `0 0` %$/m);
    assert.match(text, /^\*本月成本看守人：\* <@U0CAROL>$/m);
    assert.match(text, /^\*机群\* · /m);
    assert.match(text, /^截至 10:01（Europe\/Berlin）· `\/gpu status <host>` 可查看单台主机的详情$/m);
    assert.match(text, /• \*gpu-b\* .*利用率 `97 0` %/);
    assert.deepEqual(buttonLabels(home.view.blocks as unknown[]), ["延长 4 小时", "释放"]);
    if (process.env.UPDATE_DOCS === "1") writeFileSync(HOME_DOC, homeDoc(text));
    assert.equal(readFileSync(HOME_DOC, "utf8"), homeDoc(text), "docs/messages-zh-home.md shows this Home");
  });
});

describe("team.language: auto: each person reads their Slack locale", { timeout: 60_000 }, () => {
  let h: BotHarness;
  afterEach(() => h.closeChecked());

  test("a zh-CN person gets Chinese, an en-US person English: claim replies and the App Home", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig(hosts, {
        team: { timezone: "Europe/Berlin", language: "auto", currency: "CNY" },
      }),
      locales: { [BOB]: "zh-CN", [EVE]: "en-US" },
    });
    h.pollFor(
      1,
      allHosts(idleHost("gpu-a"), (atMs) => observed("gpu-b", atMs, [97, 0], [])),
    );
    const bob = await h.user.slashCommand({ user: BOB, text: "claim gpu-a:0 for 2h" });
    assert.equal(bob.ackPayload?.text, "你已认领 gpu-a:0，至 12:01（2 小时）。");
    const eve = await h.user.slashCommand({ user: EVE, text: "claim gpu-a:0" });
    assert.equal(eve.ackPayload?.text, `gpu-a:0 is claimed by <@${BOB}> until 12:01.`);
    assert.deepEqual(buttonLabels(eve.ackPayload?.blocks as unknown[]), [
      "Wait for it",
      "Notify me when free",
    ]);

    for (const user of [BOB, EVE]) await h.user.event({ type: "app_home_opened", user });
    await h.settle();
    const bobHome = shown(h.emulator.home(BOB)!.view.blocks as unknown[]);
    const eveHome = shown(h.emulator.home(EVE)!.view.blocks as unknown[]);
    assert.match(bobHome, /^\*你的认领\* \(1\)$/m);
    assert.match(bobHome, /^\*本月成本看守人：\* <@U0CAROL>$/m);
    assert.match(eveHome, /^\*Your claims:\* none\. /m);
    assert.match(eveHome, /^\*Cost warden this month:\* <@U0CAROL>$/m);
    assert.doesNotMatch(eveHome, /认领|成本看守人/);
  });
});
