import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  type SlackEmulator,
  startSlackEmulator,
} from "../../src/playground/slack-emulator/start-slack-emulator.ts";
import { decodePng } from "../helpers/png.ts";
import { tsChildArgs } from "../helpers/ts-child.ts";
import { LedgerRig } from "./ledger-rig.ts";
import { CAROL, CHANNEL, CONFIG, HISTORY_FROM, HISTORY_TO, observe, P0 } from "./summary-fixture.ts";

const child = join(import.meta.dirname, "post-summary-child.ts");
let childArgs: string[];
const dir = mkdtempSync(join(tmpdir(), "gw-post-summary-zh-"));
const db = join(dir, "gpu-warden.db");
const DAY = 86_400_000;
let slack: SlackEmulator;

before(async () => {
  childArgs = await tsChildArgs(child);
  const rig = new LedgerRig(db, CONFIG, HISTORY_TO + DAY);
  rig.write(HISTORY_FROM, HISTORY_TO, observe);
  rig.close();
  slack = await startSlackEmulator({
    channels: [{ id: CHANNEL, name: "gpu" }],
    users: [{ id: CAROL, name: "carol" }],
  });
});
after(async () => {
  await slack?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the child bot (the real summary job, slot runner and outbox) at `atMs` for a zh-CN, CNY team. */
function runAt(atMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      [...childArgs, db, slack.apiUrl, slack.identity.botToken, String(atMs), "run", "zh"],
      { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, TZ: "UTC" } },
    );
    let err = "";
    proc.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    proc.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`child exited ${code}: ${err}`))));
  });
}

/** The mrkdwn a person reads in a message's blocks, in order. */
function readText(blocks: unknown[]): string {
  const texts: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node !== null && typeof node === "object") {
      const record = node as Record<string, unknown>;
      if (record.type === "mrkdwn" && typeof record.text === "string") texts.push(record.text);
      else if (record.type === "divider") texts.push("---");
      else Object.values(record).forEach(walk);
    }
  };
  walk(blocks);
  // What a person reads: the zero-width boundaries around bold marks are invisible.
  return texts.join("\n\n").replaceAll("\u200b", "");
}

describe("a zh-CN team paying in CNY reads the biweekly summary in Chinese", () => {
  it("the posted summary, its chart, its CSV headers and the warden's DM are Chinese, money in ¥", async () => {
    await runAt(P0 + 60_000);
    const posted = slack.channel(CHANNEL).messages;
    assert.equal(posted.length, 1);
    const text = readText(posted[0]!.blocks);
    assert.match(text, /\*ml-infra 的 GPU 汇总：3月2日 至 2026年3月16日\*/);
    assert.match(text, /\*平均 GPU 利用率\*/);
    assert.match(text, /\*闲置成本\*\n¥[\d,]+/);
    assert.match(text, /\*闲置时段停机可省\*\n¥[\d,]+/);
    assert.match(text, /\*按闲置成本排列的主机\*（平均利用率、变化、闲置时间、闲置成本）/);
    assert.match(text, /cloud-b\* \d+ %（[^）]+），闲置 GPU 时间 [\d,]+ 小时，¥[\d,]+/);
    assert.match(
      text,
      /\*不要续租\*（租用或云主机，连续两个周期低于 20 %）\n• cloud-b：本周期 4 %，上周期 4 %/,
    );
    assert.match(text, /附件：每日闲置成本（按主机）图表/);
    assert.doesNotMatch(text, /[€$]|GPU summary|idle|Hosts by/, "no English and no other currency");

    const files = posted[0]!.fileIds.map((id) => slack.files().find((file) => file.id === id)!);
    assert.equal(files[0]!.filename, "gpu-summary-2026-03-16.png");
    assert.equal(files[0]!.title, "每日闲置成本（按主机）");
    assert.match(
      files[0]!.altText ?? "",
      /^每日闲置成本堆叠柱状图，3月2日 至 2026年3月16日，按主机（2 台）：共 ¥[\d,]+。$/,
    );
    assert.equal(decodePng(files[0]!.bytes!).width, 960);
    assert.equal(files[1]!.title, "每周各小时的 GPU 使用情况", "the hour-of-week heatmap");
    assert.equal(files[2]!.title, "主机与 GPU");
    const header = files[2]!.bytes!.toString("utf8").split("\r\n")[0]!.split(",");
    assert.deepEqual(header.slice(0, 4), ["层级", "主机", "GPU", "型号"]);
    assert.ok(header.includes("闲置成本_cny"), header.join(","));
    assert.ok(header.includes("利用率_%_2026-03-02"), header.join(","));

    const dm = slack.dms(CAROL);
    assert.equal(dm.length, 1);
    assert.match(dm[0]!.text, /^不要续租：1 台租用或云主机连续两个汇总周期低于 20 %。$/);

    if (process.env.WRITE_ZH_SUMMARY !== undefined) {
      writeFileSync(
        process.env.WRITE_ZH_SUMMARY,
        `# 中文汇总示例 (a zh-CN summary, rendered)\n\nWritten by \`test/usecases/post-summary-zh.test.ts\` with \`WRITE_ZH_SUMMARY=docs/messages-zh-summary.md\`: the biweekly summary a team with \`team.language: zh-CN\` and \`team.currency: CNY\` reads in Slack (mrkdwn as posted), its chart's title and the warden's DM.\n\n\`\`\`text\n${text}\n\`\`\`\n\nChart: **${files[0]!.title}**, alt text: ${files[0]!.altText}\n\nCSV \`${files[2]!.filename}\` (${files[2]!.title}): \`${header.join(",")}\`\n\nDM to the cost warden: ${dm[0]!.text}\n`,
      );
    }
  });
});
