import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import type { WhatIfReport, WhatIfStop } from "../../src/domain/what-if-report.ts";
import { ENGLISH } from "../../src/messages/translator.ts";
import { whatIfTable } from "../../src/reports/what-if-table.ts";
import { METRICS_BACKENDS, type MetricsBackend, startMetricsBackend } from "../helpers/metrics-backend.ts";
import type { HistorySeries, RunningPrometheus } from "../helpers/prometheus.ts";
import { runCliHere } from "../helpers/run-cli-here.ts";
import { gpu, okHost, openStore, tempDir } from "../store/store-fixtures.ts";

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
/**
 * The history's days: enough for every event below (days 8, 10 and 12) and a day after them; each
 * day of history costs the two engines and the replays about 0.35 s of CPU.
 */
const DAYS = 14;
/**
 * UTC midnight DAYS + 1 days ago, or the Friday before when that is a Saturday or a Sunday: the history
 * runs DAYS days from there, and day 0 is a working day (the autopilot's stale rule and `nightly` act
 * in a working day's evening; with day 0 on a weekend this test failed two days a week).
 */
const D0 = fridayIfWeekend(Math.floor(Date.now() / DAY) * DAY - (DAYS + 1) * DAY);

function fridayIfWeekend(midnightMs: number): number {
  const back: Record<number, number> = { 6: 1, 0: 2 };
  return midnightMs - (back[new Date(midnightMs).getUTCDay()] ?? 0) * DAY;
}
const MINUTES = DAYS * 24 * 60;
const hm = (day: number, h: number, m = 0) => day * 1440 + h * 60 + m;

interface Reading {
  util: number;
  mem: number;
  power: number;
  /** The Kubernetes pod on the GPU, as dcgm-exporter labels its series. */
  pod: string | null;
}
const BUSY: Reading = { util: 90, mem: 70_000, power: 300, pod: null };
const IDLE: Reading = { util: 0, mem: 0, power: 60, pod: null };

/** Minutes between a host's samples (a reading a minute but for gpu-s). */
const intervalOf = (host: string) => (host === "gpu-s" ? 6 : 1);

/**
 * The fleet's DAYS days, one reading a minute (minute `i` since D0; `null`: no data):
 * - gpu-a (cloud, 10/h): busy 09:00–17:00 every day, with a 20-minute stage gap at 12:00 on odd days;
 * - gpu-b (1 GPU, Kubernetes): a notebook pod holds 20 GB at 0 % until day 12, then nothing;
 * - gpu-c (2 GPUs): busy 01:00–03:00 every night; GPU 1 has no data on day 8, and the whole host
 *   none on day 10 from 00:00 to 06:00 (unknown: never idle);
 * - gpu-m (one GPU in MIG mode, two instances: the "GPUs" 0 and 1 here): instance 0 busy 09:00–12:00
 *   with 3 GB, instance 1 idle; GR_ENGINE_ACTIVE per instance (no GPU_UTIL), power for the whole GPU;
 * - gpu-s: idle, but its exporter reports only every 6 minutes, so one step in six has no sample within
 *   5 minutes (unknown: never idle, so no policy ever stops it).
 */
const FLEET: Record<string, (gpu: number, i: number) => Reading | null> = {
  "gpu-a": (_gpu, i) => {
    const day = Math.floor(i / 1440);
    const m = i % 1440;
    const gap = day % 2 === 1 && m >= 12 * 60 && m < 12 * 60 + 20;
    return m >= 9 * 60 && m < 17 * 60 && !gap ? BUSY : IDLE;
  },
  "gpu-b": (_gpu, i) => (i < hm(12, 0) ? { ...IDLE, mem: 20_000, pod: "notebook-0" } : IDLE),
  "gpu-c": (g, i) => {
    if (i >= hm(10, 0) && i < hm(10, 6)) return null;
    if (g === 1 && i >= hm(8, 0) && i < hm(9, 0)) return null;
    const m = i % 1440;
    return m >= 60 && m < 180 ? BUSY : IDLE;
  },
  "gpu-m": (g, i) => {
    const m = i % 1440;
    return g === 0 && m >= 9 * 60 && m < 12 * 60 ? { ...BUSY, mem: 3000 } : IDLE;
  },
  "gpu-s": (_gpu, i) => (i % intervalOf("gpu-s") === 0 ? IDLE : null),
};
const GPUS: Record<string, number> = { "gpu-a": 1, "gpu-b": 1, "gpu-c": 2, "gpu-m": 2, "gpu-s": 1 };
const MIG = new Set(["gpu-m"]);

/** Points half a minute after each minute, so no lookback boundary falls on a sample. */
const pointAt = (i: number) => D0 + i * MIN + 30_000;

function backfill(): HistorySeries[] {
  const out: HistorySeries[] = [];
  const fields = [
    ["DCGM_FI_DEV_GPU_UTIL", (r: Reading) => r.util],
    ["DCGM_FI_DEV_FB_USED", (r: Reading) => r.mem],
    ["DCGM_FI_DEV_POWER_USAGE", (r: Reading) => r.power],
  ] as const;
  for (const [field, value] of fields) {
    for (const [host, reading] of Object.entries(FLEET)) {
      const mig = MIG.has(host);
      const name = mig && field === "DCGM_FI_DEV_GPU_UTIL" ? "DCGM_FI_PROF_GR_ENGINE_ACTIVE" : field;
      const scale = name === "DCGM_FI_PROF_GR_ENGINE_ACTIVE" ? 0.01 : 1;
      for (let g = 0; g < GPUS[host]!; g++) {
        if (mig && field === "DCGM_FI_DEV_POWER_USAGE" && g > 0) continue;
        const byPod = new Map<string | null, [number, number][]>();
        for (let i = 0; i < MINUTES; i++) {
          const r = reading(g, i);
          if (r === null) continue;
          const pod = name === "DCGM_FI_DEV_FB_USED" ? r.pod : null;
          if (!byPod.has(pod)) byPod.set(pod, []);
          byPod.get(pod)!.push([pointAt(i), value(r) * scale]);
        }
        for (const [pod, points] of byPod) {
          const instance =
            mig && field !== "DCGM_FI_DEV_POWER_USAGE"
              ? { GPU_I_ID: String(g + 1), GPU_I_PROFILE: "3g.40gb" }
              : {};
          const labels = {
            Hostname: host,
            gpu: mig ? "0" : String(g),
            UUID: `GPU-${host}-${mig ? 0 : g}`,
            modelName: "NVIDIA H100",
            ...instance,
          };
          const podLabels = pod === null ? {} : { pod, namespace: "team-x", container: "jupyter" };
          out.push({ name, labels: { ...labels, ...podLabels }, points });
        }
      }
    }
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** The source's `stale_after_seconds` (its default), in minutes. */
const STALE_AFTER = 5;

/**
 * How far back, in minutes, a plain selector of a range query reads at a step, per engine: the one
 * difference of the engines' documented semantics this replay sees.
 * - Prometheus: its lookback delta (`--query.lookback-delta`, 5 min), whatever the step or the samples'
 *   interval; a series that ends without a staleness marker (backfilled) lingers that long.
 * - VictoriaMetrics: no fixed lookback; a selector without a window reads the newest sample within
 *   max(step, 1.125 × the series' sample interval) (its `default_rollup` with `-search.maxStalenessInterval`
 *   unset; the interval is the 0.6-quantile of the gaps between samples, plus an eighth above 32 s), capped
 *   by the query's `max_lookback`, which the source sets to `stale_after_seconds`. At one sample a minute
 *   that is 67.5 s: a pod's series is gone a minute after its last sample, not five, and a silent GPU is
 *   unknown at the next step. At gpu-s's one sample per 6 minutes it would be 6.75 min, longer than
 *   Prometheus' 5: every step would see a sample and the host would look idle throughout; capped, it is
 *   unknown one step in six on both engines.
 */
function lookbackMinutes(backend: MetricsBackend, host: string): number {
  if (backend === "prometheus") return 5;
  return Math.min(Math.max(1, 1.125 * intervalOf(host)), STALE_AFTER);
}
let backendNow: MetricsBackend = "prometheus";

/**
 * What a poll at step `k` (D0 + k minutes) sees of one GPU, recomputed without the product's code: an
 * instant query returns each series' newest sample within the engine's look-back ({@link lookbackMinutes}),
 * so a pod's memory series lingers that long after its last sample. Memory is the highest of the GPU's
 * series (one per pod).
 */
function seen(host: string, g: number, k: number): { util: number; mem: number } | null {
  let util: number | null = null;
  const memByPod = new Map<string | null, number>();
  const window = lookbackMinutes(backendNow, host);
  for (let i = k - 1; i >= 0 && k - (i + 0.5) < window; i--) {
    const r = i < MINUTES ? FLEET[host]!(g, i) : null;
    if (r === null) continue;
    util ??= r.util;
    if (!memByPod.has(r.pod)) memByPod.set(r.pod, r.mem);
  }
  return util === null ? null : { util, mem: Math.max(...memByPod.values()) };
}

interface Minute {
  k: number;
  known: boolean;
  busy: boolean;
  held: boolean;
}

const minutesByHost = new Map<string, readonly Minute[]>();

/** The host's steps from its first with data to its last: known when every GPU has data (computed once per engine). */
function minutesOf(host: string): readonly Minute[] {
  const key = `${backendNow} ${host}`;
  const known = minutesByHost.get(key);
  if (known !== undefined) return known;
  const all: (Minute & { any: boolean })[] = [];
  for (let k = 0; k <= MINUTES + 6; k++) {
    const gpus = Array.from({ length: GPUS[host]! }, (_, g) => seen(host, g, k));
    const read = gpus.filter((r) => r !== null);
    all.push({
      k,
      any: read.length > 0,
      known: read.length === gpus.length,
      busy: read.some((r) => r.util >= 10),
      held: read.some((r) => r.mem > 256),
    });
  }
  const first = all.findIndex((m) => m.any);
  const last = all.findLastIndex((m) => m.any);
  const minutes = all.slice(first, last + 1);
  minutesByHost.set(key, minutes);
  return minutes;
}

/** Stops of a rule over a host's minutes, each back at its next busy minute; the replay's rules, restated. */
function stopsBy(
  minutes: readonly Minute[],
  due: (i: number, floor: number) => boolean,
): { at: number; back: number | null }[] {
  const stops: { at: number; back: number | null }[] = [];
  let floor = 0;
  for (let i = 0; i < minutes.length; i++) {
    if (!due(i, floor)) continue;
    const back = minutes.findIndex((m, j) => j > i && m.busy);
    stops.push({ at: minutes[i]!.k, back: back === -1 ? null : minutes[back]!.k });
    if (back === -1) break;
    floor = back;
    i = back - 1;
  }
  return stops;
}

function quietStops(host: string, n: number) {
  const minutes = minutesOf(host);
  const quiet = (m: Minute) => m.known && !m.busy && !m.held;
  return stopsBy(minutes, (i, floor) => {
    if (i - n < floor) return false;
    for (let j = i - n; j <= i; j++) if (!quiet(minutes[j]!)) return false;
    return true;
  });
}

function nightlyStops(host: string, smart: boolean) {
  const minutes = minutesOf(host);
  return stopsBy(minutes, (i) => {
    const m = minutes[i]!;
    const at = m.k % 1440;
    const crosses = at >= 19 * 60 && (i === 0 || minutes[i - 1]!.k % 1440 < 19 * 60);
    return m.known && crosses && (!smart || (!m.busy && !m.held));
  });
}

let dir: ReturnType<typeof tempDir>;
const storePath = () => dir.file("store.db");
let prom: RunningPrometheus;

function configFile(name: string, url: string): string {
  const path = dir.file(name);
  writeFileSync(
    path,
    `store: { path: ${storePath()} }\n` +
      `sources:\n  - { kind: prometheus, url: "${url}", containers: false }\n` +
      "hosts:\n  gpu-a: { cost_per_hour: 10 }\n  gpu-b: { cost_per_hour: 4 }\n  gpu-c: { cost_per_hour: 8 }\n" +
      "  ws-1: { cost_per_hour: 2 }\n",
  );
  return path;
}

/**
 * The store as a running bot leaves it for engine hosts: only their last 3 h of raw readings (here all
 * idle, so a replay of the store alone would stop gpu-a once, today); and ws-1, an SSH host the engine
 * does not know, with its own readings.
 */
function writeStore(): void {
  const history = openStore(storePath(), { sampleSpanMaxMs: 2 * MIN });
  const now = Math.floor(Date.now() / MIN) * MIN;
  for (let atMs = now - 3 * 60 * MIN; atMs < now; atMs += MIN) {
    history.store.writeCycle([{ ...okHost("gpu-a", atMs, { sessions: null }), source: "prometheus" }], atMs);
  }
  for (let i = 0; i < 120; i++) {
    const atMs = D0 + hm(3, 10) * MIN + i * MIN;
    const g = gpu(0, i < 60 ? { utilPct: 90, memUsedMiB: 70_000, powerW: 300 } : {});
    history.store.writeCycle([okHost("ws-1", atMs, { gpus: [g] })], atMs);
  }
  history.close();
}

const day0 = new Date(D0).toISOString().slice(0, 10);
const whatIf = (config: string, ...args: string[]) =>
  runCliHere(["what-if", "--since", day0, "--config", config, ...args], {
    cwd: dir.file(""),
    env: { LOG_LEVEL: "silent" },
  });

const stopsOf = (report: WhatIfReport, policy: string, host: string): WhatIfStop[] =>
  report.policies.find((p) => p.policy === policy)!.stops.filter((s) => s.host === host);
const asSteps = (stops: readonly WhatIfStop[]) =>
  stops.map((s) => ({
    at: (s.atMs - D0) / MIN,
    back: s.backAtMs === null ? null : (s.backAtMs - D0) / MIN,
  }));

/** The fleet's series, made once for both engines. */
let history: HistorySeries[] | null = null;
const POLICIES = ["process-autostop-5", "process-autostop-30", "nightly", "nightly-smart", "autopilot"];
let replay: ReturnType<typeof whatIf> | null = null;
/** `what-if --json` of the five policies over the engine's DAYS days: run once per engine, read by the tests. */
const replayed = () =>
  (replay ??= whatIf(configFile("prom.yaml", prom.url), "--json", "--policy", POLICIES.join(",")));

const ONLY = process.env.WHAT_IF_BACKEND as MetricsBackend | undefined;
for (const backend of METRICS_BACKENDS.filter((b) => ONLY === undefined || b === ONLY))
  describe(`gpu-warden what-if over a Prometheus source's history: ${backend}`, { timeout: 300_000 }, () => {
    before(async () => {
      dir = tempDir(`gw-what-if-${backend}-`);
      backendNow = backend;
      history ??= backfill();
      prom = await startMetricsBackend(backend, { backfill: history });
      writeStore();
      replay = null;
    });
    after(async () => {
      await prom?.stop();
      dir.remove();
    });

    it("replays the engine's days of history, not the store's 3 h: the stops recomputed independently", async () => {
      const result = await replayed();
      assert.equal(result.code, 0, result.stderr);
      const report = JSON.parse(result.stdout) as WhatIfReport;
      assert.deepEqual(report.history, {
        engineHosts: 5,
        engineStepMs: MIN,
        storeHosts: 1,
        engineFailures: [],
      });
      assert.deepEqual(report.hosts, ["gpu-a", "gpu-b", "gpu-c", "gpu-m", "gpu-s", "ws-1"]);
      assert.equal(report.fromMs, D0 + MIN, "the first step with a sample within the lookback");
      for (const host of Object.keys(FLEET)) {
        for (const n of [5, 30]) {
          const got = asSteps(stopsOf(report, `process-autostop-${n}`, host));
          assert.deepEqual(got, quietStops(host, n), `process-autostop-${n} ${host}`);
        }
        assert.deepEqual(
          asSteps(stopsOf(report, "nightly", host)),
          nightlyStops(host, false),
          `nightly ${host}`,
        );
        const smart = asSteps(stopsOf(report, "nightly-smart", host));
        assert.deepEqual(smart, nightlyStops(host, true), `nightly-smart ${host}`);
      }
      // The figures the recomputation must give, so that it cannot agree with a broken replay by accident:
      // gpu-a is stopped at 17:31 on each of the DAYS days, and in the 12:00 stage gap of each odd day (a
      // minute later than the samples: a step sees the sample half a minute before it).
      assert.equal(quietStops("gpu-a", 30).length, 1 + DAYS);
      assert.equal(quietStops("gpu-a", 5).length, 1 + DAYS + Math.floor(DAYS / 2));
      // gpu-m's instances are its slots (the whole GPU, with power only, is not one): stopped at 12:31.
      assert.equal(quietStops("gpu-m", 30).length, 1 + DAYS);
      const gap = stopsOf(report, "process-autostop-5", "gpu-a").find(
        (s) => s.atMs === D0 + hm(1, 12, 6) * MIN,
      );
      assert.deepEqual(gap?.falseStop, { reason: "work-soon", atMs: D0 + hm(1, 12, 21) * MIN, owners: null });
      // gpu-c: no stop while GPU 1 is silent (day 8) or the host is (day 10, its 01:00 run unseen).
      const cStops = quietStops("gpu-c", 30).map((s) => s.at);
      assert.ok(!cStops.some((at) => at >= hm(8, 3, 30) && at < hm(9, 0)), "unknown GPU is never idle");
      assert.ok(
        cStops.some((at) => at > hm(9, 0, 30) && at < hm(9, 1)),
        "known again: stopped before its run",
      );
      // gpu-s: a step in six has no sample within the look-back on both engines (capped on VictoriaMetrics,
      // whose own window would reach the sample 6 minutes back): unknown, so no policy ever stops it.
      for (const policy of POLICIES)
        assert.deepEqual(stopsOf(report, policy, "gpu-s"), [], `${policy} gpu-s`);
      assert.deepEqual(quietStops("gpu-s", 5), []);
      // gpu-b: the notebook pod's memory is seen at every step: nightly hits it and nightly-smart waits
      // until it is gone (day 12). The autopilot, as live with a source that shows no logins, takes the
      // pod for a stale session once its GPU has been idle 18 h (since 00:01, after working hours end):
      // warned at 18:01, stopped at 18:31, listed as a would-be false stop (a process held memory).
      assert.deepEqual(
        stopsOf(report, "nightly", "gpu-b").map((s) => [s.atMs, s.falseStop?.reason]),
        [[D0 + hm(0, 19) * MIN, "process"]],
      );
      assert.deepEqual(asSteps(stopsOf(report, "nightly-smart", "gpu-b")), [{ at: hm(12, 19), back: null }]);
      const autopilot = report.policies.find((p) => p.policy === "autopilot")!;
      assert.deepEqual(
        autopilot.stops.filter((s) => s.falseStop !== null).map((s) => [s.host, s.atMs, s.falseStop?.reason]),
        [["gpu-b", D0 + hm(0, 18, 31) * MIN, "process"]],
      );
      // gpu-c is stopped by the autopilot each night after its run, but not on day 8 (GPU 1 silent).
      const cNights = stopsOf(report, "autopilot", "gpu-c").map((s) => Math.floor((s.atMs - D0) / DAY));
      assert.ok(cNights.includes(7) && cNights.includes(9) && !cNights.includes(8), String(cNights));
      assert.ok(stopsOf(report, "autopilot", "gpu-a").length >= DAYS);
      // A replay of the store's 3 h would hold no stop older than today.
      assert.ok(stopsOf(report, "process-autostop-30", "gpu-a")[0]!.atMs < D0 + DAY);
      // ws-1 is the store's: busy 10:00–11:00 on day 3, then idle.
      assert.deepEqual(asSteps(stopsOf(report, "process-autostop-30", "ws-1")), [
        { at: hm(3, 11, 30), back: null },
      ]);
    });

    it("says in the table what the engine's history can and cannot show", async () => {
      const result = await replayed();
      assert.equal(result.code, 0, result.stderr);
      // NOTE: the table of the same replay (the CLI prints whatIfTable of this report without --json).
      assert.match(
        whatIfTable(ENGLISH, JSON.parse(result.stdout) as WhatIfReport),
        /\n5 hosts from the time-series engine's history, a step every 60 s: per GPU its utilisation, memory, power and Kubernetes pods; the engine keeps no login sessions and no process owners, so the GPUs alone decide \(as for the live bot\), and a step without data is unknown, never idle\n1 host from the store's raw readings\n/,
      );
    });

    it("replays the store when the engine does not answer, and says so", async () => {
      const result = await whatIf(
        configFile("down.yaml", "http://127.0.0.1:9"),
        "--json",
        "--policy",
        "nightly",
      );
      assert.equal(result.code, 0, result.stderr);
      const report = JSON.parse(result.stdout) as WhatIfReport;
      assert.equal(report.history.engineHosts, 0);
      assert.equal(report.history.storeHosts, 2);
      assert.equal(report.history.engineFailures.length, 1);
      const table = await whatIf(configFile("down.yaml", "http://127.0.0.1:9"), "--policy", "nightly");
      assert.match(
        table.stdout,
        /the time-series engine did not answer \(.+\): its hosts were replayed from the store, which keeps their raw readings only store\.raw_retention_days \(3 h by default\)/,
      );
    });
  });
