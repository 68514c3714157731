import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { afterEach, describe, test } from "node:test";
import { zhAlertMarkdown } from "../../scripts/messages-zh-alert.ts";
import type { StoredMessage } from "../../src/playground/slack-emulator/emulator-state.ts";
import {
  ALICE,
  allHosts,
  BOB,
  BotHarness,
  busyHost,
  CHANNEL,
  EVE,
  idleHost,
  poweroffRuns,
  standardConfig,
} from "../helpers/bot-harness.ts";
import { header, shownText } from "../usecases/idle-alerts-rig.ts";

type Block = Record<string, unknown> & { type: string };

/** The labels of a message's buttons, in order. */
function buttonLabels(message: Pick<StoredMessage, "blocks">): string[] {
  const out: string[] = [];
  for (const block of message.blocks as Block[]) {
    if (block.type !== "actions") continue;
    for (const element of block.elements as { text: { text: string } }[]) out.push(element.text.text);
  }
  return out;
}

/** Every section and context text of a reply, one per line. */
function replyText(message: Pick<StoredMessage, "blocks">): string {
  return shownText(message as StoredMessage);
}

/** The Stop button's confirm dialog: title, text, confirm and deny labels. */
function stopConfirm(message: StoredMessage): string[] {
  for (const block of message.blocks as Block[]) {
    if (block.type !== "actions") continue;
    for (const element of block.elements as {
      action_id: string;
      confirm?: Record<string, { text: string }>;
    }[]) {
      const confirm = element.confirm;
      if (element.action_id === "stop_host" && confirm !== undefined)
        return [confirm.title!.text, confirm.text!.text, confirm.confirm!.text, confirm.deny!.text];
    }
  }
  throw new Error("no Stop button with a confirm dialog");
}

const HOSTS = { "gpu-a": { owners: [ALICE], stop: "script", cost_per_hour: 24 } };

describe("the Chinese alert in the docs", () => {
  test("docs/messages-zh-alert.md is what the views render now (scripts/messages-zh-alert.ts)", () => {
    const doc = readFileSync(new URL("../../docs/messages-zh-alert.md", import.meta.url), "utf8");
    assert.equal(doc, zhAlertMarkdown());
    assert.match(doc, /\*gpu-a\* 自 \*16:00\* 起闲置：\u200b\*1 小时 40 分钟\*\u200b，闲置容量 \*¥40\.00\*/);
  });
});

describe("a team that reads Chinese", { timeout: 60_000 }, () => {
  let h: BotHarness;
  afterEach(() => h.closeChecked());

  test("team.language zh-CN, currency CNY: the idle alert, its buttons and /gpu status are in Chinese", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig(HOSTS, {
        team: { timezone: "Asia/Shanghai", language: "zh-CN", currency: "CNY" },
      }),
    });
    h.pollFor(35, allHosts(idleHost("gpu-a")));
    await h.settle();

    const alert = h.alertMessage("gpu-a");
    assert.equal(header(alert), "💤 gpu-a 闲置中");
    const shown = shownText(alert);
    // T0 is 17:00 in Shanghai; idle from the first poll; the alert was last drawn at 17:30, at ¥24 an hour.
    assert.match(
      shown,
      /^\*gpu-a\* 自 \*17:00\* 起闲置：\*30 分钟\*，闲置容量 \*¥12\.00\*（每小时 ¥24\.00）；停机每小时可省 ¥24\.00。\n负责人：<@U0ALICE>$/m,
    );
    assert.match(
      shown,
      /\*最近 3 小时的 GPU 利用率\*（每格 5 分钟，`\?` = 无数据）\n```\nGPU 0 \?+▁+ {3}0 % {2}0\.0 GiB \/ 80\n/,
    );
    assert.match(shown, /\*占用显存\*：无。/);
    assert.match(shown, /\*登录会话\*：无人登录。/);
    assert.match(shown, /时间按 Asia\/Shanghai 时区显示。/);
    assert.deepEqual(buttonLabels(alert), [
      "将此主机停机",
      "保留 1 小时",
      "保留 4 小时",
      "保留到明天 09:00",
      "认领",
    ]);
    assert.deepEqual(stopConfirm(alert), [
      "将 gpu-a 停机？",
      "机器人会先确认 gpu-a 仍然闲置，再执行它的停机操作。",
      "停机",
      "取消",
    ]);
    assert.equal(alert.text, "💤 gpu-a 自 17:00 起闲置（30 分钟，至今 ¥12.00） <@U0ALICE>");
    assert.match(h.dmTexts(ALICE)[0] ?? "", /^💤 gpu-a 自 17:00 起闲置/);

    await h.user.slashCommand({ user: BOB, text: "status" });
    const board = h.latestEphemeral(BOB);
    assert.equal(board.text, "机群：1 台主机 · 4 块 GPU，0 块忙碌 · 1 台闲置");
    const boardText = replyText(board);
    assert.match(boardText, /^\*机群\* · 1 台主机/);
    assert.match(boardText, /^截至 17:35（Asia\/Shanghai）· 用 `\/gpu status <host>` 查看单台主机$/m);
    assert.match(
      boardText,
      /^\*闲置\* \(1\)\n• \*gpu-a\* 自 17:00 起闲置（35 分钟） · 4 块 GPU，利用率 0 % · 18:00 自动停机$/m,
    );

    await h.user.slashCommand({ user: BOB, text: "status gpu-a" });
    const detail = replyText(h.latestEphemeral(BOB));
    assert.match(detail, /^\*gpu-a\* · 自 17:00 起闲置（35 分钟）/);
    assert.match(detail, /负责人：<@U0ALICE> · 停机执行 `/);
    assert.match(detail, /登录会话：无。/);
    assert.match(detail, /闲置提醒自 17:05 起未关闭/);

    await h.user.slashCommand({ user: BOB, text: "status gpu-b" });
    assert.match(h.latestEphemeral(BOB).text, /^没有主机 gpu-b；你是指 gpu-a 吗？/);
  });

  test("team.language zh-CN: a stop's thread posts, the clicker's replies and a busy host's refusal are in Chinese", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig(
        { ...HOSTS, "gpu-b": { owners: [ALICE], stop: "script" } },
        { team: { timezone: "Asia/Shanghai", language: "zh-CN", currency: "CNY" } },
      ),
    });
    h.pollFor(6, allHosts(idleHost("gpu-a"), idleHost("gpu-b")));
    await h.settle();

    await h.user.clickButton({ user: ALICE, message: h.alertMessage("gpu-a"), actionId: "stop_host" });
    await h.emulator.waitFor(() => h.threadTexts("gpu-a").length === 2, "the outcome");
    await h.settle();
    const command = `${h.dir}/poweroff gpu-a`;
    const said = [
      `<@${ALICE}> 正在将 gpu-a 停机：执行 \`${command}\`。`,
      `<@${ALICE}> 已将 gpu-a 停机：\`${command}\` 退出码为 0。\n\`\`\`\npowering off gpu-a\n\`\`\``,
    ];
    assert.deepEqual(poweroffRuns(h), ["gpu-a"]);
    assert.deepEqual(h.threadTexts("gpu-a"), said);
    const link = `https://gpu-team.slack.com/archives/${CHANNEL}/p${h.alertMessage("gpu-a").ts.replace(".", "")}`;
    assert.deepEqual(h.ephemeralTexts(ALICE), [`正在将 gpu-a 停机：进度和结果见<${link}|提醒的线程>。`]);

    const alert = h.alertMessage("gpu-b");
    // NOTE: the alert's edit (host busy again) is held in the outbox, so the button is still on screen.
    await h.outbox.stop();
    h.poll(allHosts(idleHost("gpu-a"), busyHost("gpu-b")));
    await h.user.clickButton({ user: ALICE, message: alert, actionId: "stop_host" });
    await h.emulator.waitFor(() => h.ephemeralTexts(ALICE).length === 2, "the refusal");
    assert.equal(h.latestEphemeral(ALICE).text, "gpu-b 现在忙碌：GPU 3 利用率 97%");
    assert.deepEqual(poweroffRuns(h), ["gpu-a"]);
    h.outbox.start();
    await h.settle();
  });

  test("team.language auto: a person whose Slack locale is zh-CN reads Chinese; the channel stays English", async () => {
    h = await BotHarness.start({
      transport: "http",
      locales: { [ALICE]: "zh-CN", [EVE]: "zh-Hans" },
      config: standardConfig(HOSTS, {
        team: { timezone: "Europe/Berlin", language: "auto", currency: "CNY" },
      }),
    });
    h.pollFor(10, allHosts(idleHost("gpu-a")));
    await h.settle();

    const alert = h.alertMessage("gpu-a");
    assert.equal(header(alert), "💤 gpu-a is idle");
    assert.deepEqual(buttonLabels(alert), [
      "Stop this host",
      "Keep 1 h",
      "Keep 4 h",
      "Keep until tomorrow 09:00",
      "Claim it",
    ]);
    assert.match(
      shownText(alert),
      /^\*gpu-a\* has been idle since \*10:00\*: \*5 min\*, \*CN¥2\.00\* of capacity unused at CN¥24\.00\/h; stopping saves CN¥24\.00\/h\.$/m,
    );

    await h.user.slashCommand({ user: ALICE, text: "stop gpu-a" });
    const preview = h.latestEphemeral(ALICE);
    assert.equal(preview.text, "将 gpu-a 停机？");
    assert.deepEqual(preview.blocks[0]?.text, {
      type: "mrkdwn",
      text: `将 *gpu-a* 停机？将执行 \`${h.dir}/poweroff gpu-a\`。`,
    });
    assert.deepEqual(buttonLabels(preview), ["立即停机", "取消"]);

    await h.user.slashCommand({ user: EVE, text: "stop gpu-a" });
    assert.equal(
      h.latestEphemeral(EVE).text,
      "只有 gpu-a 的负责人（<@U0ALICE>）、成本看守人（<@U0CAROL>）或管理员（<@U0DAVE>）可以将它停机。",
    );
    await h.user.slashCommand({ user: EVE, text: "keep gpu-b 1h" });
    assert.equal(h.latestEphemeral(EVE).text, "没有主机 gpu-b；你是指 gpu-a 吗？");

    await h.user.slashCommand({ user: ALICE, text: "status" });
    assert.equal(h.latestEphemeral(ALICE).text, "机群：1 台主机 · 4 块 GPU，0 块忙碌 · 1 台闲置");
    await h.user.slashCommand({ user: BOB, text: "status" });
    assert.equal(h.latestEphemeral(BOB).text, "Fleet: 1 host · 4 GPUs, 0 busy · 1 idle");
  });
});
