import assert from "node:assert/strict";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { after, before, describe, test } from "node:test";
import { sourceSchema } from "../../src/config/schema.ts";
import type { HostRecord } from "../../src/domain/metrics.ts";
import type { ContainerUsage, GpuReading, HostObservation } from "../../src/domain/observation.ts";
import { type Clock, DAY_MS, HOUR_MS, ManualClock, MINUTE_MS } from "../../src/shared/clock.ts";
import { migSlot, slotLabel } from "../../src/shared/gpu-slot.ts";
import { createLogger } from "../../src/shared/logger.ts";
import { dayjs } from "../../src/shared/time.ts";
import { parseQueryResponse } from "../../src/sources/prometheus-api.ts";
import {
  createPrometheusSource,
  hostFromLabel,
  type PrometheusSourceConfig,
  parseDurationMs,
} from "../../src/sources/prometheus-source.ts";
import { FIXTURES_DIR } from "../helpers/fixtures.ts";
import { METRICS_BACKENDS, startMetricsBackend } from "../helpers/metrics-backend.ts";
import { type PromTextSample, parsePromText } from "../helpers/parse-prom-text.ts";
import {
  formatExposition,
  gridTime,
  type HistorySeries,
  type LiveSample,
  linearCounter,
  type RunningPrometheus,
} from "../helpers/prometheus.ts";

const fixtures = `${FIXTURES_DIR}/`;
const readFixture = (path: string) => readFileSync(`${fixtures}${path}`, "utf8");
const fixtureSamples = (path: string) => parsePromText(readFixture(path)).samples;

const H100 = fixtureSamples("dcgm-exporter/k8s-8xH100-podlabels-sampled__aicr.prom");
const MIG = fixtureSamples("dcgm-exporter/A100-MIG-1g.5gb-busy-no-help__nvidia-cloud-native-docs.prom");
const T4 = fixtureSamples("dcgm-exporter/T4-busy-no-help__cncf-ericsson-ccd.prom");
const L4 = fixtureSamples("dcgm-exporter/L4-idle-default-counters__cncf-kops.prom");
const NODE = fixtureSamples("node-exporter/e2e-output-TRIMMED-cpu-load-mem-net__node_exporter.prom");
const KSM = fixtureSamples("kube-state-metrics/ksm-pod-metrics-fake-pod-with-1-gpu__ksm-server_test.prom");
const H100_FB_USED = (() => {
  const result = parseQueryResponse(
    200,
    "application/json",
    readFixture("prometheus-api/query-vector__DCGM_FI_DEV_FB_USED__16xH100-2nodes__aicr.json"),
  );
  assert.equal(result.data.resultType, "vector");
  return new Map(
    result.data.resultType === "vector"
      ? result.data.series.map((sample) => [sample.labels.UUID!, sample.value])
      : [],
  );
})();

const TEN_MIN = 10 * MINUTE_MS;
const grid = (ms: number) => Math.floor(ms / TEN_MIN) * TEN_MIN;
const IDLE_RATE = 0.75;
const CONTAINER_RATES = { pod1_con1: 0.15, pod1_con2: 0.05, POD: 0.01 } as const;

const sampleLabels = (samples: PromTextSample[], name: string) =>
  samples.filter((sample) => sample.name === name).map((sample) => sample.labels);
const withoutInstance = (labels: Record<string, string>) => labels.GPU_I_ID === undefined;

/** The history pattern: deterministic per 10-minute step `k` and GPU index. */
const pattern = {
  util: (k: number, gpu: number) => ((k + gpu) % 10) * 10,
  fbUsed: (k: number, gpu: number) => 1000 * gpu + (k % 7) * 100,
  power: (k: number, gpu: number) => 100 + gpu + (k % 3) * 0.25,
  temp: (k: number, gpu: number) => 40 + gpu + (k % 5),
  grActive: (k: number) => (k % 10) / 10,
};

interface HostHistory {
  /** Whole-GPU label sets, from the fixture. */
  gpus: Record<string, string>[];
  totalMiB: number;
  hasUtil: boolean;
  /** MIG GPU-instance label sets (GR_ENGINE_ACTIVE only). */
  instances?: Record<string, string>[];
  fromMs: number;
  toMs: number;
}

function dcgmHistory(hosts: HostHistory[]): HistorySeries[] {
  const byName = new Map<string, HistorySeries[]>();
  const add = (
    name: string,
    labels: Record<string, string>,
    from: number,
    to: number,
    value: (k: number) => number,
  ) => {
    const points: [number, number][] = [];
    for (let at = from; at <= to; at += TEN_MIN) points.push([at, value(at / TEN_MIN)]);
    const list = byName.get(name) ?? [];
    list.push({ name, labels, points });
    byName.set(name, list);
  };
  for (const host of hosts) {
    for (const labels of host.gpus) {
      const gpu = Number(labels.gpu);
      if (host.hasUtil)
        add("DCGM_FI_DEV_GPU_UTIL", labels, host.fromMs, host.toMs, (k) => pattern.util(k, gpu));
      add("DCGM_FI_DEV_FB_USED", labels, host.fromMs, host.toMs, (k) => pattern.fbUsed(k, gpu));
      add(
        "DCGM_FI_DEV_FB_FREE",
        labels,
        host.fromMs,
        host.toMs,
        (k) => host.totalMiB - pattern.fbUsed(k, gpu),
      );
      add("DCGM_FI_DEV_POWER_USAGE", labels, host.fromMs, host.toMs, (k) => pattern.power(k, gpu));
      add("DCGM_FI_DEV_GPU_TEMP", labels, host.fromMs, host.toMs, (k) => pattern.temp(k, gpu));
      add("DCGM_FI_PROF_GR_ENGINE_ACTIVE", labels, host.fromMs, host.toMs, (k) => pattern.grActive(k));
    }
    for (const labels of host.instances ?? []) {
      add("DCGM_FI_PROF_GR_ENGINE_ACTIVE", labels, host.fromMs, host.toMs, () => 0.55);
    }
  }
  return [...byName.values()].flat();
}

const COUNTER_STEP = 10_000;
const counterGrid = (ms: number) => gridTime(ms, COUNTER_STEP);
const counterHistory = (
  name: string,
  labels: Record<string, string>,
  ratePerSecond: number,
  base: number,
  fromMs: number,
  toMs: number,
) => linearCounter({ name, labels, ratePerSecond, base, fromMs, toMs, stepMs: COUNTER_STEP });

const nodeIdleBase = (cpu: string) =>
  NODE.find(
    (sample) =>
      sample.name === "node_cpu_seconds_total" && sample.labels.cpu === cpu && sample.labels.mode === "idle",
  )!.value! -
  (IDLE_RATE * 1.7e12) / 1000;
const cadvisorLabels = (container: string | null): Record<string, string> => ({
  ...(container ? { container } : {}),
  cpu: "total",
  id: `/kubepods/burstable/podabc-0${container ? `/${container}` : ""}`,
  image: container === "pod1_con2" ? "k8s.gcr.io/hyperkube3" : "k8s.gcr.io/hyperkube2",
  instance: "gpu-node-1:10250",
  job: "kubelet",
  namespace: "default",
  pod: "pod0",
});
const containerSeries = [
  { labels: cadvisorLabels("pod1_con1"), rate: CONTAINER_RATES.pod1_con1 },
  { labels: cadvisorLabels("pod1_con2"), rate: CONTAINER_RATES.pod1_con2 },
  { labels: cadvisorLabels("POD"), rate: CONTAINER_RATES.POD },
  { labels: cadvisorLabels(null), rate: 0.2 },
];

/** What the live exporter serves: the fixtures, re-labelled to name their hosts. */
function liveText(hosts: { h100: boolean; mig: boolean; l4: boolean }): string {
  const now = counterGrid(Date.now());
  const out: LiveSample[] = [];
  if (hosts.h100) {
    out.push(...H100);
    for (const labels of sampleLabels(H100, "DCGM_FI_DEV_GPU_TEMP")) {
      out.push({ name: "DCGM_FI_DEV_FB_USED", labels, value: H100_FB_USED.get(labels.UUID!) ?? null });
    }
    for (const sample of NODE) {
      const labels = { ...sample.labels, instance: "gpu-node-1:9100", job: "node" };
      if (sample.name === "node_cpu_seconds_total" && sample.labels.mode === "idle") {
        out.push({
          ...sample,
          labels,
          value: nodeIdleBase(sample.labels.cpu!) + (IDLE_RATE * now) / 1000,
          timestampMs: now,
        });
      } else out.push({ ...sample, labels });
    }
    for (const sample of KSM) {
      out.push({
        ...sample,
        labels: sample.labels.node === "node1" ? { ...sample.labels, node: "gpu-node-1" } : sample.labels,
      });
    }
    for (const { labels, rate } of containerSeries) {
      out.push({
        name: "container_cpu_usage_seconds_total",
        labels,
        value: 1000 + (rate * now) / 1000,
        timestampMs: now,
      });
    }
  }
  if (hosts.mig) out.push(...MIG);
  if (hosts.l4) out.push(...L4);
  return formatExposition(out);
}

function byHost(observations: HostObservation[]): Map<string, HostObservation> {
  return new Map(observations.map((observation) => [observation.host, observation]));
}

function okHost(observations: HostObservation[], host: string) {
  const observation = byHost(observations).get(host);
  assert.ok(observation, `${host} reported`);
  assert.ok(observation.ok, `${host} ok: ${observation.ok ? "" : observation.message}`);
  return observation;
}

function since(lastMs: number, nowMs: number): string {
  const last = dayjs.utc(lastMs);
  return last.isSame(dayjs.utc(nowMs), "day")
    ? `${last.format("HH:mm")} UTC`
    : `${last.format("YYYY-MM-DD HH:mm")} UTC`;
}

function captureLogs() {
  const lines: { level: number; msg: string; [key: string]: unknown }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: createLogger("info", stream) };
}

function config(url: string, extra: Record<string, unknown> = {}): PrometheusSourceConfig {
  const parsed = sourceSchema.parse({ kind: "prometheus", url, ...extra });
  assert.equal(parsed.kind, "prometheus");
  return parsed as PrometheusSourceConfig;
}

const systemTime: Clock = { now: () => Date.now() };

for (const backend of METRICS_BACKENDS)
  describe(`prometheus source against a real ${backend} with 14 days of dcgm-exporter history`, () => {
    const startMs = Date.now();
    const liveHistoryEnd = grid(startMs - 6 * MINUTE_MS);
    const historyStart = liveHistoryEnd - 14 * DAY_MS - HOUR_MS;
    const staleLast = grid(startMs - 40 * MINUTE_MS);
    const oldLast = grid(startMs - 5 * HOUR_MS);
    const counterEnd = counterGrid(startMs - 61_000);
    const counterStart = counterEnd - 10 * MINUTE_MS;
    const t4 = sampleLabels(T4, "DCGM_FI_DEV_GPU_TEMP");
    const hosts: HostHistory[] = [
      {
        gpus: sampleLabels(H100, "DCGM_FI_DEV_GPU_TEMP"),
        totalMiB: 80000,
        hasUtil: true,
        fromMs: historyStart,
        toMs: liveHistoryEnd,
      },
      {
        gpus: sampleLabels(MIG, "DCGM_FI_DEV_GPU_TEMP"),
        instances: sampleLabels(MIG, "DCGM_FI_PROF_GR_ENGINE_ACTIVE").filter(
          (labels) => !withoutInstance(labels),
        ),
        totalMiB: 40535,
        hasUtil: false,
        fromMs: historyStart,
        toMs: liveHistoryEnd,
      },
      { gpus: t4, totalMiB: 14911, hasUtil: true, fromMs: historyStart, toMs: staleLast },
      {
        gpus: t4.map((labels) => ({
          ...labels,
          Hostname: "gpu-old",
          UUID: "GPU-00000000-0000-0000-0000-0000000000ff",
        })),
        totalMiB: 14911,
        hasUtil: true,
        fromMs: historyStart,
        toMs: oldLast,
      },
    ];
    const live = { h100: true, mig: true, l4: true };
    let prom: RunningPrometheus;

    before(async () => {
      const counters: HistorySeries[] = [
        ...NODE.filter(
          (sample) => sample.name === "node_cpu_seconds_total" && sample.labels.mode === "idle",
        ).map((sample) =>
          counterHistory(
            "node_cpu_seconds_total",
            { ...sample.labels, instance: "gpu-node-1:9100", job: "node" },
            IDLE_RATE,
            nodeIdleBase(sample.labels.cpu!),
            counterStart,
            counterEnd,
          ),
        ),
        ...containerSeries.map(({ labels, rate }) =>
          counterHistory("container_cpu_usage_seconds_total", labels, rate, 1000, counterStart, counterEnd),
        ),
      ];
      prom = await startMetricsBackend(backend, {
        backfill: [...dcgmHistory(hosts), ...counters],
        exporter: () => liveText(live),
      });
      await prom.waitFor('DCGM_FI_DEV_FB_USED{Hostname="gpu-node-1"}', 8);
    });

    after(async () => {
      await prom?.stop();
    });

    test("the backfill spans 14 days", () => {
      assert.ok(prom.backfilledSamples > 100_000);
    });

    test("a day 14 days back: every history host with exact readings, no CPU data (null, never 0)", async () => {
      const at = liveHistoryEnd - 14 * DAY_MS;
      const k = at / TEN_MIN;
      const clock = new ManualClock(at + MINUTE_MS);
      const source = createPrometheusSource(config(prom.url), { clock, logger: createLogger("silent") });
      const observations = await source.poll(new AbortController().signal);
      assert.deepEqual(
        observations.map((observation) => [observation.host, observation.ok]),
        [
          ["cp-bm14r7", true],
          ["gpu-node-1", true],
          ["gpu-old", true],
          ["ub20-a100-k8s", true],
        ],
      );
      const node1 = okHost(observations, "gpu-node-1");
      assert.equal(node1.atMs, at + MINUTE_MS);
      assert.deepEqual(
        node1.gpus.map((gpu) => [
          gpu.index,
          gpu.utilPct,
          gpu.memUsedMiB,
          gpu.memTotalMiB,
          gpu.powerW,
          gpu.tempC,
        ]),
        [0, 1, 2, 3, 4, 5, 6, 7].map((gpu) => [
          gpu,
          pattern.util(k, gpu),
          pattern.fbUsed(k, gpu),
          80000,
          pattern.power(k, gpu),
          pattern.temp(k, gpu),
        ]),
      );
      assert.equal(node1.cpuLoad1, null);
      assert.equal(node1.cpuUtilPct, null);
      assert.deepEqual(node1.containers, []);
      assert.equal(node1.sessions, null);
    });

    test("a week back: H100 pod attribution, MIG utilisation from GR_ENGINE_ACTIVE", async () => {
      const at = liveHistoryEnd - 7 * DAY_MS - 3 * TEN_MIN;
      const k = at / TEN_MIN;
      const source = createPrometheusSource(config(prom.url), {
        clock: new ManualClock(at + 2 * MINUTE_MS),
        logger: createLogger("silent"),
      });
      const observations = await source.poll(new AbortController().signal);
      const gpu0 = okHost(observations, "gpu-node-1").gpus[0]!;
      assert.deepEqual(gpu0, {
        index: 0,
        uuid: "GPU-c4529c8d-69c4-b61d-e0bc-7b2460096005",
        model: "NVIDIA H100 80GB HBM3",
        utilPct: pattern.util(k, 0),
        memUsedMiB: pattern.fbUsed(k, 0),
        memTotalMiB: 80000,
        powerW: pattern.power(k, 0),
        tempC: pattern.temp(k, 0),
        mig: false,
        processes: [
          {
            pid: null,
            user: null,
            name: "vllm-agg-0-vllmdecodeworker-s65j5/main",
            usedMemoryMiB: pattern.fbUsed(k, 0),
            container: "main",
            pod: "vllm-agg-0-vllmdecodeworker-s65j5",
            namespace: "dynamo-workload",
          },
        ],
      } satisfies GpuReading);
      assert.deepEqual(okHost(observations, "gpu-node-1").gpus[1]!.processes, []);
      // The MIG GPU is shown as its one instance (GPU 0, instance 13, 1g.5gb), with the instance's own
      // GR_ENGINE_ACTIVE (0.55 in this history; the whole GPU's is a multiple of 0.1), not the whole GPU's.
      const mig = okHost(observations, "ub20-a100-k8s").gpus;
      assert.deepEqual(
        mig.map((gpu) => [slotLabel(gpu.index), gpu.mig, gpu.utilPct, gpu.model, gpu.uuid]),
        [["0.13", true, 55, "MIG 1g.5gb", "GPU-34319582-d595-d1c7-d1d2-179bcfa61660"]],
      );
      assert.equal(okHost(observations, "cp-bm14r7").gpus[0]!.model, "Tesla T4");
    });

    test("range queries: history per GPU and each host's busiest GPU per step, as polls would have seen them", async () => {
      const k0 = (liveHistoryEnd - 10 * DAY_MS) / TEN_MIN;
      const request = {
        fromMs: k0 * TEN_MIN + MINUTE_MS,
        toMs: (k0 + 5) * TEN_MIN + MINUTE_MS,
        stepMs: TEN_MIN,
      };
      const source = createPrometheusSource(config(prom.url), {
        clock: new ManualClock(liveHistoryEnd),
        logger: createLogger("silent"),
      });
      const steps = await source.history(request, new AbortController().signal);
      const node1 = steps.filter((observation) => observation.host === "gpu-node-1");
      assert.deepEqual(
        node1.map((observation) => [
          observation.atMs,
          observation.ok ? observation.gpus.map((gpu) => gpu.utilPct) : [],
        ]),
        [0, 1, 2, 3, 4, 5].map((i) => [
          request.fromMs + i * TEN_MIN,
          [0, 1, 2, 3, 4, 5, 6, 7].map((gpu) => pattern.util(k0 + i, gpu)),
        ]),
      );
      const mig = steps.find((observation) => observation.host === "ub20-a100-k8s" && observation.ok);
      assert.ok(mig?.ok);
      assert.deepEqual(
        mig.gpus.map((gpu) => [slotLabel(gpu.index), Math.round(gpu.utilPct! * 100) / 100]),
        [["0.13", 55]],
      );
      const busiest = await source.busiestHistory(request, new AbortController().signal);
      assert.deepEqual(
        [...busiest.get("gpu-node-1")!.utilPct],
        [0, 1, 2, 3, 4, 5].map((i) =>
          Math.max(...[0, 1, 2, 3, 4, 5, 6, 7].map((gpu) => pattern.util(k0 + i, gpu))),
        ),
      );
    });

    test("between two history samples more than stale_after apart: every host is stale since the last sample", async () => {
      const at = liveHistoryEnd - 3 * DAY_MS;
      const nowMs = at + 7 * MINUTE_MS;
      const source = createPrometheusSource(config(prom.url), {
        clock: new ManualClock(nowMs),
        logger: createLogger("silent"),
      });
      const observations = await source.poll(new AbortController().signal);
      assert.deepEqual(
        observations,
        ["cp-bm14r7", "gpu-node-1", "gpu-old", "ub20-a100-k8s"].map((host) => ({
          host,
          source: "prometheus",
          atMs: nowMs,
          ok: false,
          cause: "stale",
          message: `no data from ${host} since ${since(at, nowMs)}`,
          lastSampleAtMs: at,
        })),
      );
      assert.equal(
        source.lastQueryCount,
        backend === "prometheus" ? 15 : 16,
        "7 fields, seen, 5 node/k8s, flags (VictoriaMetrics: /flags too), last-seen; no heartbeat (Prometheus: lookback 5m = stale_after; VictoriaMetrics: max_lookback)",
      );
    });

    test("stale_after_seconds below the server's 5-minute lookback: a 4-minute-old sample is no reading", async () => {
      const at = liveHistoryEnd - 2 * DAY_MS;
      const nowMs = at + 4 * MINUTE_MS;
      const source = (staleAfterS: number) =>
        createPrometheusSource(config(prom.url, { stale_after_seconds: staleAfterS }), {
          clock: new ManualClock(nowMs),
          logger: createLogger("silent"),
        });
      const poll = (staleAfterS: number) => source(staleAfterS).poll(new AbortController().signal);
      const strictSource = source(120);
      const counts: number[] = [];
      // The first poll reads the server's flags, then the fields: Prometheus' 5-minute lookback keeps
      // the heartbeat (each sample's age), and VictoriaMetrics is sent `max_lookback` with each field's
      // query instead; the second poll does the same without the flags.
      for (const cycle of ["first", "second"]) {
        const strict = await strictSource.poll(new AbortController().signal);
        counts.push(strictSource.lastQueryCount);
        assert.deepEqual(
          strict.map((observation) => [observation.host, observation.ok ? "ok" : observation.message]),
          ["cp-bm14r7", "gpu-node-1", "gpu-old", "ub20-a100-k8s"].map((host) => [
            host,
            `no data from ${host} since ${since(at, nowMs)}`,
          ]),
          `${cycle} poll`,
        );
      }
      assert.deepEqual(
        counts,
        backend === "prometheus" ? [16, 11] : [16, 10],
        "the second poll reads no GPU_TEMP (every 10 minutes)",
      );
      const lenient = await poll(300);
      assert.ok(lenient.every((observation) => observation.ok));
      assert.equal(okHost(lenient, "gpu-node-1").gpus[3]!.utilPct, pattern.util(at / TEN_MIN, 3));
    });

    describe("now, with live exporter values", () => {
      const logs = captureLogs();
      const source = () =>
        createPrometheusSource(config(prom.url), { clock: systemTime, logger: logs.logger });
      let shared: ReturnType<typeof source>;

      test("live readings per host and GPU, exactly as the exporters serve them", async () => {
        shared = source();
        const observations = await shared.poll(new AbortController().signal);
        assert.deepEqual(
          observations.map((observation) => [observation.host, observation.ok]),
          [
            ["cp-bm14r7", false],
            ["gpu-node-1", true],
            ["i-030791dc5a37cd257", true],
            ["ub20-a100-k8s", true],
          ],
          "gpu-old last reported 5 h ago: forgotten, not reported",
        );
        assert.equal(
          shared.lastQueryCount,
          backend === "prometheus" ? 15 : 16,
          "the first cycle also reads the server's flags (VictoriaMetrics: /api/v1/status/flags, then /flags)",
        );

        const node1 = okHost(observations, "gpu-node-1");
        assert.deepEqual(
          node1.gpus.map((gpu) => [
            gpu.index,
            gpu.utilPct,
            gpu.memUsedMiB,
            gpu.memTotalMiB,
            gpu.powerW,
            gpu.tempC,
            gpu.processes.length,
          ]),
          [
            [0, 0, 74166, null, 113.611, 30, 1],
            [1, 0, 0, null, 68.347, 29, 0],
            [2, 0, 0, null, 65.709, 26, 0],
            [3, 0, 0, null, 67.316, 29, 0],
            [4, 0, 0, null, 68.717, 28, 0],
            [5, 0, 0, null, 65.742, 26, 0],
            [6, 0, 0, null, 67.328, 28, 0],
            [7, 0, 0, null, 66.997, 26, 0],
          ],
        );
        assert.deepEqual(node1.gpus[0]!.processes[0], {
          pid: null,
          user: null,
          name: "vllm-agg-0-vllmdecodeworker-s65j5/main",
          usedMemoryMiB: 74166,
          container: "main",
          pod: "vllm-agg-0-vllmdecodeworker-s65j5",
          namespace: "dynamo-workload",
        });
        assert.equal(node1.gpus[7]!.uuid, "GPU-04d228d3-3b5a-3534-f5cf-969706647d56");
        assert.equal(node1.cpuLoad1, 0.21);
        assert.equal(node1.cpuUtilPct, 25);
        assert.deepEqual(node1.containers, [
          {
            namespace: "default",
            pod: "pod0",
            container: "pod1_con1",
            cpuRequestCores: 0.2,
            cpuUsageCores: 0.15,
            gpuRequest: 1,
          },
          {
            namespace: "default",
            pod: "pod0",
            container: "pod1_con2",
            cpuRequestCores: 0.3,
            cpuUsageCores: 0.05,
            gpuRequest: null,
          },
        ] satisfies ContainerUsage[]);

        // The capture's MIG GPU: whole-GPU series plus one GPU instance (13, 1g.5gb) with GR_ENGINE_ACTIVE
        // only. The instance is the slot; memory, power and temperature are whole-GPU readings, not its.
        assert.deepEqual(okHost(observations, "ub20-a100-k8s").gpus, [
          {
            index: migSlot(0, 13)!,
            uuid: "GPU-34319582-d595-d1c7-d1d2-179bcfa61660",
            model: "MIG 1g.5gb",
            utilPct: 99.57,
            memUsedMiB: null,
            memTotalMiB: null,
            powerW: null,
            tempC: null,
            mig: true,
            processes: [],
          },
        ] satisfies GpuReading[]);
        assert.equal(okHost(observations, "ub20-a100-k8s").cpuLoad1, null);

        assert.deepEqual(okHost(observations, "i-030791dc5a37cd257").gpus, [
          {
            index: 0,
            uuid: "GPU-c2f76b33-7953-256e-8f33-1343419b1a1c",
            model: "NVIDIA L4",
            utilPct: 0,
            memUsedMiB: 0,
            memTotalMiB: 22563 + 470,
            powerW: 16.365,
            tempC: 31,
            mig: false,
            processes: [],
          },
        ] satisfies GpuReading[]);

        const stale = byHost(observations).get("cp-bm14r7")!;
        assert.deepEqual(stale, {
          host: "cp-bm14r7",
          source: "prometheus",
          atMs: stale.atMs,
          ok: false,
          cause: "stale",
          message: `no data from cp-bm14r7 since ${since(staleLast, stale.atMs)}`,
          lastSampleAtMs: staleLast,
        });
        assert.deepEqual(logs.lines, []);
      });

      test("started over a store that knows the GPUs' memory totals: the first poll does not read them again", async () => {
        const expected = await source().poll(new AbortController().signal);
        const records: HostRecord[] = expected.flatMap((observation) =>
          observation.ok && observation.host !== "i-030791dc5a37cd257"
            ? [
                {
                  name: observation.host,
                  source: "prometheus" as const,
                  firstSeenMs: 0,
                  gpus: observation.gpus.map((gpu) => ({
                    ...gpu,
                    memTotalMiB: gpu.memTotalMiB ?? 1,
                    firstSeenMs: 0,
                  })),
                },
              ]
            : [],
        );
        const recalled = source();
        recalled.recall!(records, Date.now());
        const first = await recalled.poll(new AbortController().signal);
        assert.equal(
          recalled.lastQueryCount,
          backend === "prometheus" ? 12 : 13,
          "FB_FREE, FB_RESERVED and GPU_TEMP left out; GR_ENGINE_ACTIVE kept (a MIG slot)",
        );
        assert.deepEqual(
          first.flatMap((o) => (o.ok ? o.gpus.map((gpu) => gpu.tempC) : [])).filter((temp) => temp !== null),
          [],
          "the temperature is read every 10 minutes, with the totals: none at this poll",
        );
        const totals = (observations: HostObservation[]) =>
          observations.flatMap((o) =>
            o.ok ? o.gpus.map((gpu) => [o.host, gpu.index, gpu.memTotalMiB]) : [],
          );
        assert.deepEqual(
          totals(first),
          totals(expected).map(([host, index, total]) =>
            host === "i-030791dc5a37cd257" ? [host, index, null] : [host, index, total ?? 1],
          ),
          "the store's totals; a GPU it did not know has none yet",
        );
        const readings = (observations: HostObservation[]) =>
          observations.map((o) =>
            o.ok ? o.gpus.map((gpu) => [gpu.uuid, gpu.utilPct, gpu.memUsedMiB, gpu.powerW]) : o.host,
          );
        assert.deepEqual(readings(first), readings(expected));
        const second = await recalled.poll(new AbortController().signal);
        assert.equal(
          recalled.lastQueryCount,
          13,
          "the unknown total read at the next poll (FB_FREE, FB_RESERVED); no GPU_TEMP, no flags now; no heartbeat (Prometheus: lookback 5m = stale_after; VictoriaMetrics: max_lookback)",
        );
        assert.deepEqual(
          totals(second).find(([host]) => host === "i-030791dc5a37cd257"),
          ["i-030791dc5a37cd257", 0, 22563 + 470],
        );
      });

      test("a host whose exporter stops serving is stale on the next cycle (Prometheus marks its series stale), never idle", async () => {
        const seenAt = Date.now();
        live.l4 = false;
        await prom.waitFor('absent(DCGM_FI_DEV_GPU_TEMP{Hostname="i-030791dc5a37cd257"})');
        const removedAt = Date.now();
        const observations = await shared.poll(new AbortController().signal);
        const l4 = byHost(observations).get("i-030791dc5a37cd257")!;
        assert.ok(!l4.ok);
        assert.equal(l4.cause, "stale");
        const acceptable = [seenAt - 31_000, seenAt, removedAt].map(
          (ms) => `no data from i-030791dc5a37cd257 since ${since(ms, l4.atMs)}`,
        );
        assert.ok(acceptable.includes(l4.message), `${l4.message} in ${acceptable.join(" | ")}`);
        assert.deepEqual(
          observations.map((observation) => [observation.host, observation.ok]),
          [
            ["cp-bm14r7", false],
            ["gpu-node-1", true],
            ["i-030791dc5a37cd257", false],
            ["ub20-a100-k8s", true],
          ],
        );
        assert.equal(okHost(observations, "gpu-node-1").gpus.length, 8);
        assert.equal(
          shared.lastQueryCount,
          11,
          "util, fbUsed, power, grActive (a MIG GPU lacks util), seen, 5 node/k8s, last-seen; no temp (every 10 minutes), no heartbeat (Prometheus: lookback 5m = stale_after; VictoriaMetrics: max_lookback), memory totals known",
        );
        assert.deepEqual(
          okHost(observations, "ub20-a100-k8s").gpus.map((gpu) => [slotLabel(gpu.index), gpu.utilPct]),
          [["0.13", 99.57]],
        );
      });

      test("the server stopped: every known host unknown, one clear log line per cycle", async () => {
        await prom.stopServer();
        logs.lines.length = 0;
        const first = await shared.poll(new AbortController().signal);
        const port = new URL(prom.url).port;
        const detail = `Prometheus at ${prom.url} is unreachable: connection refused (connect ECONNREFUSED 127.0.0.1:${port})`;
        assert.deepEqual(
          first.map((observation) =>
            observation.ok ? observation.host : [observation.host, observation.cause, observation.message],
          ),
          ["cp-bm14r7", "gpu-node-1", "i-030791dc5a37cd257", "ub20-a100-k8s"].map((host) => [
            host,
            "unreachable",
            `no data from ${host}: ${detail}`,
          ]),
        );
        assert.equal(logs.lines.length, 1);
        assert.equal(logs.lines[0]!.level, 50);
        assert.equal(logs.lines[0]!.msg, `Prometheus poll failed, 4 host(s) unknown: ${detail}`);
        await shared.poll(new AbortController().signal);
        assert.equal(logs.lines.length, 2);
        assert.deepEqual(shared.hosts, ["cp-bm14r7", "gpu-node-1", "i-030791dc5a37cd257", "ub20-a100-k8s"]);
      });
    });
  });

describe("prometheus source against a stub answering with the aicr 2-node capture, then errors", () => {
  let server: Server;
  let url = "";
  let mode: "ok" | "node-1-only" | "422" | "503-html" | "hang" = "ok";
  const fixtureJson = (name: string) => readFixture(`prometheus-api/${name}`);
  const answer = (name: string) => {
    const body = JSON.parse(fixtureJson(name)) as {
      data: { result: { metric: { Hostname?: string; gpu?: string }; value: [number, string] }[] };
    };
    if (mode === "node-1-only") {
      body.data.result = body.data.result.filter(
        (series) => series.metric.Hostname === "gpu-node-1" && series.metric.gpu !== "7",
      );
    }
    for (const series of body.data.result) {
      if (name.includes("GPU_UTIL") && series.metric.Hostname === "gpu-node-2" && series.metric.gpu === "3") {
        series.value[1] = "9223372036854775794";
      }
    }
    return JSON.stringify(body);
  };
  before(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on("end", () => {
        const form = new URLSearchParams(body);
        const query = form.get("query") ?? "";
        if (mode === "hang") return;
        if (req.url === "/api/v1/status/flags") {
          res.writeHead(404, { "content-type": "text/plain" }).end("404 page not found\n");
          return;
        }
        if (mode === "422") {
          res
            .writeHead(422, { "content-type": "application/json" })
            .end(fixtureJson("error-422-execution-duplicate-series__gmp__opencost-docs.json"));
          return;
        }
        if (mode === "503-html") {
          res
            .writeHead(503, { "content-type": "text/html" })
            .end("<html><head><title>503 Service Unavailable</title></head></html>");
          return;
        }
        res.writeHead(200, { "content-type": "application/json" });
        const field = /\((DCGM_FI_DEV_(?:GPU_UTIL|FB_USED|POWER_USAGE))\)$/.exec(query)?.[1];
        if (field) {
          res.end(answer(`query-vector__${field}__16xH100-2nodes__aicr.json`));
        } else if (req.url === "/api/v1/series" && form.get("match[]") === 'DCGM_FI_DEV_FB_USED{gpu="0"}') {
          const vector = JSON.parse(
            answer("query-vector__DCGM_FI_DEV_FB_USED__16xH100-2nodes__aicr.json"),
          ) as {
            data: { result: { metric: Record<string, string> }[] };
          };
          res.end(
            JSON.stringify({ status: "success", data: vector.data.result.map((series) => series.metric) }),
          );
        } else if (query.includes("node_load1")) {
          const series = [
            { metric: { instance: "gpu-node-1.lab.example.com:9100" }, value: [1773114089.444, "3.5"] },
          ];
          res.end(JSON.stringify({ status: "success", data: { resultType: "vector", result: series } }));
        } else {
          res.end(fixtureJson("query-vector-empty-result__cncf-kops.json"));
        }
      });
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(() => {
    server.closeAllConnections();
    server.close();
  });

  test("the exporter's own pod is not a workload; 422, 503 HTML and a hang fail every host once per cycle", async () => {
    const logs = captureLogs();
    const clock = new ManualClock(1773114089444);
    const source = createPrometheusSource(config(url, { timeout_seconds: 0.5 }), {
      clock,
      logger: logs.logger,
    });
    const observations = await source.poll(new AbortController().signal);
    assert.deepEqual(
      observations.map((observation) => observation.host),
      ["gpu-node-1", "gpu-node-2"],
    );
    const node1 = okHost(observations, "gpu-node-1");
    const node2 = okHost(observations, "gpu-node-2");
    assert.deepEqual(
      node1.gpus.map((gpu) => [
        gpu.index,
        gpu.utilPct,
        gpu.memUsedMiB,
        gpu.powerW,
        gpu.processes.map((p) => p.name),
      ]),
      [
        [0, 0, 74166, 113.611, ["vllm-agg-0-vllmdecodeworker-s65j5/main"]],
        [1, 0, 0, 68.347, []],
        [2, 0, 0, 65.709, []],
        [3, 0, 0, 67.316, []],
        [4, 0, 0, 68.717, []],
        [5, 0, 0, 65.742, []],
        [6, 0, 0, 67.328, []],
        [7, 0, 0, 66.997, []],
      ],
    );
    assert.deepEqual(
      node2.gpus.map((gpu) => gpu.powerW),
      [69.339, 68.754, 68.61, 66.499, 67.645, 66.68, 68.395, 69.523],
    );
    assert.deepEqual(
      node2.gpus.map((gpu) => gpu.utilPct),
      [0, 0, 0, null, 0, 0, 0, 0],
      "a DCGM blank sentinel is no reading, never 0",
    );
    assert.ok(
      node2.gpus.every((gpu) => gpu.processes.length === 0 && gpu.tempC === null && gpu.memTotalMiB === null),
    );
    assert.equal(node1.cpuLoad1, 3.5, "node_exporter's FQDN instance matches the short Hostname");
    assert.equal(node2.cpuLoad1, null);
    assert.equal(source.lastQueryCount, 16, "no flags endpoint here (nor /flags): the heartbeat stays");

    mode = "node-1-only";
    clock.advance(2 * MINUTE_MS);
    const partial = await source.poll(new AbortController().signal);
    assert.deepEqual(
      partial.map((observation) => [observation.host, observation.ok]),
      [
        ["gpu-node-1", true],
        ["gpu-node-2", false],
      ],
    );
    const node1Later = okHost(partial, "gpu-node-1");
    assert.equal(node1Later.gpus.length, 8, "a GPU that drops out of a live host stays, without readings");
    assert.deepEqual(node1Later.gpus[7], {
      index: 7,
      uuid: "GPU-04d228d3-3b5a-3534-f5cf-969706647d56",
      model: "NVIDIA H100 80GB HBM3",
      utilPct: null,
      memUsedMiB: null,
      memTotalMiB: null,
      powerW: null,
      tempC: null,
      mig: false,
      processes: [],
    } satisfies GpuReading);
    assert.equal(node1Later.gpus[6]!.powerW, 67.328);
    assert.deepEqual(byHost(partial).get("gpu-node-2"), {
      host: "gpu-node-2",
      source: "prometheus",
      atMs: 1773114089444 + 2 * MINUTE_MS,
      ok: false,
      cause: "stale",
      message: `no data from gpu-node-2 since ${since(1773114089444, 1773114089444)}`,
      lastSampleAtMs: 1773114089444,
    });

    const cases = [
      {
        mode: "422",
        cause: "http-error",
        detail: `Prometheus at ${url} answered HTTP 422 (execution): found duplicate series for the match group`,
      },
      {
        mode: "503-html",
        cause: "http-error",
        detail: `Prometheus at ${url} answered HTTP 503 with an HTML page ("503 Service Unavailable"), not the query API's JSON; check the URL or the proxy in front of it`,
      },
      { mode: "hang", cause: "timeout", detail: `Prometheus at ${url} did not answer within 0.5 s` },
    ] as const;
    for (const expected of cases) {
      mode = expected.mode;
      logs.lines.length = 0;
      const failedObservations = await source.poll(new AbortController().signal);
      assert.deepEqual(
        failedObservations.map((observation) => [
          observation.host,
          observation.ok,
          !observation.ok && observation.cause,
        ]),
        [
          ["gpu-node-1", false, expected.cause],
          ["gpu-node-2", false, expected.cause],
        ],
      );
      for (const observation of failedObservations) {
        assert.ok(!observation.ok);
        assert.ok(
          observation.message.startsWith(`no data from ${observation.host}: ${expected.detail}`),
          observation.message,
        );
      }
      assert.equal(logs.lines.length, 1, `one log line for ${expected.mode}`);
      assert.ok(
        logs.lines[0]!.msg.startsWith(`Prometheus poll failed, 2 host(s) unknown: ${expected.detail}`),
      );
    }
  });
});

test("parseDurationMs reads Prometheus durations", () => {
  assert.equal(parseDurationMs("5m"), 300_000);
  assert.equal(parseDurationMs("1h30m"), 5_400_000);
  assert.equal(parseDurationMs("90s"), 90_000);
  assert.equal(parseDurationMs("250ms"), 250);
  assert.equal(parseDurationMs("5 minutes"), null);
  assert.equal(parseDurationMs(""), null);
});

test("hostFromLabel strips a scrape port", () => {
  assert.equal(hostFromLabel("gpu-a:9100"), "gpu-a");
  assert.equal(hostFromLabel("10.0.172.246:9400"), "10.0.172.246");
  assert.equal(hostFromLabel("[::1]:9100"), "::1");
  assert.equal(hostFromLabel("gpu-node-1"), "gpu-node-1");
});
