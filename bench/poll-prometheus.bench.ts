import { readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { sourceSchema } from "../src/config/schema.ts";
import { MINUTE_MS, systemClock } from "../src/shared/clock.ts";
import { silentLogger } from "../src/shared/logger.ts";
import { createPrometheusClient } from "../src/sources/prometheus-api.ts";
import {
  createPrometheusSource,
  type PrometheusSource,
  type PrometheusSourceConfig,
  prometheusQueries,
} from "../src/sources/prometheus-source.ts";
import {
  formatExposition,
  type HistorySeries,
  type LiveSample,
  startPrometheus,
} from "../test/helpers/prometheus.ts";
import { dcgmFamilies } from "./dcgm-families.ts";
import { median, report, round } from "./report.ts";

// One full poll cycle of the Prometheus source for 1,000 hosts × 8 GPUs against a real local Prometheus.
// As in production, the fresh samples sit in the head block: one exporter serves every host's
// dcgm-exporter, node_exporter, kube-state-metrics and cAdvisor series and is scraped every 15 s. The
// 3 h of FB_USED history that the "seen recently" query reads is backfilled with promtool.
const HOSTS = 1000;
const GPUS = 8;
const CPUS = 8;
const SCRAPE_S = 15;
const HISTORY_STEP_MS = 30_000;
const CYCLES = 7;

const historyEndMs = Math.floor((Date.now() - 2 * MINUTE_MS) / HISTORY_STEP_MS) * HISTORY_STEP_MS;
const historyFromMs = historyEndMs - 3 * 60 * MINUTE_MS;

const hostName = (h: number) => `gpu-${String(h + 1).padStart(4, "0")}`;
const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");

function gpuLabels(h: number, g: number): Record<string, string> {
  return {
    gpu: String(g),
    UUID: `GPU-${hex(h, 8)}-${hex(g, 4)}-4000-8000-${hex(h * GPUS + g, 12)}`,
    pci_bus_id: `00000000:${hex(0x18 + g * 0x11, 2).toUpperCase()}:00.0`,
    device: `nvidia${g}`,
    modelName: "NVIDIA H100 80GB HBM3",
    Hostname: hostName(h),
    DCGM_FI_DRIVER_VERSION: "570.86.15",
    instance: `10.${(h >> 8) & 255}.${h & 255}.10:9400`,
    job: "dcgm-exporter",
  };
}

const used = (h: number, g: number) => (h % 4 === 0 ? 0 : 20000 + g * 1000);
const util = (h: number, g: number) => ((h + g) % 11) * 9;

function* history(): Generator<HistorySeries> {
  for (let h = 0; h < HOSTS; h++) {
    for (let g = 0; g < GPUS; g++) {
      const points: [number, number][] = [];
      for (let at = historyFromMs; at <= historyEndMs; at += HISTORY_STEP_MS) points.push([at, used(h, g)]);
      yield { name: "DCGM_FI_DEV_FB_USED", labels: gpuLabels(h, g), points };
    }
  }
}

const node = (h: number) => ({ instance: `${hostName(h)}:9100`, job: "node" });
const pod = (h: number) => ({ namespace: "ml", pod: `train-${hostName(h)}`, uid: `uid-${h}` });
const ksm = { job: "kube-state-metrics", instance: "10.255.0.2:8080" };

function staticSeries(): LiveSample[] {
  const out: LiveSample[] = [];
  const gpuFamilies = dcgmFamilies(util, used);
  for (const [name, value] of gpuFamilies) {
    for (let h = 0; h < HOSTS; h++) {
      for (let g = 0; g < GPUS; g++) out.push({ name, labels: gpuLabels(h, g), value: value(h, g) });
    }
  }
  for (let h = 0; h < HOSTS; h++) {
    out.push({ name: "node_load1", labels: node(h), value: (h % 7) * 0.5 });
    out.push({ name: "kube_pod_info", labels: { ...ksm, ...pod(h), node: hostName(h) }, value: 1 });
    for (const [resource, unit, value] of [
      ["cpu", "core", 16],
      ["nvidia_com_gpu", "integer", GPUS],
    ] as const) {
      const labels = { ...ksm, ...pod(h), container: "trainer", node: hostName(h), resource, unit };
      out.push({ name: "kube_pod_container_resource_requests", labels, value });
    }
    for (const phase of ["Pending", "Running", "Succeeded", "Failed", "Unknown"]) {
      out.push({
        name: "kube_pod_status_phase",
        labels: { ...ksm, ...pod(h), phase },
        value: phase === "Running" ? 1 : 0,
      });
    }
  }
  return out;
}

function counters(nowMs: number): LiveSample[] {
  const out: LiveSample[] = [];
  for (let h = 0; h < HOSTS; h++) {
    for (let cpu = 0; cpu < CPUS; cpu++) {
      out.push({
        name: "node_cpu_seconds_total",
        labels: { ...node(h), cpu: String(cpu), mode: "idle" },
        value: (0.6 * nowMs) / 1000,
      });
    }
    out.push({
      name: "container_cpu_usage_seconds_total",
      labels: {
        job: "kubelet",
        instance: `${hostName(h)}:10250`,
        namespace: "ml",
        pod: `train-${hostName(h)}`,
        container: "trainer",
        cpu: "total",
        image: "registry.example.com/trainer:1.4",
      },
      value: (11.5 * nowMs) / 1000,
    });
  }
  return out;
}

const staticText = formatExposition(staticSeries());
/** One poll, timed; throws unless every host, GPU (with utilisation) and container came back. */
async function measureCycle(
  source: PrometheusSource,
  serverPid: number,
): Promise<{ ms: number; serverCpuMs: number; clientCpuMs: number }> {
  const serverBefore = cpuMsOf(serverPid);
  const clientBefore = process.cpuUsage();
  const started = performance.now();
  const observations = await source.poll(new AbortController().signal);
  const ms = performance.now() - started;
  const clientUsed = process.cpuUsage(clientBefore);
  const serverCpuMs = cpuMsOf(serverPid) - serverBefore;
  let ok = 0;
  let gpus = 0;
  let withUtil = 0;
  let containers = 0;
  for (const observation of observations) {
    if (!observation.ok) continue;
    ok++;
    gpus += observation.gpus.length;
    withUtil += observation.gpus.filter((gpu) => gpu.utilPct !== null && gpu.memTotalMiB !== null).length;
    containers += observation.containers.length;
  }
  if (ok !== HOSTS || gpus !== HOSTS * GPUS || withUtil !== HOSTS * GPUS || containers !== HOSTS) {
    throw new Error(
      `cycle saw ${ok} ok hosts, ${gpus} GPUs (${withUtil} with utilisation and memory total), ${containers} containers; expected ${HOSTS}, ${HOSTS * GPUS}, ${HOSTS}`,
    );
  }
  return { ms, serverCpuMs, clientCpuMs: (clientUsed.user + clientUsed.system) / 1000 };
}

/** CPU time (user + system) a process has used, in ms, from /proc (Linux). */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}
const CLOCK_TICKS = 100;

const setupStart = performance.now();
const prom = await startPrometheus({
  backfill: history(),
  exporter: () => staticText + formatExposition(counters(Date.now())),
  scrapeIntervalSeconds: SCRAPE_S,
});
try {
  await prom.waitFor("rate(container_cpu_usage_seconds_total[5m])", HOSTS, 120_000);
  const setupS = (performance.now() - setupStart) / 1000;
  const config = sourceSchema.parse({ kind: "prometheus", url: prom.url }) as PrometheusSourceConfig;
  const source = createPrometheusSource(config, { clock: systemClock, logger: silentLogger });

  const timings: number[] = [];
  const serverCpu: number[] = [];
  const clientCpu: number[] = [];
  let steadyQueries = 0;
  for (let cycle = 0; cycle <= CYCLES; cycle++) {
    const measured = await measureCycle(source, prom.pid);
    if (cycle === 0) continue;
    timings.push(measured.ms);
    serverCpu.push(measured.serverCpuMs);
    clientCpu.push(measured.clientCpuMs);
    steadyQueries = source.lastQueryCount;
  }
  // A source's first cycle (and one every 10 minutes) also reads memory totals and GR_ENGINE_ACTIVE,
  // the server's flags and the FB_USED heartbeat.
  const fullTimings: number[] = [];
  let fullQueries = 0;
  for (let i = 0; i < 3; i++) {
    const fresh = createPrometheusSource(config, { clock: systemClock, logger: silentLogger });
    fullTimings.push((await measureCycle(fresh, prom.pid)).ms);
    fullQueries = fresh.lastQueryCount;
  }

  const client = createPrometheusClient({ url: prom.url, timeoutMs: 30_000 });
  const queries = prometheusQueries(config);
  const perQueryMs: Record<string, number> = {};
  const alone: [string, string][] = [
    ...Object.entries(queries.fields),
    ...Object.entries(queries).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  ];
  for (const [name, promql] of alone) {
    const runs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      await client.queryVector(promql);
      runs.push(performance.now() - started);
    }
    perQueryMs[name] = round(median(runs), 1);
  }
  const seenRuns: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    const now = Date.now();
    await client.series(queries.seen.selector, { startMs: now - queries.seen.windowMs, endMs: now });
    seenRuns.push(performance.now() - started);
  }
  perQueryMs.seen = round(median(seenRuns), 1);

  report({
    name: "poll-prometheus",
    value: round(median(timings), 1),
    unit: "ms",
    queries: steadyQueries,
    first_cycle_ms: round(median(fullTimings), 1),
    first_cycle_queries: fullQueries,
    hosts: HOSTS,
    gpus: HOSTS * GPUS,
    cycles: timings.length,
    min_ms: round(Math.min(...timings), 1),
    max_ms: round(Math.max(...timings), 1),
    prometheus_cpu_ms: round(median(serverCpu), 0),
    client_cpu_ms: round(median(clientCpu), 0),
    load_avg_1m: round(loadavg()[0]!, 2),
    cores: availableParallelism(),
    per_query_ms: perQueryMs,
    backfilled_samples: prom.backfilledSamples,
    setup_s: round(setupS, 1),
    scrape_interval_s: SCRAPE_S,
    scraped_series: HOSTS * (GPUS * 7 + CPUS + 10),
    target_ms: 1000,
  });
} finally {
  await prom.stop();
}
