import { execFile } from "node:child_process";
import { availableParallelism, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { MINUTE_MS } from "../src/shared/clock.ts";
import {
  METRICS_BACKENDS,
  type MetricsBackend,
  startMetricsBackend,
} from "../test/helpers/metrics-backend.ts";
import {
  formatExposition,
  type HistorySeries,
  type LiveSample,
  type RunningPrometheus,
} from "../test/helpers/prometheus.ts";
import { dcgmFamilies } from "./dcgm-families.ts";
import { report, round } from "./report.ts";

// The fleet at scale: `--hosts=N` hosts × 8 GPUs in `--clusters=4` clusters (one engine per cluster, each
// scraping its own exporter of dcgm-exporter, node_exporter and kube-state-metrics series, with
// `--history-hours=H` of GPU_UTIL and FB_USED history at 5-minute steps), polled by the real sources
// (one Prometheus source per cluster, hosts named cluster/host) and written to the real SQLite store
// by a separate process (bench/scale-poller.ts), so that its RSS is the bot's own. One BENCH line per
// backend, with each figure's ratio to the same run at 8,000 GPUs (1,000 hosts). The size is
// `--hosts=10000 --history-hours=336`; `--backends=victoriametrics` runs one.
const args = new Map(
  process.argv
    .slice(2)
    .filter((arg) => arg.startsWith("--") && arg.includes("="))
    .map((arg) => arg.slice(2).split("=") as [string, string]),
);
const HOSTS = Number(args.get("hosts") ?? 2000);
const CLUSTERS = Number(args.get("clusters") ?? 4);
const HISTORY_HOURS = Number(args.get("history-hours") ?? 3);
const CYCLES = Number(args.get("cycles") ?? 5);
const BACKENDS = (args.get("backends")?.split(",") ?? [...METRICS_BACKENDS]) as MetricsBackend[];
/** `--start-flags=1`: the poller runs under the heap limits `npm start` gives the bot (package.json). */
const START_FLAGS =
  args.get("start-flags") === "1" ? ["--max-semi-space-size=2", "--max-old-space-size=192"] : [];
const GPUS = 8;
const BASELINE_HOSTS = 1000;
const HISTORY_STEP_MS = 5 * MINUTE_MS;
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

function* history(hosts: number[], endMs: number): Generator<HistorySeries> {
  const fromMs = endMs - HISTORY_HOURS * 60 * MINUTE_MS;
  for (const [name, value] of [
    ["DCGM_FI_DEV_FB_USED", used],
    ["DCGM_FI_DEV_GPU_UTIL", util],
  ] as const) {
    for (const h of hosts) {
      for (let g = 0; g < GPUS; g++) {
        const points: [number, number][] = [];
        for (let at = fromMs; at <= endMs; at += HISTORY_STEP_MS) points.push([at, value(h, g)]);
        yield { name, labels: gpuLabels(h, g), points };
      }
    }
  }
}

function exposition(hosts: number[]): string {
  const out: LiveSample[] = [];
  const families = dcgmFamilies(util, used);
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

interface Measured {
  cycle_ms: number;
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
}

async function measure(backend: MetricsBackend, hosts: number): Promise<Measured> {
  const endMs = Math.floor((Date.now() - 2 * MINUTE_MS) / HISTORY_STEP_MS) * HISTORY_STEP_MS;
  const perCluster = Math.ceil(hosts / CLUSTERS);
  const engines: RunningPrometheus[] = [];
  try {
    for (let c = 0; c < CLUSTERS; c++) {
      const own = Array.from(
        { length: Math.min(perCluster, hosts - c * perCluster) },
        (_, i) => c * perCluster + i,
      );
      const text = exposition(own);
      const engine = await startMetricsBackend(backend, {
        backfill: history(own, endMs),
        exporter: () => text,
        scrapeIntervalSeconds: 15,
      });
      engines.push(engine);
      await engine.waitFor("DCGM_FI_DEV_GPU_TEMP", own.length * GPUS, 180_000);
    }
    const job = { urls: engines.map((engine) => engine.url), cycles: CYCLES, gpus: hosts * GPUS };
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [...START_FLAGS, "--import", "tsx", "--expose-gc", join(here, "scale-poller.ts"), JSON.stringify(job)],
      { maxBuffer: 1 << 20, timeout: 1_800_000 },
    );
    const measured = JSON.parse(stdout.trim().split("\n").at(-1)!) as Measured;
    if (measured.ok_gpus !== hosts * GPUS)
      throw new Error(
        `${backend}: ${measured.ok_gpus} GPUs of ${hosts * GPUS}: ${JSON.stringify(measured.hosts_by_cause)}`,
      );
    return measured;
  } finally {
    await Promise.all(engines.map((engine) => engine.stop()));
  }
}

const here = dirname(fileURLToPath(import.meta.url));
for (const backend of BACKENDS) {
  const run = await measure(backend, HOSTS);
  const base = HOSTS === BASELINE_HOSTS ? run : await measure(backend, BASELINE_HOSTS);
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
    cycles: CYCLES,
    write_ms: round(run.write_ms, 0),
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
    start_flags: START_FLAGS.join(" "),
    load_avg_1m: round(loadavg()[0]!, 2),
    cores: availableParallelism(),
    target_ms: 5000,
    target_rss_mb: 400,
  });
}
