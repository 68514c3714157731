import { execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { MINUTE_MS } from "../src/shared/clock.ts";
import {
  METRICS_BACKENDS,
  type MetricsBackend,
  startMetricsBackend,
} from "../test/helpers/metrics-backend.ts";
import {
  buildBlocks,
  formatExposition,
  type HistorySeries,
  type LiveSample,
  type RunningPrometheus,
} from "../test/helpers/prometheus.ts";
import { dcgmFamilies } from "./dcgm-families.ts";
import { report, round } from "./report.ts";
import { type ScaleStorm, scaleStorm } from "./scale-storm.ts";
import { type ScaleSummary, scaleSummary, summaryStoreFile } from "./scale-summary.ts";

// The fleet at scale: `--hosts=N` hosts × 8 GPUs in `--clusters=4` clusters (one engine per cluster, each
// scraping its own exporter of dcgm-exporter, node_exporter and kube-state-metrics series, with
// `--history-hours=H` of GPU_UTIL and FB_USED history at 5-minute steps), polled by the real sources
// (one Prometheus source per cluster, hosts named cluster/host) and written to the real SQLite store
// by a separate process (bench/scale-poller.ts), so that its RSS is the bot's own. One BENCH line per
// backend, with each figure's ratio to the same run at 8,000 GPUs (1,000 hosts). The size is
// `--hosts=10000 --history-days=14` (14 days of GPU_UTIL at hourly steps before the last 3 h; the
// poller then times the look-back a start over a fresh store runs); `--backends=victoriametrics` runs one.
// Then the real bin starts over a copy of the poller's store (`restart_ms`: to `/healthz` and to the first
// poll logged; `sweep_ms`: that poll's idle-checks sweep, from its "poll cycle done" line).
// Then the biweekly summary over 28 days of the fleet's rollups (`scale-summary.ts`; `summary_ms`).
// Last the storm: `--storm-share` of each cluster's hosts (a fifth: 2,000 of 10,000) turn idle in the
// exporters together, and the bot's one composition polls the engines and sends to the emulator
// enforcing Slack's limits (`scale-storm.ts`; `storm_s`, rate-limit errors surfaced, messages lost).
const args = new Map(
  process.argv
    .slice(2)
    .filter((arg) => arg.startsWith("--") && arg.includes("="))
    .map((arg) => arg.slice(2).split("=") as [string, string]),
);
const HOSTS = Number(args.get("hosts") ?? 2000);
const CLUSTERS = Number(args.get("clusters") ?? 4);
const HISTORY_HOURS = Number(args.get("history-hours") ?? 3);
/** Days of coarser GPU_UTIL history before the `--history-hours` (the 14); the look-back reads them. */
const HISTORY_DAYS = Number(args.get("history-days") ?? 0);
const COARSE_STEP_MS = Number(args.get("coarse-step-minutes") ?? 60) * MINUTE_MS;
const CYCLES = Number(args.get("cycles") ?? 5);
const BACKENDS = (args.get("backends")?.split(",") ?? [...METRICS_BACKENDS]) as MetricsBackend[];
/** The heap flags `npm start` gives the bot (package.json's `start`); `--semi-space=MB` changes its young generation's. */
const NPM_START_HEAP = (
  JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    scripts: { start: string };
  }
).scripts.start
  .split(" ")
  .filter((arg) => arg.startsWith("--max-"))
  .map((arg) =>
    arg.startsWith("--max-semi-space-size=") && args.has("semi-space")
      ? `--max-semi-space-size=${args.get("semi-space")}`
      : arg,
  );
/** `--start-flags=1`: the poller runs under {@link NPM_START_HEAP}. */
const START_FLAGS = args.get("start-flags") === "1" ? NPM_START_HEAP : [];
/** The restart runs under {@link NPM_START_HEAP}; `--restart-old-space=MB` raises its old space. */
const NPM_START_FLAGS = NPM_START_HEAP.map((arg) =>
  arg.startsWith("--max-old-space-size=") && args.has("restart-old-space")
    ? `--max-old-space-size=${args.get("restart-old-space")}`
    : arg,
);
/**
 * `--summary=0` skips the biweekly summary (`bench/scale-summary.ts`); `--summary-old-space=MB` runs it
 * with that old space instead of `npm start`'s.
 */
const SUMMARY = args.get("summary") !== "0";
const SUMMARY_FLAGS = args.has("summary-old-space")
  ? [
      ...NPM_START_FLAGS.filter((flag) => !flag.startsWith("--max-old-space-size=")),
      `--max-old-space-size=${args.get("summary-old-space")}`,
    ]
  : NPM_START_FLAGS;
/** `--storm-share=F`: the share of each cluster's hosts the storm turns idle; 0 runs no storm. */
const STORM_SHARE = Number(args.get("storm-share") ?? 0.2);
/**
 * `--look-back-only=1`: the look-back and `--cycles` polls at `--hosts` alone (no restart, no run at
 * 8,000 GPUs: the ratios are 1).
 */
const LOOK_BACK_ONLY = args.get("look-back-only") === "1";
/** `--cpu-prof=DIR`: the poller writes a V8 CPU profile (`node --cpu-prof`) into DIR. */
const CPU_PROF = args.has("cpu-prof") ? ["--cpu-prof", `--cpu-prof-dir=${args.get("cpu-prof")}`] : [];
/** `--restart-cpu-prof=DIR`: the restarted bin writes its V8 CPU profile into DIR (ended by SIGTERM after its first poll). */
const RESTART_CPU_PROF = args.has("restart-cpu-prof")
  ? ["--cpu-prof", `--cpu-prof-dir=${args.get("restart-cpu-prof")}`]
  : [];
/**
 * `--restarts=N` restarts (default 1) over the same engines and store, alternating the bins of
 * `--restart-bins=A,B` (default the checkout's `bin/gpu-warden.js`), each in `restarts`: to compare
 * two builds in the same conditions. `--baseline=0` skips the run at 8,000 GPUs (the ratios are 1).
 */
const RESTARTS = Number(args.get("restarts") ?? 1);
const RESTART_BINS = args.get("restart-bins")?.split(",") ?? [null];
/** `--restart-old-spaces=192,256`: the restarts alternate these old spaces (MB) too, instead of one. */
const RESTART_OLD_SPACES = args.get("restart-old-spaces")?.split(",") ?? [null];
const BASELINE = args.get("baseline") !== "0";
const GPUS = 8;
const BASELINE_HOSTS = 1000;
const HISTORY_STEP_MS = 5 * MINUTE_MS;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** Hourly rollups of 80,000 GPUs: the store's growth when the engine keeps the raw samples. */
const FLEET_GPUS = 80_000;
const HOURS_PER_YEAR = 8760;
const POLLS_PER_YEAR = 525_600;

const hostName = (h: number) => `node-${String(h + 1).padStart(5, "0")}`;
const util = (h: number, g: number) => ((h + g) % 11) * 9;
const used = (h: number, g: number) => (h % 4 === 0 ? 0 : 20000 + g * 1000);

function gpuLabels(h: number, g: number): Record<string, string> {
  return {
    gpu: String(g),
    UUID: `GPU-${h.toString(16).padStart(8, "0")}-${g}`,
    modelName: "NVIDIA H100 80GB HBM3",
    Hostname: hostName(h),
    instance: `10.${(h >> 8) & 255}.${h & 255}.10:9400`,
    job: "dcgm-exporter",
  };
}

/**
 * GPU_UTIL and FB_USED of the last `--history-hours` at 5-minute steps; with `--history-days=D`, also
 * GPU_UTIL (the only family the look-back reads) over the D days before that at `--coarse-step-minutes`
 * (60: a twelfth of a real fleet's points, so the engines' work per step is the same and their answers
 * are sparser), from `fromMs` on (an earlier part may come from cached blocks).
 */
function* history(hosts: number[], endMs: number, fromMs = coarseFromMs(endMs)): Generator<HistorySeries> {
  const fineFromMs = endMs - HISTORY_HOURS * 60 * MINUTE_MS;
  for (const [name, value] of [
    ["DCGM_FI_DEV_FB_USED", used],
    ["DCGM_FI_DEV_GPU_UTIL", util],
  ] as const) {
    for (const h of hosts) {
      for (let g = 0; g < GPUS; g++) {
        const points: [number, number][] = [];
        if (name === "DCGM_FI_DEV_GPU_UTIL")
          for (let at = fromMs; at < fineFromMs; at += COARSE_STEP_MS) points.push([at, value(h, g)]);
        for (let at = fineFromMs; at <= endMs; at += HISTORY_STEP_MS) points.push([at, value(h, g)]);
        yield { name, labels: gpuLabels(h, g), points };
      }
    }
  }
}

/**
 * The coarse history's first instant: `--history-days` before the fine history, at the start of that UTC
 * day (so the cached blocks serve a whole day of runs; the look-back reads the last `--history-days`).
 */
function coarseFromMs(endMs: number): number {
  const fineFromMs = endMs - HISTORY_HOURS * 60 * MINUTE_MS;
  if (HISTORY_DAYS === 0) return fineFromMs;
  return Math.floor((fineFromMs - HISTORY_DAYS * DAY_MS) / DAY_MS) * DAY_MS;
}

/**
 * Prometheus: the coarse history up to the start of the fine history's UTC day, as TSDB blocks built
 * once and kept in `.tmp/scale-history/` (promtool takes minutes for 80,000 GPUs × 14 days); the rest
 * is backfilled at each run. `null` without `--history-days`.
 */
async function cachedBlocks(
  cluster: number,
  hosts: number[],
  endMs: number,
): Promise<{ dir: string; untilMs: number } | null> {
  if (HISTORY_DAYS === 0) return null;
  const fromMs = coarseFromMs(endMs);
  const untilMs = Math.floor((endMs - HISTORY_HOURS * 60 * MINUTE_MS) / DAY_MS) * DAY_MS;
  const name = `prometheus-${hosts[0]}+${hosts.length}-c${cluster}-${COARSE_STEP_MS / MINUTE_MS}m-${new Date(fromMs).toISOString()}-${new Date(untilMs).toISOString()}`;
  const dir = join(here, "..", ".tmp", "scale-history", name.replace(/[:.]/g, ""));
  if (!existsSync(join(dir, "done"))) {
    rmSync(dir, { recursive: true, force: true });
    const started = performance.now();
    const coarseOnly = (function* () {
      for (const series of history(hosts, untilMs - 1, fromMs))
        if (series.name === "DCGM_FI_DEV_GPU_UTIL")
          yield { ...series, points: series.points.filter(([at]) => at < untilMs) };
    })();
    const samples = await buildBlocks(coarseOnly, dir);
    writeFileSync(join(dir, "done"), `${samples} samples in ${Math.round(performance.now() - started)} ms\n`);
  }
  return { dir, untilMs };
}

/** What the cluster's exporters serve; the `idle` hosts' GPUs at 0 % and no memory used. */
function exposition(hosts: number[], idle: ReadonlySet<number> = new Set()): string {
  const out: LiveSample[] = [];
  const families = dcgmFamilies(
    (h, g) => (idle.has(h) ? 0 : util(h, g)),
    (h, g) => (idle.has(h) ? 0 : used(h, g)),
  );
  for (const [name, value] of families) {
    for (const h of hosts)
      for (let g = 0; g < GPUS; g++) out.push({ name, labels: gpuLabels(h, g), value: value(h, g) });
  }
  const ksm = { job: "kube-state-metrics", instance: "10.255.0.2:8080" };
  for (const h of hosts) {
    const pod = { namespace: "ml", pod: `train-${hostName(h)}` };
    out.push({ name: "node_load1", labels: { instance: `${hostName(h)}:9100`, job: "node" }, value: h % 7 });
    out.push({ name: "kube_pod_info", labels: { ...ksm, ...pod, node: hostName(h) }, value: 1 });
    out.push({
      name: "kube_pod_container_resource_requests",
      labels: { ...ksm, ...pod, container: "trainer", node: hostName(h), resource: "nvidia_com_gpu" },
      value: GPUS,
    });
  }
  return formatExposition(out);
}

/** The look-back a start over a fresh store runs (`--history-days`): what the history changes. */
interface LookBack {
  ms: number;
  cpu_ms: number;
  /** The engines' CPU time (all of them) while the look-back ran. */
  engine_cpu_ms: number;
  queries: number;
  hosts: number;
  cycles: number;
  rss_mb: number;
  peak_rss_mb: number;
}

interface Measured {
  cycle_ms: number;
  cpu_ms: number;
  engine_cpu_ms: number;
  engine_start_s: number[];
  look_back: LookBack | null;
  write_ms: number;
  heap_mb: number;
  ok_gpus: number;
  hosts_by_cause: Record<string, number>;
  rss_mb: number;
  peak_rss_mb: number;
  raw_bytes_per_gpu_sample: number;
  rollup_bytes_per_gpu_hour: number;
  raw_retention_days: number;
  raw_rows_after_rollup: number;
  restart: Restart;
  /** `null` with `--summary=0` or `--look-back-only=1`. */
  summary: ScaleSummary | null;
  /** `null` with `--storm-share=0`. */
  storm: ScaleStorm | null;
}

/**
 * A start of the real bin (`npm start`'s heap flags, console mode) over the store the poller left,
 * polled seconds before (so no look-back is due): ms from the spawn to `/healthz` answering 200 and to
 * the first "poll cycle done" logged, and that cycle's own figures (its poll and its sweep).
 */
interface Restart {
  /** `null` where the bot ended first (see `ended`). */
  healthz_ms: number | null;
  first_poll_ms: number | null;
  poll_ms: number | null;
  /** The bot's CPU time (user + system) from its spawn to the first poll logged: on a shared machine the figure to compare. */
  cpu_ms: number | null;
  sweep_ms: number | null;
  unknown_hosts: number | null;
  /** When and why the bot ended before its first poll (its "FATAL ERROR" line, else its last). */
  ended: { ms: number; why: string } | null;
  /** Whether the start read the engines' history (it must not over a store polled seconds before). */
  looked_back: boolean;
}

const NO_RESTART: Restart = {
  healthz_ms: null,
  first_poll_ms: null,
  cpu_ms: null,
  poll_ms: null,
  sweep_ms: null,
  unknown_hosts: null,
  ended: null,
  looked_back: false,
};

/** {@link RESTARTS} restarts alternating {@link RESTART_BINS}: the first, and all with their bin and load. */
async function restarts(urls: string[], storePath: string): Promise<Restart & { all: unknown[] }> {
  const all: (Restart & { bin: string | null; flags: string; load_avg_1m: number })[] = [];
  for (let i = 0; i < RESTARTS; i++) {
    const bin = RESTART_BINS[i % RESTART_BINS.length]!;
    const oldSpace = RESTART_OLD_SPACES[i % RESTART_OLD_SPACES.length]!;
    const flags =
      oldSpace === null
        ? NPM_START_FLAGS
        : [
            ...NPM_START_FLAGS.filter((flag) => !flag.startsWith("--max-old-space-size=")),
            `--max-old-space-size=${oldSpace}`,
          ];
    all.push({
      bin,
      flags: flags.join(" "),
      ...(await restart(urls, storePath, flags, bin ?? undefined)),
      load_avg_1m: round(loadavg()[0]!, 2),
    });
  }
  return { ...all[0]!, all };
}

async function restart(
  urls: string[],
  storePath: string,
  flags: string[],
  binPath?: string,
): Promise<Restart> {
  const configPath = join(dirname(storePath), "gpu-warden.yaml");
  const sources = urls.map((url, i) => ({
    kind: "prometheus",
    cluster: String.fromCharCode(97 + i),
    url,
    history_days: HISTORY_DAYS,
    timeout_seconds: 120,
  }));
  writeFileSync(configPath, JSON.stringify({ sources, store: { path: storePath } }));
  const port = await freePort();
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("SLACK_")));
  const bin = binPath ?? join(here, "..", "bin", "gpu-warden.js");
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [...flags, ...RESTART_CPU_PROF, bin, "start", "--no-playground", "--config", configPath],
    { env: { ...env, PORT: String(port), LOG_LEVEL: "info" }, stdio: ["ignore", "ignore", "pipe"] },
  );
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    const [healthzMs, firstPoll] = await Promise.all([
      healthzAfter(port, started, exited),
      firstPollLogged(child.stderr, started, child.pid!),
    ]);
    return { healthz_ms: healthzMs, ...firstPoll };
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
}

async function healthzAfter(port: number, started: number, exited: Promise<unknown>): Promise<number | null> {
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  while (!gone) {
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (response) => response.status === 200,
      () => false,
    );
    if (ok) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return null;
}

async function firstPollLogged(
  stderr: NodeJS.ReadableStream,
  started: number,
  pid: number,
): Promise<Omit<Restart, "healthz_ms">> {
  const tail: string[] = [];
  let lookedBack = false;
  for await (const line of createInterface({ input: stderr })) {
    tail.push(line);
    const entry = line.startsWith("{") ? (JSON.parse(line) as Record<string, unknown>) : {};
    if (entry.msg === "read the fleet's history") lookedBack = true;
    if (entry.msg !== "poll cycle done") continue;
    return {
      first_poll_ms: performance.now() - started,
      cpu_ms: cpuMsOf(pid),
      poll_ms: Number(entry.ms),
      sweep_ms: Number(entry.sweepMs),
      unknown_hosts: Number(entry.unknown),
      looked_back: lookedBack,
      ended: null,
    };
  }
  const why = tail.find((line) => line.startsWith("FATAL ERROR")) ?? tail.at(-1) ?? "";
  const ended = { ms: Math.round(performance.now() - started), why: why.slice(0, 300) };
  const none = { first_poll_ms: null, cpu_ms: null, poll_ms: null, sweep_ms: null, unknown_hosts: null };
  return { ...none, looked_back: lookedBack, ended };
}

const roundOrNull = (ms: number | null) => (ms === null ? null : round(ms, 0));
const ratioOrNull = (value: number | null, baseValue: number | null) =>
  value === null || baseValue === null ? null : round(value / Math.max(1, baseValue), 2);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
    server.on("error", reject);
  });
}

async function measure(backend: MetricsBackend, hosts: number): Promise<Measured> {
  const endMs = Math.floor((Date.now() - 2 * MINUTE_MS) / HISTORY_STEP_MS) * HISTORY_STEP_MS;
  const perCluster = Math.ceil(hosts / CLUSTERS);
  const engines: RunningPrometheus[] = [];
  const engineStartMs: number[] = [];
  const owned: number[][] = [];
  const storeDir = mkdtempSync(join(tmpdir(), "gw-scale-restart-"));
  try {
    const summaryStore = SUMMARY && !LOOK_BACK_ONLY ? await summaryStoreFile(hosts, CLUSTERS) : null;
    for (let c = 0; c < CLUSTERS; c++) {
      const own = Array.from(
        { length: Math.min(perCluster, hosts - c * perCluster) },
        (_, i) => c * perCluster + i,
      );
      owned.push(own);
      const text = exposition(own);
      const started = performance.now();
      const blocks = backend === "prometheus" ? await cachedBlocks(c, own, endMs) : null;
      const engine = await startMetricsBackend(backend, {
        backfill: history(own, endMs, blocks?.untilMs),
        ...(blocks && { blocks: blocks.dir }),
        exporter: () => text,
        scrapeIntervalSeconds: 15,
      });
      engines.push(engine);
      await engine.waitFor("DCGM_FI_DEV_GPU_TEMP", own.length * GPUS, 180_000);
      engineStartMs.push(performance.now() - started);
    }
    const job = {
      urls: engines.map((engine) => engine.url),
      cycles: CYCLES,
      gpus: hosts * GPUS,
      historyDays: HISTORY_DAYS,
      keepStore: join(storeDir, "gpu-warden.db"),
      enginePids: engines.map((engine) => engine.pid),
    };
    const engineCpuBefore = engines.reduce((sum, engine) => sum + cpuMsOf(engine.pid), 0);
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [
        ...START_FLAGS,
        ...CPU_PROF,
        "--import",
        "tsx",
        "--expose-gc",
        join(here, "scale-poller.ts"),
        JSON.stringify(job),
      ],
      { maxBuffer: 1 << 20, timeout: 1_800_000 },
    );
    process.stderr.write(stderr);
    const measured = JSON.parse(stdout.trim().split("\n").at(-1)!) as Measured;
    const engineCpuMs = engines.reduce((sum, engine) => sum + cpuMsOf(engine.pid), 0) - engineCpuBefore;
    measured.engine_cpu_ms = engineCpuMs / (CYCLES + 1);
    measured.engine_start_s = engineStartMs.map((ms) => round(ms / 1000, 0));
    measured.restart = LOOK_BACK_ONLY ? NO_RESTART : await restarts(job.urls, job.keepStore);
    measured.summary =
      summaryStore && (await scaleSummary(summaryStore, hosts, CLUSTERS, job.urls, SUMMARY_FLAGS));
    measured.storm = STORM_SHARE > 0 && !LOOK_BACK_ONLY ? await storm(engines, owned) : null;
    if (measured.ok_gpus !== hosts * GPUS)
      throw new Error(
        `${backend}: ${measured.ok_gpus} GPUs of ${hosts * GPUS}: ${JSON.stringify(measured.hosts_by_cause)}`,
      );
    return measured;
  } finally {
    await Promise.all(engines.map((engine) => engine.stop()));
    rmSync(storeDir, { recursive: true, force: true });
  }
}

/**
 * Turns `--storm-share` of each cluster's hosts idle in its exporter, waits until every engine has
 * scraped them (its count of GPUs without memory used is the new one), then {@link scaleStorm}.
 */
async function storm(engines: RunningPrometheus[], owned: number[][]): Promise<ScaleStorm> {
  const started = performance.now();
  const idle = owned.map((own) => new Set(own.slice(0, Math.round(own.length * STORM_SHARE))));
  owned.forEach((own, c) => {
    const text = exposition(own, idle[c]);
    engines[c]!.setExporter(() => text);
  });
  await Promise.all(
    engines.map((engine, c) => {
      const unused = owned[c]!.filter((h) => idle[c]!.has(h) || used(h, 0) === 0).length * GPUS;
      return counted(engine.url, `count(DCGM_FI_DEV_FB_USED == 0) >= ${unused}`);
    }),
  );
  const names = idle.flatMap((hosts, c) =>
    [...hosts].map((h) => `${String.fromCharCode(97 + c)}/${hostName(h)}`),
  );
  const outcome = await scaleStorm(
    engines.map((engine) => engine.url),
    names,
  );
  return { ...outcome, step_s: round((performance.now() - started) / 1000, 1) };
}

/**
 * Waits until `promql` answers a series (a count: a small answer), asking again after a slow or failed
 * answer: an engine of 20,000 GPUs on a loaded machine can take seconds.
 */
async function counted(url: string, promql: string): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    const query = `${url}/api/v1/query?${new URLSearchParams({ query: promql })}`;
    const answer = await fetch(query, { signal: AbortSignal.timeout(60_000) })
      .then((response) => response.json() as Promise<{ data?: { result?: unknown[] } }>)
      .catch(() => null);
    if ((answer?.data?.result?.length ?? 0) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${url}: no answer to ${promql} within 180 s`);
}

/** A process's user + system CPU time so far (ms), from `/proc/PID/stat` (clock ticks of 10 ms). */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const here = dirname(fileURLToPath(import.meta.url));
for (const backend of BACKENDS) {
  const run = await measure(backend, HOSTS);
  const base =
    HOSTS === BASELINE_HOSTS || LOOK_BACK_ONLY || !BASELINE ? run : await measure(backend, BASELINE_HOSTS);
  const gpus = HOSTS * GPUS;
  const perGpuRatio = (value: number, baseValue: number) =>
    round(value / gpus / (baseValue / (BASELINE_HOSTS * GPUS)), 2);
  const gbPerYear = (bytesPerGpuHour: number, n: number) => (bytesPerGpuHour * n * HOURS_PER_YEAR) / 1e9;
  report({
    name: "scale",
    backend,
    value: round(run.cycle_ms, 0),
    unit: "ms",
    gpus,
    hosts: HOSTS,
    clusters: CLUSTERS,
    history_hours: HISTORY_HOURS,
    history_days: HISTORY_DAYS,
    coarse_step_minutes: COARSE_STEP_MS / MINUTE_MS,
    engine_start_s: run.engine_start_s,
    look_back: run.look_back,
    look_back_ms_per_gpu_ratio:
      run.look_back && base.look_back ? perGpuRatio(run.look_back.ms, base.look_back.ms) : null,
    cycles: CYCLES,
    write_ms: round(run.write_ms, 0),
    cpu_ms: round(run.cpu_ms, 0),
    engine_cpu_ms: round(run.engine_cpu_ms, 0),
    cpu_ms_per_gpu_ratio: perGpuRatio(run.cpu_ms, base.cpu_ms),
    rss_mb: round(run.rss_mb, 0),
    heap_mb: round(run.heap_mb, 0),
    peak_rss_mb: round(run.peak_rss_mb, 0),
    store_gb_per_year: round(gbPerYear(run.rollup_bytes_per_gpu_hour, gpus), 3),
    store_gb_per_year_80000_gpus: round(gbPerYear(run.rollup_bytes_per_gpu_hour, FLEET_GPUS), 2),
    raw_copy_gb_per_year_80000_gpus: round(
      (run.raw_bytes_per_gpu_sample * FLEET_GPUS * POLLS_PER_YEAR) / 1e9,
      0,
    ),
    raw_retention_days: run.raw_retention_days,
    raw_rows_after_rollup: run.raw_rows_after_rollup,
    baseline_gpus: BASELINE_HOSTS * GPUS,
    baseline_ms: round(base.cycle_ms, 0),
    ratio: round(run.cycle_ms / base.cycle_ms, 2),
    cycle_ms_per_gpu_ratio: perGpuRatio(run.cycle_ms, base.cycle_ms),
    rss_ratio: round(run.rss_mb / base.rss_mb, 2),
    store_ratio: round(
      gbPerYear(run.rollup_bytes_per_gpu_hour, gpus) /
        gbPerYear(base.rollup_bytes_per_gpu_hour, BASELINE_HOSTS * GPUS),
      2,
    ),
    restart_ms: {
      healthz: roundOrNull(run.restart.healthz_ms),
      first_poll: roundOrNull(run.restart.first_poll_ms),
    },
    restart_ms_ratio: {
      healthz: ratioOrNull(run.restart.healthz_ms, base.restart.healthz_ms),
      first_poll: ratioOrNull(run.restart.first_poll_ms, base.restart.first_poll_ms),
    },
    restart_first_poll: run.restart,
    sweep_ms: run.restart.sweep_ms,
    sweep_ms_ratio: ratioOrNull(run.restart.sweep_ms, base.restart.sweep_ms),
    target_restart_ms: { healthz: 1000, first_poll: 10_000 },
    target_sweep_ms: 500,
    summary_ms: run.summary?.summary_ms ?? null,
    summary_ms_ratio: ratioOrNull(run.summary?.summary_ms ?? null, base.summary?.summary_ms ?? null),
    summary: run.summary,
    baseline_summary: base.summary,
    target_summary_ms: 10_000,
    storm_s: run.storm?.storm_s ?? null,
    storm_s_ratio:
      run.storm && base.storm ? round(run.storm.storm_s / Math.max(0.1, base.storm.storm_s), 2) : null,
    rate_limit_errors_surfaced: run.storm?.rate_limit_errors_surfaced ?? null,
    messages_lost: run.storm?.lost ?? null,
    storm: run.storm,
    baseline_storm: base.storm,
    target_storm_s: 60,
    restart_flags: NPM_START_FLAGS.join(" "),
    start_flags: START_FLAGS.join(" "),
    load_avg_1m: round(loadavg()[0]!, 2),
    cores: availableParallelism(),
    target_ms: 5000,
    target_rss_mb: 400,
  });
}
