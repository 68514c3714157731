import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { ALICE, BOB, BotHarness, EVE, standardConfig } from "../helpers/bot-harness.ts";

const DOC = new URL("../../docs/messages-zh-help.md", import.meta.url);

function shownText(payload: { text?: unknown; blocks?: unknown } | undefined): string {
  const blocks = (payload?.blocks ?? []) as { text?: { text?: string } }[];
  const sections = blocks.map((block) => block.text?.text ?? "").filter((text) => text !== "");
  return (sections.length > 0 ? sections.join("\n") : String(payload?.text ?? "")).replaceAll("\u200b", "");
}

describe("/gpu help and parse errors in the reader's language (Socket Mode)", { timeout: 120_000 }, () => {
  describe("team.language: zh-CN", () => {
    let h: BotHarness;
    before(async () => {
      h = await BotHarness.start({
        transport: "socket",
        config: standardConfig(
          { "gpu-a": { owners: [ALICE] } },
          { team: { timezone: "Asia/Shanghai", language: "zh-CN" } },
        ),
      });
    });
    after(() => h.close());

    test("help is Chinese, commands and forms stay as typed", async () => {
      const help = await h.user.slashCommand({ user: BOB, text: "help" });
      assert.equal(help.ackPayload?.text, "/gpu 命令");
      const shown = shownText(help.ackPayload);
      assert.match(
        shown,
        /\/gpu claim <host>\[:<gpus>\] \[for <duration>\] \[note…\] \[--wait\] \[project=<name>\] +认领一台主机或其中几块 GPU/,
      );
      assert.match(
        shown,
        /\/gpu claim <n> gpus>=<GiB> \[for <duration>\] \[note…\] \[--valley\] \[--wait\] +认领显存不少于该值、每 GPU 小时成本最低的 n 块空闲 GPU.*--valley：只在电价谷时分配/,
      );
      assert.match(shown, /\/gpu keep <host> <duration> +保留一台主机：暂停提醒，闲置提醒和自动停机都暂停/);
      assert.match(shown, /时长：`30m`, `4h`, `2d`。GPU 列表：`0`, `0,1`, `0-3`。$/);
      assert.doesNotMatch(shown, /this help|claim a host|Durations/);
      const doc = [
        "# `/gpu help` in Chinese",
        "",
        "What a team with `team.language: zh-CN` (or a member whose Slack locale is zh-CN under",
        "`team.language: auto`) reads for `/gpu help`, as rendered by `test/bot/help-language.test.ts`",
        "(run it with `UPDATE_DOCS=1` to rewrite this file).",
        "",
        shown,
        "",
      ].join("\n");
      if (process.env.UPDATE_DOCS === "1") writeFileSync(DOC, doc);
      assert.equal(readFileSync(DOC, "utf8"), doc, "docs/messages-zh-help.md shows the help as rendered");
    });

    test("a bare /gpu lists the asker's claims in Chinese", async () => {
      const bare = await h.user.slashCommand({ user: BOB, text: "" });
      assert.match(shownText(bare.ackPayload), /\n你没有任何认领。$/);
    });

    test("a parse error and its right form are Chinese", async () => {
      const typo = await h.user.slashCommand({ user: BOB, text: "clam gpu-a" });
      assert.equal(
        typo.ackPayload?.text,
        "未知命令 `clam`；你是想用 `claim` 吗？\n正确格式：`/gpu claim <host>[:<gpus>] [for <duration>] [note…] [--wait] [project=<name>]`，例如 `/gpu claim gpu-a:0,1 for 4h llama sft` 或 `/gpu claim <n> [<model>] [for <duration>] [note…] [--wait] [project=<name>]`，例如 `/gpu claim 2 a100 for 8h tuning --wait` 或 `/gpu claim <n> gpus>=<GiB> [for <duration>] [note…] [--valley] [--wait]`，例如 `/gpu claim 2 gpus>=40g for 8h --valley`",
      );
      const keep = await h.user.slashCommand({ user: BOB, text: "keep 4h" });
      assert.equal(
        keep.ackPayload?.text,
        "`keep 4h`：哪台主机？请先写主机名：`keep gpu-a 4h`。\n正确格式：`/gpu keep <host> <duration>`，例如 `/gpu keep gpu-a 4h`",
      );
      const unknown = await h.user.slashCommand({ user: BOB, text: "frobnicate" });
      assert.equal(unknown.ackPayload?.text, "未知命令 `frobnicate`。\n`/gpu help` 列出所有命令。");
    });
  });

  describe("team.language: auto", () => {
    let h: BotHarness;
    before(async () => {
      h = await BotHarness.start({
        transport: "socket",
        config: standardConfig({ "gpu-a": { owners: [ALICE] } }, { team: { language: "auto" } }),
        locales: { [EVE]: "zh-CN", [BOB]: "en-GB" },
      });
    });
    after(() => h.close());

    test("a member whose Slack locale is zh-CN reads Chinese; one in en-GB reads English", async () => {
      const eveHelp = await h.user.slashCommand({ user: EVE, text: "help" });
      assert.equal(eveHelp.ackPayload?.text, "/gpu 命令");
      assert.match(shownText(eveHelp.ackPayload), /认领一台主机或其中几块 GPU/);
      const eveError = await h.user.slashCommand({ user: EVE, text: "stop" });
      assert.equal(
        eveError.ackPayload?.text,
        "`stop` 需要主机。\n正确格式：`/gpu stop <host>`，例如 `/gpu stop gpu-a`",
      );

      const bobHelp = await h.user.slashCommand({ user: BOB, text: "help" });
      assert.equal(bobHelp.ackPayload?.text, "/gpu commands");
      assert.match(shownText(bobHelp.ackPayload), /claim a host or some of its GPUs/);
      const bobError = await h.user.slashCommand({ user: BOB, text: "stop" });
      assert.equal(
        bobError.ackPayload?.text,
        "`stop` needs a host.\nRight form: `/gpu stop <host>` — e.g. `/gpu stop gpu-a`",
      );
    });
  });
});
