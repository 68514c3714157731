import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { renderSummaryMessage, summaryLateNotice } from "../../../src/bot/views/ledger/summary-message.ts";
import { rightsize } from "../../../src/checks/rightsizing.ts";
import { translator } from "../../../src/messages/translator.ts";
import { blockProblems, blocksTextChars } from "../../../src/playground/slack-emulator/validate-blocks.ts";
import type { FleetTotals, HostRow, SummaryModel } from "../../../src/reports/summary-model.ts";

const EN = translator({ language: "en", timeZone: "Europe/Berlin", currency: "EUR" });

/** Monday 16 March 2026, 10:00 in Berlin, and the two weeks before. */
const TO = Date.UTC(2026, 2, 16, 9, 0);
const FROM = Date.UTC(2026, 2, 2, 9, 0);
const DAY = 86_400_000;

const fleet = (over: Partial<FleetTotals>): FleetTotals => ({
  hosts: 2,
  gpus: 12,
  utilMeanPct: 41.6,
  busyGpuHours: 1_500,
  idleGpuHours: 2_300,
  unknownGpuHours: 232,
  idleCost: 4_321.5,
  unpricedGpus: 0,
  ...over,
});

const hostRow = (host: string, over: Partial<HostRow> = {}): HostRow => ({
  host,
  gpus: 8,
  utilMeanPct: 12.4,
  previousUtilMeanPct: 20.6,
  busyGpuHours: 100,
  idleGpuHours: 1_900,
  unknownGpuHours: 0,
  idleCost: 3_800,
  previousIdleGpuHours: 1_500,
  dailyUtilPct: Array.from({ length: 14 }, () => 12),
  dailyIdleGpuHours: Array.from({ length: 14 }, () => 1_900 / 14),
  dailyIdleCost: Array.from({ length: 14 }, () => 3_800 / 14),
  paidByTheHour: false,
  ...over,
});

function model(over: Partial<SummaryModel>): SummaryModel {
  return {
    period: { fromMs: FROM, toMs: TO },
    previous: { fromMs: FROM - 14 * DAY, toMs: FROM },
    timezone: "Europe/Berlin",
    currency: "EUR",
    dayStartsMs: Array.from({ length: 14 }, (_, i) => FROM + i * DAY),
    fleet: fleet({}),
    previousFleet: fleet({ utilMeanPct: 35.2, idleGpuHours: 2_000, idleCost: 4_800 }),
    coverage: { fromMs: FROM, untilMs: TO, readShare: 3_800 / 4_032 },
    hosts: [
      hostRow("gpu-a"),
      hostRow("cloud-b", { gpus: 4, utilMeanPct: 9, idleCost: null, paidByTheHour: true }),
    ],
    gpus: [],
    people: [
      {
        user: "U0BOB",
        claims: 2,
        claimedGpuHours: 96,
        busyGpuHours: 24,
        idleGpuHours: 72,
        idleCost: 144,
        stops: 0,
        savedCost: 0,
        keeps: 1,
      },
      {
        user: "U0CAROL",
        claims: 0,
        claimedGpuHours: 0,
        busyGpuHours: 0,
        idleGpuHours: 0,
        idleCost: 0,
        stops: 1,
        savedCost: 72,
        keeps: 0,
      },
    ],
    stops: [
      {
        host: "cloud-b",
        actor: "U0CAROL",
        atMs: FROM + 3 * DAY + 5 * 3_600_000,
        forced: false,
        nextUseMs: null,
        offHours: 18,
        savedCost: 72,
      },
    ],
    keeps: [
      { host: "gpu-a", actor: "U0BOB", atMs: FROM + DAY, untilMs: FROM + DAY + 4 * 3_600_000, keptHours: 4 },
    ],
    savedCost: 72,
    containers: {
      status: "ok",
      advice: [
        rightsize({
          group: "ml/trainer/main",
          namespace: "ml",
          workload: "trainer",
          container: "main",
          pods: 2,
          cpuRequestCores: 8,
          cpuPeakCores: 1.5,
          cpuMeanCores: 1.2,
          gpuRequest: 1,
          gpuMemMaxMiB: 30_000,
          gpuMemTotalMiB: 81_920,
        }),
      ],
    },
    reclaim: [
      {
        host: "gpu-a",
        state: "pending",
        sinceMs: FROM + 5 * DAY,
        untilMs: FROM + 19 * DAY,
        windowMeanPct: 8.2,
      },
    ],
    renewalBelowPct: 20,
    doNotRenew: [{ host: "cloud-b", currentUtilPct: 9, previousUtilPct: 12 }],
    ...over,
  };
}

interface Block {
  type: string;
  text?: { text: string };
  fields?: { text: string }[];
  elements?: { text: string }[];
}

function shown(blocks: unknown[] | undefined): string[] {
  return ((blocks ?? []) as Block[]).map((block) => {
    if (block.type === "section")
      return block.text?.text ?? (block.fields ?? []).map((f) => f.text).join(" | ");
    if (block.type === "context") return (block.elements ?? []).map((e) => e.text).join(" ");
    return `(${block.type})`;
  });
}

describe("the biweekly summary message", () => {
  test("flags GPUs with suspect readings: their hours count busy, and the message says so", () => {
    const reply = renderSummaryMessage(
      EN,
      model({
        suspect: [
          { host: "gpu-l", gpu: 0, hours: 36, ongoing: true },
          { host: "gpu-a", gpu: 2, hours: 5, ongoing: false },
        ],
      }),
      { teamName: "ml-infra", lateSinceMs: null, filesAttached: true },
    );
    assert.ok(
      shown(reply.blocks).includes(
        "❔ Suspect readings (100 % with no memory at idle power, a known driver fault): gpu-l GPU 0 36 h (ongoing), gpu-a GPU 2 5 h. " +
          "These hours count as busy in the figures above, though the GPUs were probably idle.",
      ),
    );
    const without = shown(
      renderSummaryMessage(EN, model({}), { teamName: "x", lateSinceMs: null, filesAttached: true }).blocks,
    );
    assert.ok(!without.some((line) => line.includes("Suspect")));
  });

  test("says what a person needs, in order, with the trend; names people without notifying them", () => {
    const reply = renderSummaryMessage(EN, model({}), {
      teamName: "ml-infra",
      lateSinceMs: null,
      filesAttached: true,
      names: new Map([["U0CAROL", "Carol <ops>"]]),
    });
    assert.doesNotMatch(JSON.stringify(reply), /<@|<!/, "no mention: nobody is pinged by a summary");
    assert.equal(
      reply.text,
      "GPU summary Mar 2 – Mar 16, 2026: mean utilisation 42 %, idle 2,300 h of GPU time costing €4,322",
    );
    assert.deepEqual(shown(reply.blocks), [
      "*GPU summary for ml-infra: Mar 2 – Mar 16, 2026*",
      "*Mean GPU utilisation*\n42 % (▲ 6 pts) | *Idle GPU-hours*\n2,300 h (▲ 15 %) | *Idle cost*\n€4,322 (▼ 10 %) | " +
        "*Saved by stops*\n€72.00 (1 stop) | *Hosts · GPUs*\n2 · 12 | *Data*\nall 14 days; readings for 94 % of GPU time, 232 h without (never counted as idle)",
      "(divider)",
      "*Hosts by idle cost* (mean utilisation, change, idle time, idle cost)\n" +
        "• *gpu-a* 12 % (▼ 8 pts), idle 1,900 h of GPU time, €3,800\n" +
        "• *cloud-b* 9 % (▼ 12 pts), idle 1,900 h of GPU time, no price",
      "*People* (GPU time claimed vs busy)\n" +
        "• U0BOB: claimed 96 h, busy 24 h (25 % busy), idle cost €144; 1 keep\n" +
        "• Carol &lt;ops&gt;: no claims; 1 stop saving €72.00",
      "*Stops and snoozes*\n• cloud-b stopped by Carol &lt;ops&gt; Thu, Mar 5 15:00: not used again, off 18 h, saved €72.00\n" +
        "Snoozes: 1 keep, 4 h kept in all.",
      "*Containers* (requests vs use over the period)\n1 container group, 1 using under half of what it requests.\n" +
        "• ml/trainer/main: CPU peak 1.5 of 8 cores (19 %) → request 1.8; GPU memory max 29.3 GiB of 80.0 GiB (37 %) → 38.1 GiB would do",
      "*Reclaim*\n• gpu-a: pending reclaim since Sat, Mar 7 (30-day mean 8 %), decision due Sat, Mar 21\n" +
        "*Do not renew* (rented or cloud, under 20 % two periods running)\n• cloud-b: 9 % this period, 12 % the one before",
      "Attached: a chart of idle cost per day by host, an hour-of-week heatmap, and the full tables as CSV. Idle means below the idle threshold; time without readings is never counted as idle.",
    ]);
  });

  test("a late post says so; a channel name (no ID) says why the files are missing; Prometheus down is named", () => {
    const reply = renderSummaryMessage(
      EN,
      model({ containers: { status: "failed", message: "Prometheus at http://prom:9090 is unreachable" } }),
      { teamName: "ml-infra", lateSinceMs: TO, filesAttached: false },
    );
    const lines = shown(reply.blocks);
    assert.equal(
      lines[1],
      ":hourglass: Posted late: this summary was due Mon, Mar 16 10:00 while the bot was down.",
    );
    assert.ok(
      lines.includes(
        "*Containers* (requests vs use over the period)\nPrometheus did not answer: Prometheus at http://prom:9090 is unreachable",
      ),
    );
    assert.match(lines.at(-1)!, /need `slack.channel` set to the channel ID/);
  });

  test("a summary queued on time that waited for Slack says so when it arrives", () => {
    assert.deepEqual(summaryLateNotice(EN, TO, "slack"), {
      type: "context",
      elements: [
        {
          type: "mrkdwn",
          text: ":hourglass: Posted late: this summary was due Mon, Mar 16 10:00 and waited for Slack to take it.",
        },
      ],
    });
  });

  test("the worst case (hundreds of 255-character names in every list) stays within Slack's limits", () => {
    const long = (i: number) => `${String(i).padStart(3, "0")}-${"x".repeat(251)}`;
    const many = Array.from({ length: 300 }, (_, i) => long(i));
    const reply = renderSummaryMessage(
      EN,
      model({
        hosts: many.map((host) => hostRow(host)),
        people: many.map((_, i) => ({
          ...model({}).people[0]!,
          user: `U${String(i).padStart(10, "0")}`,
          stops: 3,
          keeps: 2,
        })),
        stops: many.map((host) => ({ ...model({}).stops[0]!, host, forced: true })),
        containers: {
          status: "ok",
          advice: many.map((name) =>
            rightsize({
              group: `${name}/${name}/${name}`,
              namespace: name,
              workload: name,
              container: name,
              pods: 1,
              cpuRequestCores: 64,
              cpuPeakCores: 0.5,
              cpuMeanCores: 0.1,
              gpuRequest: 8,
              gpuMemMaxMiB: 1_000,
              gpuMemTotalMiB: 81_920,
            }),
          ),
        },
        reclaim: many.map((host) => ({ host, state: "due", sinceMs: FROM, untilMs: TO, windowMeanPct: 1 })),
        doNotRenew: many.map((host) => ({ host, currentUtilPct: 1, previousUtilPct: 1 })),
      }),
      { teamName: "t".repeat(200), lateSinceMs: TO, filesAttached: true, maxRows: 1_000 },
    );
    assert.deepEqual(blockProblems(reply.blocks, "message"), []);
    const chars = blocksTextChars(reply.blocks);
    assert.ok(chars <= 11_000, `${chars} characters of block text`);
    assert.ok((reply.blocks ?? []).length <= 50);
    assert.ok(reply.text.length <= 4_000);
    for (const line of shown(reply.blocks))
      assert.ok(line.length <= 3_000, `${line.length} characters in one block`);
    assert.ok(shown(reply.blocks).some((line) => /…and 29\d more in the CSV/.test(line)));
  });
});

describe("a summary soon after a fresh start", () => {
  test("says it covers hours, not '0 of 14 days', and shows no savings without the costs they come from", () => {
    const fresh = model({
      coverage: { fromMs: TO - 10 * 60_000, untilMs: TO, readShare: null },
      savedCost: 1.23,
    });
    const text = shown(
      renderSummaryMessage(EN, fresh, { teamName: "ml-infra", lateSinceMs: null, filesAttached: true })
        .blocks,
    ).join("\n");
    assert.match(text, /10 min of 14 days/);
    assert.doesNotMatch(text, /0 of 14 days/);
    assert.doesNotMatch(text, /€1\.23/);
    assert.match(text, /not priced: no readings yet/);
  });
});
