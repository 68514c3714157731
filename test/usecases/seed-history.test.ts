import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { StoredMessage } from "../../src/playground/slack-emulator/emulator-state.ts";
import { DAY_MS, HOUR_MS, MINUTE_MS } from "../../src/shared/clock.ts";
import { silentLogger } from "../../src/shared/logger.ts";
import {
  createPrometheusSource,
  type PrometheusSource,
  type PrometheusSourceConfig,
} from "../../src/sources/prometheus-source.ts";
import { idlePolicyOf, restoreWindowMinutes } from "../../src/usecases/alerts/alert-policy.ts";
import { PRIOR_STEP_MS, type SeededHistory, seedHistory } from "../../src/usecases/fleet/seed-history.ts";
import { ALICE, BOB, BotHarness, CHANNEL, standardConfig } from "../helpers/bot-harness.ts";
import { METRICS_BACKENDS, startMetricsBackend } from "../helpers/metrics-backend.ts";
import type { HistorySeries, RunningPrometheus } from "../helpers/prometheus.ts";

/**
 * A fresh install against a Prometheus that holds 8 days of dcgm-exporter history: the first poll
 * after start alerts on what history says, through the real Bolt app and the Slack emulator.
 */

/** The bot's start, on a 5-minute grid, 5 minutes back so that every backfilled point is in the past. */
const NOW = Math.floor((Date.now() - 5 * MINUTE_MS) / (5 * MINUTE_MS)) * (5 * MINUTE_MS);
const HISTORY_FROM = NOW - 8 * DAY_MS;
const IDLE_FROM = NOW - 3 * DAY_MS - 10 * MINUTE_MS;
/** gappy-c reports nothing for this hour. */
const GAP = [NOW - 26 * HOUR_MS, NOW - 25 * HOUR_MS] as const;
/** half-gone's GPU 1 reports nothing for these 40 minutes, while its GPU 0 goes on at 3 %. */
const HALF_GONE = [NOW - 30 * HOUR_MS, NOW - 30 * HOUR_MS + 40 * MINUTE_MS] as const;
const A100 = "NVIDIA A100-SXM4-40GB";
const MIG_INSTANCES = [7, 8, 9, 10, 11, 12, 13];

type Util = (atMs: number, gpu: number) => number | null;

interface HistoryHost {
  host: string;
  gpus: number;
  util: Util;
}

/**
 * sparse-s's exporter answers every 8 minutes (its latest sample 2 minutes before the start): at 2-minute
 * steps one step in four finds nothing within the source's 5 minutes (`stale_after_seconds`), where
 * VictoriaMetrics' own look-back (1.125 × the series' interval, 9 min) would repeat the older sample.
 */
const SPARSE_MS = 8 * MINUTE_MS;

const hosts: HistoryHost[] = [
  { host: "idle-3d", gpus: 2, util: (t) => (t >= IDLE_FROM ? 2 : 85) },
  { host: "sparse-s", gpus: 1, util: (t) => ((NOW - 2 * MINUTE_MS - t) % SPARSE_MS === 0 ? 0 : null) },
  { host: "busy-b", gpus: 2, util: (t) => 40 + ((t / MINUTE_MS) % 50) },
  { host: "gappy-c", gpus: 2, util: (t) => (t >= GAP[0] && t < GAP[1] ? null : 1) },
  { host: "idle-long", gpus: 1, util: () => 0 },
  {
    host: "half-gone",
    gpus: 2,
    util: (t, gpu) => (gpu === 1 && t >= HALF_GONE[0] && t < HALF_GONE[1] ? null : 3),
  },
];

function minutes(from: number, to: number): number[] {
  const out: number[] = [];
  for (let t = from; t <= to; t += MINUTE_MS) out.push(t);
  return out;
}

function history(): HistorySeries[] {
  const times = minutes(HISTORY_FROM, NOW - 2 * MINUTE_MS);
  const util: HistorySeries[] = [];
  const fb: HistorySeries[] = [];
  const power: HistorySeries[] = [];
  const gr: HistorySeries[] = [];
  for (const { host, gpus, util: at } of hosts) {
    for (let gpu = 0; gpu < gpus; gpu++) {
      const labels = { Hostname: host, gpu: String(gpu), UUID: `GPU-${host}-${gpu}`, modelName: A100 };
      const when = times.filter((t) => at(t, gpu) !== null);
      util.push({ name: "DCGM_FI_DEV_GPU_UTIL", labels, points: when.map((t) => [t, at(t, gpu)!]) });
      fb.push({ name: "DCGM_FI_DEV_FB_USED", labels, points: when.map((t) => [t, 1200]) });
      power.push({ name: "DCGM_FI_DEV_POWER_USAGE", labels, points: when.map((t) => [t, 60]) });
    }
  }
  // mig-m: an A100 split into seven 1g.5gb instances, idle for 3 days; no GPU_UTIL at all (NVML has none
  // under MIG), engine activity per instance, memory and power per GPU, as dcgm-exporter sends them.
  const whole = { Hostname: "mig-m", gpu: "0", UUID: "GPU-mig-m-0", modelName: A100, device: "nvidia0" };
  fb.push({ name: "DCGM_FI_DEV_FB_USED", labels: whole, points: times.map((t) => [t, 3500]) });
  power.push({ name: "DCGM_FI_DEV_POWER_USAGE", labels: whole, points: times.map((t) => [t, 70]) });
  for (const id of MIG_INSTANCES) {
    const labels = { ...whole, GPU_I_PROFILE: "1g.5gb", GPU_I_ID: String(id) };
    gr.push({
      name: "DCGM_FI_PROF_GR_ENGINE_ACTIVE",
      labels,
      points: times.map((t) => [t, t >= IDLE_FROM ? 0.01 : 0.9]),
    });
    fb.push({ name: "DCGM_FI_DEV_FB_USED", labels, points: times.map((t) => [t, 400 + id]) });
  }
  return [...util, ...fb, ...power, ...gr];
}

const config = (url: string) =>
  standardConfig(
    {
      "idle-3d": { owners: [ALICE], cost_per_hour: 12.5 },
      "busy-b": { cost_per_hour: 12.5 },
      "gappy-c": { cost_per_hour: 12.5 },
      "half-gone": { cost_per_hour: 1 },
      "idle-long": { cost_per_hour: 1 },
      "mig-m": { owners: [ALICE], cost_per_hour: 4 },
      "sparse-s": { cost_per_hour: 1 },
    },
    {
      policy: { idle_for_minutes: 30, no_data_polls: 2 },
      sources: [{ kind: "prometheus", url, containers: false }],
    },
  );

function alertOf(h: BotHarness, host: string): StoredMessage | null {
  const alert = h.state.alerts.openFor(host, "idle");
  if (alert === null) return null;
  return h.alertMessage(host);
}

/** The message as first posted (before any edit). */
function firstVersion(message: StoredMessage): { text: string; blocks: unknown[] } {
  return message.edits[0] ?? message;
}

function sectionTexts(message: { blocks: unknown[] }): string {
  return (message.blocks as { type: string; text?: { text: string } }[])
    .filter((block) => block.type === "section" && block.text)
    .map((block) => block.text!.text)
    .join("\n");
}

for (const backend of METRICS_BACKENDS)
  describe(`first start against a ${backend} with 8 days of history`, () => {
    let prom: RunningPrometheus;
    let h: BotHarness;
    let source: PrometheusSource;
    let seeded: SeededHistory | null;

    before(async () => {
      prom = await startMetricsBackend(backend, { backfill: history() });
      h = await BotHarness.start({ transport: "socket", config: config(prom.url) });
      h.clock.set(NOW);
      source = createPrometheusSource(h.config.sources[0] as PrometheusSourceConfig, {
        clock: h.clock,
        logger: silentLogger,
      });
      const windowMs = restoreWindowMinutes(idlePolicyOf(h.config)) * MINUTE_MS;
      seeded = await seedHistory(
        { sources: [source], store: h.metrics, clock: h.clock, logger: silentLogger },
        { pollStepMs: MINUTE_MS, windowMs },
        AbortSignal.timeout(60_000),
      );
      h.alerts.restore(seeded?.prior);
      for (let i = 0; i < 3; i++) {
        const observations = await source.poll(AbortSignal.timeout(30_000));
        h.poll(() => observations);
      }
      await h.settle();
    });

    after(async () => {
      await h?.closeChecked();
      await prom?.stop();
    });

    test("the history of the whole fleet takes a handful of range queries", () => {
      assert.ok(seeded);
      // Two queries for the restore window (utilisation per GPU: GPU_UTIL, or GR_ENGINE_ACTIVE where a GPU
      // has none; its last step alone, which sizes the fleet, then the whole window), two for the week before it
      // (per host: the busiest GPU, and how many GPUs reported).
      assert.equal(seeded.queries, 4);
      assert.equal(seeded.cycles, restoreWindowMinutes(idlePolicyOf(h.config)) / 2, "every 2 min");
      assert.deepEqual([...seeded.prior.byHost.keys()].sort(), [
        "busy-b",
        "gappy-c",
        "half-gone",
        "idle-3d",
        "idle-long",
        "mig-m",
        "sparse-s",
      ]);
    });

    test("a host idle for 3 days: the first alert says so, with the money and a real sparkline", () => {
      const message = alertOf(h, "idle-3d");
      assert.ok(message, "idle-3d alerted");
      const idleSinceMs = IDLE_FROM + PRIOR_STEP_MS;
      assert.equal(h.state.alerts.openFor("idle-3d", "idle")?.idleSinceMs, idleSinceMs);
      const idleHours = (NOW - idleSinceMs) / HOUR_MS;
      assert.equal((12.5 * idleHours).toFixed(2), "901.04");
      const first = firstVersion(message);
      assert.match(first.text, /^💤 idle-3d is idle since .+ \(3 d, €901 so far\)/);
      const shown = sectionTexts(first);
      assert.match(shown, /\*3 d\*, \*€901\* of capacity unused at €12\.50\/h/);
      const sparklines = shown.split("\n").filter((line) => line.includes("GPU 0") || line.includes("GPU 1"));
      assert.equal(sparklines.length, 2, shown);
      for (const line of sparklines) assert.doesNotMatch(line, /\?/, `no unknown marks: ${line}`);
      assert.deepEqual(h.threadTexts("idle-3d"), [], "not escalated to the warden at once");
    });

    test("a busy host gets nothing", () => {
      assert.equal(alertOf(h, "busy-b"), null);
      assert.equal(h.alerts.state("busy-b")?.status, "busy");
    });

    test("a gap in history is not idle: idle since the data came back", () => {
      assert.equal(h.state.alerts.openFor("gappy-c", "idle")?.idleSinceMs, GAP[1]);
      assert.match(alertOf(h, "gappy-c")!.text, /\(1 d 1 h, /);
    });

    test("an exporter that answers less often than the source's staleness is not idle in between", () => {
      assert.equal(alertOf(h, "sparse-s"), null);
      const idleSinceMs = h.alerts.state("sparse-s")?.idleSinceMs ?? null;
      assert.ok(idleSinceMs === null || NOW - idleSinceMs <= SPARSE_MS, `idle since ${idleSinceMs}`);
    });

    test("a GPU without data while the others report makes its host unknown, not idle", () => {
      assert.equal(h.state.alerts.openFor("half-gone", "idle")?.idleSinceMs, HALF_GONE[1]);
    });

    test("the look-back is bounded: idle for all 8 days reads as idle since 7 days before the window", () => {
      const untilMs = seeded!.prior.untilMs;
      assert.equal(h.state.alerts.openFor("idle-long", "idle")?.idleSinceMs, untilMs - 7 * DAY_MS);
    });

    test("no host gets a no-data notice", () => {
      const notices = h.state.alerts.allOpen().filter((alert) => alert.kind === "no-data");
      assert.deepEqual(notices, []);
    });

    describe("a MIG A100 with seven instances and no GPU_UTIL", () => {
      test("is alerted as idle, with its seven instances and their profile", () => {
        const message = alertOf(h, "mig-m");
        assert.ok(message, "mig-m alerted");
        assert.match(message.text, /\(3 d, /);
        const shown = sectionTexts(message);
        for (const id of MIG_INSTANCES) assert.match(shown, new RegExp(`GPU +0\\.${id} ▁+ +1 %`));
        assert.doesNotMatch(shown, /GPU +0 /);
      });

      test("/gpu status shows the seven instances, each with its profile", async () => {
        const reply = await h.user.slashCommand({ user: BOB, text: "status mig-m" });
        const text = JSON.stringify(reply.ackPayload ?? {});
        for (const id of MIG_INSTANCES) assert.match(text, new RegExp(`GPU 0\\.${id}`));
        assert.match(text, /1g\.5gb/);
        assert.doesNotMatch(text, /1 of 1 GPU/);
      });

      test("one instance can be claimed", async () => {
        const reply = await h.user.slashCommand({ user: BOB, text: "claim mig-m:0.9 for 2h eval" });
        assert.match(String(reply.ackPayload?.text), /mig-m:0\.9/);
        assert.deepEqual(
          h.state.claims.activeOn("mig-m", h.clock.now()).map((claim) => [claim.user, claim.gpuIndex]),
          [[BOB, 1009]],
        );
        const other = await h.user.slashCommand({ user: ALICE, text: "claim mig-m:0.10 for 1h" });
        assert.match(String(other.ackPayload?.text), /mig-m:0\.10/);
        const conflict = await h.user.slashCommand({ user: ALICE, text: "claim mig-m:0.9" });
        assert.match(String(conflict.ackPayload?.text), /mig-m:0\.9 is claimed by/);
        await h.settle();
      });
    });

    test("everything went to the one channel", () => {
      assert.ok(h.emulator.channel(CHANNEL).messages.length >= 4);
    });
  });
