import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createOutboxClient, createOutboxWorker } from "../../src/bot/outbox/outbox-worker.ts";
import { renderSummaryMessage } from "../../src/bot/views/ledger/summary-message.ts";
import type { ContainerGroupUsage } from "../../src/checks/rightsizing.ts";
import type { GpuHourRollup, HostRecord } from "../../src/domain/metrics.ts";
import { translator } from "../../src/messages/translator.ts";
import {
  type SlackEmulator,
  startSlackEmulator,
} from "../../src/playground/slack-emulator/start-slack-emulator.ts";
import { hourRowsOf } from "../../src/reports/hour-rows.ts";
import { renderSummaryChart } from "../../src/reports/summary-chart.ts";
import { ManualClock } from "../../src/shared/clock.ts";
import { silentLogger } from "../../src/shared/logger.ts";
import { createBotStateStore } from "../../src/store/bot-state-store.ts";
import { openDatabase } from "../../src/store/open-database.ts";
import { summaryPeriod } from "../../src/usecases/ledger/build-summary.ts";
import { decodePng } from "../helpers/png.ts";
import { buildSummaryModel } from "../helpers/summary-model-now.ts";
import { tsChildArgs } from "../helpers/ts-child.ts";
import { LedgerRig } from "./ledger-rig.ts";
import {
  CAROL,
  CHANNEL,
  CONFIG,
  HISTORY_FROM,
  HISTORY_TO,
  observe,
  P0,
  P1,
  ZONE,
} from "./summary-fixture.ts";

const EN = translator({ language: "en", timeZone: "Europe/Berlin", currency: "EUR" });

const child = join(import.meta.dirname, "post-summary-child.ts");
const childArgs = await tsChildArgs(child);
const dir = mkdtempSync(join(tmpdir(), "gw-post-summary-"));
const db = join(dir, "gpu-warden.db");
const MINUTE = 60_000;
const DAY = 86_400_000;
let slack: SlackEmulator;

before(async () => {
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

/** Runs the child bot at `atMs`; in crash mode kills it (SIGKILL) once it has computed the summary. */
function runAt(atMs: number, mode: "run" | "crash-after-compute"): Promise<string> {
  return new Promise((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      [...childArgs, db, slack.apiUrl, slack.identity.botToken, String(atMs), mode],
      { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, TZ: "UTC" } },
    );
    let out = "";
    let err = "";
    const timer = setTimeout(() => {
      proc.kill("SIGKILL");
      reject(new Error(`child (${mode}) hung: ${out} ${err}`));
    }, 90_000);
    proc.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (mode !== "run" && out.includes("computed")) proc.kill("SIGKILL");
    });
    proc.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    proc.on("exit", (code, signal) => {
      clearTimeout(timer);
      if (mode === "run" && code !== 0) reject(new Error(`child exited ${code}: ${err}`));
      else if (mode !== "run" && signal !== "SIGKILL")
        reject(new Error(`child was not killed (${code}): ${out} ${err}`));
      else resolve(out.trim());
    });
  });
}

const summaries = () => slack.channel(CHANNEL).messages;
const blockText = (blocks: unknown[]) => JSON.stringify(blocks);

describe("the biweekly summary is posted exactly once per period, with its chart and CSVs", () => {
  it("killed between computing and posting, restarted, restarted again → one post", async () => {
    assert.equal(await runAt(P0 + 30_000, "crash-after-compute"), "computed");
    assert.equal(summaries().length, 0);
    assert.equal(await runAt(P0 + MINUTE, "run"), "done");
    assert.equal(await runAt(P0 + 2 * MINUTE, "run"), "done");
    const posted = summaries();
    assert.equal(posted.length, 1);
    const [message] = posted;
    assert.equal(
      message!.via,
      "files.completeUploadExternal",
      "one message: the blocks with the files attached",
    );
    assert.ok(message!.blocks.length > 5 && message!.blocks.length <= 50);
    const text = blockText(message!.blocks);
    assert.match(text, /GPU summary for ml-infra: Mar 2 – Mar 16, 2026/);
    assert.doesNotMatch(text, /Posted late/);
    assert.match(text, /cloud-b: 4 % this period, 4 % the one before/, "do not renew");

    const files = message!.fileIds.map((id) => slack.files().find((file) => file.id === id)!);
    assert.deepEqual(
      files.map((file) => file.filename),
      [
        "gpu-summary-2026-03-16.png",
        "gpu-summary-2026-03-16-hours.png",
        "gpu-summary-2026-03-16-hosts.csv",
        "gpu-summary-2026-03-16-people.csv",
        "gpu-summary-2026-03-16-actions.csv",
      ],
    );
    const png = decodePng(files[0]!.bytes!);
    assert.equal(png.width, 960);
    assert.ok(files[0]!.bytes!.length < 1_000_000);
    assert.match(
      files[0]!.altText ?? "",
      /^Stacked bars of idle cost per day, Mar 2 to Mar 16, 2026, by host \(2 hosts\): €[\d,]+ in all\.$/,
    );
    const heatmap = decodePng(files[1]!.bytes!);
    assert.equal(heatmap.width, 632, "the hour-of-week heatmap, second");
    assert.match(files[1]!.altText ?? "", /^Heatmap of GPU use by hour of the week for \d+ hosts?, /);
    const hosts = files[2]!.bytes!.toString("utf8").split("\r\n");
    assert.equal(hosts[0]!.split(",").length, 12 + 14, "12 columns and one per day");
    assert.equal(hosts.filter((line) => line.startsWith("gpu,")).length, 6);
    assert.equal(slack.dms(CAROL).length, 1, "the warden is told once about cloud-b");
    assert.match(slack.dms(CAROL)[0]!.text, /Do not renew: 1 rented or cloud host/);
  });

  it("down for three days over the next slot (after the DST change) → posted once, marked late", async () => {
    await runAt(P1 - 3 * DAY, "run");
    assert.equal(summaries().length, 1, "nothing due between slots");
    await runAt(P1 + 3 * DAY, "run");
    await runAt(P1 + 3 * DAY + MINUTE, "run");
    const posted = summaries();
    assert.equal(posted.length, 2);
    const text = blockText(posted[1]!.blocks);
    assert.match(text, /GPU summary for ml-infra: Mar 16 – Mar 30, 2026/);
    assert.match(text, /Posted late: this summary was due Mon, Mar 30 10:00 while the bot was down/);
    assert.equal(slack.dms(CAROL).length, 2, "one do-not-renew DM per period");
  });
});

describe("a large fleet's summary still fits Slack's limits", () => {
  it("1,000 GPUs, 60 people, 40 container groups: accepted by the emulator, long lists cut to the CSV", async () => {
    const period = summaryPeriod(P0, ZONE);
    const hosts: HostRecord[] = Array.from({ length: 125 }, (_, h) => ({
      name: `node-${String(h).padStart(3, "0")}.cluster.example.org`,
      source: "prometheus",
      firstSeenMs: 0,
      gpus: Array.from({ length: 8 }, (_, index) => ({
        index,
        uuid: null,
        model: "H100",
        memTotalMiB: 81_559,
        mig: false,
        firstSeenMs: 0,
      })),
    }));
    const rollups: GpuHourRollup[] = [];
    for (let hourMs = period.fromMs; hourMs < period.toMs; hourMs += 3_600_000) {
      for (const [h, host] of hosts.entries()) {
        for (const gpu of host.gpus) {
          const util = (h * 7 + gpu.index * 13 + hourMs / 3_600_000) % 100;
          rollups.push({
            host: host.name,
            index: gpu.index,
            uuid: null,
            hourMs,
            utilMeanPct: util,
            utilMaxPct: util,
            busyMinutes: util >= 10 ? 60 : 0,
            idleMinutes: util >= 10 ? 0 : 60,
            unknownMinutes: 0,
            memMeanMiB: null,
            memMaxMiB: null,
            energyWh: 300,
          });
        }
      }
    }
    const groups: ContainerGroupUsage[] = Array.from({ length: 40 }, (_, i) => ({
      group: `team-${i}/trainer-${i}/main`,
      namespace: `team-${i}`,
      workload: `trainer-${i}`,
      container: "main",
      pods: 3,
      cpuRequestCores: 16,
      cpuPeakCores: 1 + (i % 5),
      cpuMeanCores: 1,
      gpuRequest: 1,
      gpuMemMaxMiB: 10_000,
      gpuMemTotalMiB: 81_559,
    }));
    const model = buildSummaryModel({
      period,
      previous: summaryPeriod(period.fromMs, ZONE),
      dataUntilMs: period.toMs,
      timezone: ZONE,
      hosts,
      rollups: hourRowsOf(rollups),
      previousTotals: [],
      claims: Array.from({ length: 60 }, (_, i) => ({
        host: hosts[i]!.name,
        gpuIndex: null,
        user: `U${String(i).padStart(8, "0")}`,
        fromMs: period.fromMs + i * 3_600_000,
        untilMs: period.fromMs + i * 3_600_000 + 48 * 3_600_000,
        releasedAtMs: null,
      })),
      audit: Array.from({ length: 30 }, (_, i) => ({
        id: i + 1,
        atMs: period.fromMs + i * 10 * 3_600_000,
        actor: CAROL,
        action: i % 2 === 0 ? "stop" : "keep",
        host: hosts[i]!.name,
        detail: { untilMs: period.fromMs + i * 10 * 3_600_000 + 3_600_000 },
        exitCode: 0,
        outputTail: null,
        forced: false,
        dryRun: false,
      })),
      pricing: {
        currency: "EUR",
        hostCost: (_host, usage) => 12 * ((usage.toMs - usage.fromMs) / 3_600_000),
        offSaving: (_host, fromMs, toMs) => (12 * (toMs - fromMs)) / 3_600_000,
      },
      paidByTheHour: (name) => name.endsWith("7.cluster.example.org"),
      containers: { status: "ok", groups },
      reclaim: hosts.slice(0, 25).map((host, i) => ({
        host: host.name,
        state: i % 2 === 0 ? "pending" : "due",
        sinceMs: period.fromMs,
        untilMs: period.toMs,
        windowMeanPct: 3,
      })),
      renewalBelowPct: 60,
    });
    const message = renderSummaryMessage(EN, model, {
      teamName: "a very large team",
      lateSinceMs: P0,
      filesAttached: true,
    });
    const chart = renderSummaryChart(model, { language: "en" });
    assert.equal(chart.hostsShown, 8, "the top hosts; the rest stacked as others");
    assert.ok(chart.png.length < 1_000_000, `${chart.png.length} bytes`);

    const clock = new ManualClock(P0);
    const stateDb = openDatabase(join(dir, "outbox.db"));
    const outbox = createOutboxWorker({
      postIntervalMs: 0,
      store: createBotStateStore(stateDb),
      client: createOutboxClient({
        botToken: slack.identity.botToken,
        slackApiUrl: slack.apiUrl,
        logger: silentLogger,
      }),
      clock,
      logger: silentLogger,
    });
    outbox.start();
    try {
      const before = summaries().length;
      outbox.send("files.uploadV2", {
        channel_id: CHANNEL,
        blocks: message.blocks,
        file_uploads: [{ file: chart.png, filename: "big.png", title: "big", alt_text: chart.altText }],
      });
      outbox.send("chat.postMessage", { channel: CHANNEL, text: message.text, blocks: message.blocks });
      await outbox.drain(30_000);
      const posted = summaries().slice(before);
      assert.equal(posted.length, 2, "both the upload and a plain post were accepted");
      const text = blockText(posted[0]!.blocks);
      assert.match(text, /…and 115 more in the CSV/, "hosts beyond the first ten");
      assert.match(
        text,
        /…and 51 more in the CSV/,
        "people beyond the first ten (60 claimants and the warden)",
      );
      assert.match(text, /40 container groups, 40 using under half of what they request/);
      assert.equal(
        decodePng(slack.files().find((f) => f.filename === "big.png")!.bytes!).height,
        chart.height,
      );
    } finally {
      await outbox.stop();
      stateDb.close();
    }
  });
});
