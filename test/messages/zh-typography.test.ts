import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { claimProblemIn } from "../../src/bot/views/claims/claim-problem-words.ts";
import { emphasisBoundaries, withEmphasisBoundaries } from "../../src/bot/views/emphasis-boundaries.ts";
import { CATALOGS } from "../../src/messages/catalog.ts";
import { translator } from "../../src/messages/translator.ts";
import { cjkEmphasisProblems, mrkdwnTexts } from "../helpers/cjk-emphasis.ts";

const zh = CATALOGS["zh-CN"] as Record<string, string>;
const tr = translator({ language: "zh-CN", timeZone: "Asia/Shanghai", currency: "CNY" });

/** A catalog text with its code spans and arguments replaced, so only the words written remain. */
function writtenWords(text: string): string {
  let out = text.replace(/`[^`]*`/g, "`x`");
  for (let before = ""; before !== out; ) {
    before = out;
    out = out.replace(/\{[^{}]*\}/g, "X");
  }
  return out;
}

describe("Chinese that renders in Slack", () => {
  test("a bold mark next to Chinese gets a zero-width boundary; code, links and ASCII neighbours are left alone", () => {
    const source = "*gpu-a* 自 *17:00* 起闲置：*30 分钟*，至今已浪费 *¥12.00*（每小时 ¥24.00）。";
    assert.deepEqual(cjkEmphasisProblems(source).length, 2);
    const bounded = emphasisBoundaries(source);
    assert.equal(
      bounded,
      "*gpu-a* 自 *17:00* 起闲置：\u200b*30 分钟*\u200b，至今已浪费 *¥12.00*\u200b（每小时 ¥24.00）。",
    );
    assert.deepEqual(cjkEmphasisProblems(bounded), []);
    assert.equal(emphasisBoundaries(bounded), bounded, "running it twice changes nothing more");
    assert.equal(emphasisBoundaries("见 `a*b*中` 与 <http://x|*y*>中"), "见 `a*b*中` 与 <http://x|*y*>中");
    assert.equal(emphasisBoundaries("*English* text, *bold*."), "*English* text, *bold*.");
  });

  test("every mrkdwn text of a payload is bounded, plain_text is not", () => {
    const payload = withEmphasisBoundaries({
      text: "：*a*，",
      blocks: [
        { type: "section", text: { type: "mrkdwn", text: "*占用显存*：无。" } },
        { type: "header", text: { type: "plain_text", text: "：*a*，" } },
      ],
    });
    assert.deepEqual(mrkdwnTexts(payload).flatMap(cjkEmphasisProblems), []);
    assert.equal(payload.blocks[1]!.text.text, "：*a*，");
    const file = Buffer.from("png");
    assert.equal(
      withEmphasisBoundaries({ file, text: "：*a*，" }).file,
      file,
      "a file's bytes go as they are",
    );
  });

  test("the lint finds italics and strikes next to Chinese too, and only outside the marks", () => {
    assert.equal(cjkEmphasisProblems("已_暂停_。").length, 1);
    assert.equal(cjkEmphasisProblems("已 ~删除~ 。").length, 0);
    assert.equal(cjkEmphasisProblems("*中文* 在里面").length, 0);
  });
});

describe("the zh-CN catalog's typography", () => {
  test("no ASCII , : ; ( ) next to a Chinese character outside code", () => {
    const bad = Object.entries(zh).filter(([, text]) =>
      /\p{Script=Han}\s?[,:;()]|[,:;()]\s?\p{Script=Han}/u.test(writtenWords(text)),
    );
    assert.deepEqual(bad, []);
  });

  test("input words (durations, days, flags) are written as code", () => {
    const bad = Object.entries(zh).filter(
      ([id, text]) =>
        // `/gpu help` lines are shown in a code block already.
        !id.startsWith("help.command.") &&
        /\b(today|tomorrow|every (weekday|day|mon)|--[a-z]+|\d+[mhd])\b/.test(writtenWords(text)),
    );
    assert.deepEqual(bad, []);
  });

  test("no space between a Chinese argument and the Chinese around it", () => {
    assert.equal(tr.t("reserve.notMember", { project: "视觉组" }), "你不是项目视觉组的成员，不能为它预留。");
    assert.equal(
      tr.t("reserve.notMember", { project: "vision" }),
      "你不是项目 vision 的成员，不能为它预留。",
    );
  });

  test("`claim gpu-a:99` says which GPU is missing without a count that reads as a total", () => {
    const words = claimProblemIn(tr, {
      kind: "no-such-gpus",
      host: "gpu-a",
      has: [0],
      missing: [99],
    } as never);
    assert.equal(words, "gpu-a 有 GPU 0：没有 GPU 99。");
  });
});

describe("the playground's mrkdwn renderer reads emphasis as Slack does", () => {
  test("bold next to Chinese only with a boundary", async () => {
    const page = new URL("../../src/playground/page/mrkdwn.js", import.meta.url).href;
    const { mrkdwn } = (await import(page)) as { mrkdwn: (text: string) => string };
    assert.equal(mrkdwn("闲置：*30 分钟*，"), "闲置：*30 分钟*，");
    assert.equal(
      mrkdwn(emphasisBoundaries("闲置：*30 分钟*，")),
      "闲置：\u200b<strong>30 分钟</strong>\u200b，",
    );
  });
});
