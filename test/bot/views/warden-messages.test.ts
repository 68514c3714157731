import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  wardenAnnouncement,
  wardenChangeAnnouncement,
  wardenChecklistMessage,
} from "../../../src/bot/views/warden/warden-messages.ts";
import { translator } from "../../../src/messages/translator.ts";
import type { WardenChange } from "../../../src/usecases/warden/rotate-warden.ts";

const EN = translator({ language: "en", timeZone: "Europe/Berlin", currency: "EUR" });
const ZH = translator({ language: "zh-CN", timeZone: "Asia/Shanghai", currency: "CNY" });

const swap: WardenChange = {
  kind: "swap",
  month: "2026-01",
  from: "U0BOB",
  to: "U0CAROL",
  laterTurn: { user: "U0BOB", month: "2026-03" },
};

describe("the channel post after a warden swap", () => {
  test("never reads 'X swapped X's turn': it says who handed over or took over", () => {
    const by = (actor: string) => wardenChangeAnnouncement(EN, swap, actor).text;
    assert.equal(
      by("U0BOB"),
      "🔁 <@U0CAROL> is the cost warden for *January 2026* (<@U0BOB> handed over their turn). <@U0BOB> takes March 2026 instead.",
    );
    assert.equal(
      by("U0CAROL"),
      "🔁 <@U0CAROL> is the cost warden for *January 2026* (<@U0CAROL> took over <@U0BOB>'s turn). <@U0BOB> takes March 2026 instead.",
    );
    assert.equal(
      by("U0DAVE"),
      "🔁 <@U0CAROL> is the cost warden for *January 2026* (<@U0DAVE> swapped <@U0BOB>'s turn). <@U0BOB> takes March 2026 instead.",
    );
  });
});

describe("the cost warden in Chinese", () => {
  test("the announcement on the 1st names the warden, the month and the next one in Chinese", () => {
    const post = wardenAnnouncement(ZH, {
      month: "2026-04",
      warden: "U0CAROL",
      next: { month: "2026-05", user: "U0BOB" },
      late: true,
    });
    assert.equal(
      post.text,
      "🧭 <@U0CAROL> 是 *2026年4月* 的成本看守人。 下一位：<@U0BOB>（2026年5月）。 本月闲置机器的升级提醒和回收决定都交给成本看守人。 _（延迟公告：1 日时机器人未运行。）_",
    );
    assert.deepEqual(post.blocks[1], {
      type: "context",
      elements: [{ type: "mrkdwn", text: "`/gpu warden` 查看轮值表；外出时用 `/gpu warden skip`。" }],
    });
  });

  test("the swap post and the checklist DM read Chinese, money in ¥", () => {
    assert.equal(
      wardenChangeAnnouncement(ZH, swap, "U0DAVE").text,
      "🔁 <@U0CAROL> 是 *2026年1月* 的成本看守人（<@U0DAVE> 调换了 <@U0BOB> 的轮值）。 <@U0BOB> 改为负责 2026年3月。",
    );
    const dm = wardenChecklistMessage(ZH, {
      month: "2026-04",
      warden: "U0CAROL",
      atMs: Date.UTC(2026, 3, 1, 1),
      timezone: "Asia/Shanghai",
      currency: "CNY",
      idleHosts: [{ host: "gpu-a", idleSinceMs: Date.UTC(2026, 2, 31, 1) }],
      noData: [],
      pendingReclaims: null,
      lastMonth: {
        month: "2026-03",
        top: [{ host: "gpu-a", idleCost: 1234, idleGpuHours: 56.5 }],
        totalIdleCost: 2345,
        days: 31,
      },
    });
    assert.equal(
      dm.text,
      "🧭 你是 2026年4月的成本看守人：当前 1 台闲置主机，0 个待定的回收决定，0 台主机没有数据。",
    );
    const text = JSON.stringify(dm.blocks);
    assert.match(text, /\*gpu-a\* — 自 3月31日周二 09:00 起闲置/);
    assert.match(
      text,
      /\*gpu-a\* — ¥1,234（闲置 56.5 GPU 小时）\\n整个机群的闲置成本：成本账本中 31 天共 ¥2,345。/,
    );
    assert.match(text, /回收流程尚未配置。/);
    assert.doesNotMatch(text, /idle|None|[€$]/);
  });
});
