import type { SourceConfig } from "../config/schema.ts";
import type {
  ContainerUsage,
  FailureCause,
  GpuProcess,
  GpuReading,
  HostObservation,
  HostReadings,
} from "../domain/observation.ts";
import { failed } from "../domain/observation.ts";
import type { HistoryRequest, HistorySource, HostUtilHistory } from "../domain/source.ts";
import { SOME_GPU_SILENT } from "../domain/source.ts";
import type { Clock } from "../shared/clock.ts";
import { migModel, migParts, migSlot, physicalGpu } from "../shared/gpu-slot.ts";
import type { Logger } from "../shared/logger.ts";
import { dayjs } from "../shared/time.ts";
import { isDcgmBlank } from "./prom-value.ts";
import {
  createPrometheusClient,
  type PrometheusClient,
  PrometheusError,
  type PromRangeSeries,
  type PromVectorSample,
} from "./prometheus-api.ts";

export type PrometheusSourceConfig = Extract<SourceConfig, { kind: "prometheus" }>;

export interface PrometheusSourceDeps {
  /** Queries are evaluated at `clock.now()`; observations carry that instant. */
  clock: Clock;
  logger: Logger;
  fetch?: typeof fetch;
}

/** A `Source` over the Prometheus query API, with the server's history. */
export interface PrometheusSource extends HistorySource {
  readonly kind: "prometheus";
  /** Hosts reported by the last successful cycle (ok or stale), within `forget_after_hours`. */
  readonly hosts: readonly string[];
  /** Queries sent during the last poll. */
  readonly lastQueryCount: number;
}

/** dcgm-exporter fields read per GPU. */
export const DCGM_METRICS = {
  util: "DCGM_FI_DEV_GPU_UTIL",
  fbUsed: "DCGM_FI_DEV_FB_USED",
  fbFree: "DCGM_FI_DEV_FB_FREE",
  fbReserved: "DCGM_FI_DEV_FB_RESERVED",
  power: "DCGM_FI_DEV_POWER_USAGE",
  temp: "DCGM_FI_DEV_GPU_TEMP",
  grActive: "DCGM_FI_PROF_GR_ENGINE_ACTIVE",
} as const;

export type DcgmField = keyof typeof DCGM_METRICS;
const DCGM_FIELDS = Object.keys(DCGM_METRICS) as DcgmField[];

/** The fleet-wide PromQL queries of one cycle (none is per host). */
export interface PrometheusQueries {
  /**
   * Per DCGM field, the current sample of every GPU (an instant selector: within the server's lookback
   * delta, and gone as soon as Prometheus marks the series stale). UUID, model and the Kubernetes
   * workload come from `fbUsed` alone, to keep the other answers small.
   * NOTE: one query per field, not one `{__name__=~"…"}` selector: in Prometheus 2.42 the regex selector
   * over 56,000 series cost about twice the seven single-name queries, which also run in parallel; and
   * an instant selector cost half of `last_over_time(…[5m])`.
   */
  fields: Record<DcgmField, string>;
  /**
   * Sample time of each GPU's FB_USED, its heartbeat: all fields of a GPU come from the same scrape, so a
   * GPU whose FB_USED is older than `stale_after_seconds` has no reading at all.
   */
  heartbeat: string;
  /**
   * Selector for `/api/v1/series` over the last `forget_after_hours`: the hosts that reported then (GPU 0
   * stands for its host: one series per host); one of them without a current sample is stale.
   * NOTE: the series API answers from the index and chunk time ranges; `last_over_time(…[3h])` decoded
   * every sample of 3 h. `/api/v1/label/…/values` would be smaller but answers per block, and a compacted
   * block spans days. VictoriaMetrics keeps a per-day index, so there a host silent for most of a day may
   * still be listed.
   */
  seen: { selector: string; windowMs: number };
  load1: string;
  cpuBusyPct: string;
  requests: string;
  podNodes: string;
  containerCpu: string;
  /** The last sample time of the given raw host-label values (run only when some host is stale). */
  lastSeen(rawHostValues: readonly string[]): string;
  /**
   * For a range query: utilisation % per GPU slot, GPU_UTIL or GR_ENGINE_ACTIVE × 100 for a slot without
   * it (MIG), as an instant query sees it at each step.
   * NOTE: utilisation alone: a range query returns every step of every GPU, and memory and power would
   * triple what a start reads (8,000 GPUs × 90 steps is 26 MB of JSON per field) for no decision.
   */
  historyInstant: string;
  /**
   * For a range query, per host: the highest utilisation % of any of its GPU slots within each step
   * (`max_over_time` over the step), and how many slots had a sample in it.
   * NOTE: per host, not per GPU: a week at 5-minute steps is 2,016 points a series, and 8,000 GPU series
   * would be 16 M points (about 300 MB of JSON) where 1,000 host series are 2 M. No `max by` per slot
   * first: Prometheus holds each stage's whole matrix, and that stage doubled the time of a week.
   */
  historyMax(stepSeconds: number): { highest: string; slots: string };
}

export function prometheusQueries(config: PrometheusSourceConfig): PrometheusQueries {
  const host = config.host_label;
  const nodeHost = config.node_host_label;
  const staleS = config.stale_after_seconds;
  const forgetS = Math.round(config.forget_after_hours * 3600);
  const rateS = config.rate_window_seconds;
  const gpuBy = unique([host, "gpu", "GPU_I_ID", "GPU_I_PROFILE"]).join(", ");
  const workloadBy = unique([
    host,
    "gpu",
    "GPU_I_ID",
    "GPU_I_PROFILE",
    "UUID",
    "modelName",
    "pod",
    "namespace",
    "container",
    "exported_pod",
    "exported_namespace",
    "exported_container",
  ]).join(", ");
  return {
    fields: Object.fromEntries(
      DCGM_FIELDS.map((field) => [
        field,
        `max by (${field === "fbUsed" ? workloadBy : gpuBy}) (${DCGM_METRICS[field]})`,
      ]),
    ) as Record<DcgmField, string>,
    heartbeat: `max by (${gpuBy}) (timestamp(${DCGM_METRICS.fbUsed}))`,
    seen: { selector: `${DCGM_METRICS.fbUsed}{gpu="0"}`, windowMs: forgetS * 1000 },
    load1: `max by (${nodeHost}) (last_over_time(node_load1[${staleS}s]))`,
    cpuBusyPct: `100 * (1 - avg by (${nodeHost}) (rate(node_cpu_seconds_total{mode="idle"}[${rateS}s])))`,
    requests:
      `max by (namespace, pod, container, node, resource) (kube_pod_container_resource_requests{resource=~"cpu|nvidia_com_gpu"}` +
      ` unless on (namespace, pod) (kube_pod_status_phase{phase=~"Succeeded|Failed"} == 1))`,
    podNodes: "max by (namespace, pod, node) (kube_pod_info)",
    containerCpu: `sum by (namespace, pod, container) (rate(container_cpu_usage_seconds_total{container!="", container!="POD", pod!=""}[${rateS}s]))`,
    historyInstant:
      `max by (${gpuBy}) (${DCGM_METRICS.util})` + ` or 100 * max by (${gpuBy}) (${DCGM_METRICS.grActive})`,
    historyMax: (stepSeconds) => {
      const over = (metric: string) => `max_over_time(${metric}[${stepSeconds}s])`;
      const perSlot = `${over(DCGM_METRICS.util)} or 100 * ${over(DCGM_METRICS.grActive)}`;
      return { highest: `max by (${host}) (${perSlot})`, slots: `count by (${host}) (${perSlot})` };
    },
    lastSeen: (rawHostValues) => {
      const regex = rawHostValues.map(escapeRegex).join("|");
      return `max by (${host}) (max_over_time(timestamp(${DCGM_METRICS.fbUsed}{${host}=~${promString(regex)}})[${forgetS}s:30s]))`;
    },
  };
}

/**
 * The Prometheus source: a fixed set of fleet-wide queries per cycle, never one per host. Steady state:
 * GPU_UTIL, FB_USED, POWER_USAGE, GPU_TEMP, the hosts seen within `forget_after_hours`, node_exporter
 * load and CPU, and (with `containers`) kube-state-metrics requests and pod nodes and cAdvisor CPU: 10
 * queries, 7 without containers. Every 10 minutes, and while some GPU needs them, FB_FREE, FB_RESERVED
 * and GR_ENGINE_ACTIVE too; the FB_USED heartbeat while `stale_after_seconds` is shorter than the
 * server's lookback delta (or that is unknown); the server's flags once; the last-seen time of stale
 * hosts when there are some.
 * A host that reported within `forget_after_hours` but has no fresh sample is a failed observation with
 * cause `stale`; a server that cannot answer makes every known host fail, with one log line per cycle.
 */
export function createPrometheusSource(
  config: PrometheusSourceConfig,
  deps: PrometheusSourceDeps,
): PrometheusSource {
  const s = createPromState(config, deps);
  return {
    kind: "prometheus",
    get hosts() {
      return [...s.known.keys()].sort();
    },
    get lastQueryCount() {
      return s.lastQueryCount;
    },
    get lastHistoryQueryCount() {
      return s.lastHistoryQueryCount;
    },
    historyLookbackMs: s.config.history_days * 86_400_000,
    poll: (signal) => poll(s, signal),
    history: (request, signal) => history(s, request, signal),
    busiestHistory: (request, signal) => busiestHistory(s, request, signal),
  };
}

/** What one Prometheus source keeps between calls: its clients and queries, and what it has seen. */
interface PromState {
  config: PrometheusSourceConfig;
  clock: Clock;
  logger: Logger;
  client: PrometheusClient;
  queries: ReturnType<typeof prometheusQueries>;
  historyClient: PrometheusClient;
  lastHistoryQueryCount: number;
  /** GPU slots in the latest poll or history read: sizes the look-back's chunks. */
  slotsSeen: number;
  forgetMs: number;
  /** Host → time of the last cycle that reported it (ok or stale). */
  known: Map<string, number>;
  /** Host → time of the last cycle that had fresh data from it. */
  lastFresh: Map<string, number>;
  /** Host → GPU index → the GPU as last seen: one that drops out of a live host comes back without readings. */
  knownGpus: Map<string, Map<number, KnownGpu>>;
  lastQueryCount: number;
  /** When FB_FREE, FB_RESERVED and GR_ENGINE_ACTIVE were last read for every GPU. */
  lastFullReadMs: number;
  /** Some current GPU has no known memory total yet, or no GPU_UTIL: read those fields next cycle too. */
  missingTotal: boolean;
  missingUtil: boolean;
  /** The server's lookback delta: `undefined` until read, `null` where the server does not say. */
  lookbackMs: number | null | undefined;
}

function createPromState(config: PrometheusSourceConfig, deps: PrometheusSourceDeps): PromState {
  const clientOf = (timeoutMs: number) =>
    createPrometheusClient({ url: config.url, timeoutMs, ...(deps.fetch ? { fetch: deps.fetch } : {}) });
  return {
    config,
    clock: deps.clock,
    logger: deps.logger,
    client: clientOf(config.timeout_seconds * 1000),
    queries: prometheusQueries(config),
    historyClient: clientOf(Math.max(config.timeout_seconds * 1000, HISTORY_TIMEOUT_MS)),
    lastHistoryQueryCount: 0,
    slotsSeen: 0,
    forgetMs: config.forget_after_hours * 3600 * 1000,
    known: new Map(),
    lastFresh: new Map(),
    knownGpus: new Map(),
    lastQueryCount: 0,
    lastFullReadMs: Number.NEGATIVE_INFINITY,
    missingTotal: false,
    missingUtil: false,
    lookbackMs: undefined,
  };
}

async function poll(s: PromState, signal: AbortSignal): Promise<HostObservation[]> {
  const atMs = s.clock.now();
  let count = 0;
  const run = (promql: string) => {
    count++;
    return s.client.queryVector(promql, { atMs, signal });
  };
  try {
    // NOTE: instant selectors already drop samples older than the server's lookback delta (5 min by
    // default); the heartbeat query is needed only when stale_after_seconds is shorter than that.
    const needHeartbeat = s.lookbackMs == null || s.lookbackMs > s.config.stale_after_seconds * 1000;
    const lookbackRead =
      s.lookbackMs === undefined ? readLookback(s, signal, () => count++) : Promise.resolve();
    // NOTE: a card's memory total (used + free + reserved) does not change, and GR_ENGINE_ACTIVE only
    // stands in for a missing GPU_UTIL (MIG): both are read every 10 minutes, or while some GPU needs them.
    const fullRead = atMs - s.lastFullReadMs >= FULL_READ_EVERY_MS;
    const wanted = DCGM_FIELDS.filter((field) => {
      if (field === "fbFree" || field === "fbReserved") return fullRead || s.missingTotal;
      if (field === "grActive") return fullRead || s.missingUtil;
      return true;
    });
    const fieldResults = Promise.allSettled([
      ...wanted.map((field) => run(s.queries.fields[field])),
      needHeartbeat ? run(s.queries.heartbeat) : Promise.resolve([]),
    ]);
    count++;
    const seenSeries = s.client.series(
      s.queries.seen.selector,
      { startMs: atMs - s.queries.seen.windowMs, endMs: atMs },
      { signal },
    );
    const [seen, load1, busy, requests, podNodes, containerCpu] = await Promise.allSettled([
      seenSeries,
      run(s.queries.load1),
      run(s.queries.cpuBusyPct),
      s.config.containers ? run(s.queries.requests) : Promise.resolve([]),
      s.config.containers ? run(s.queries.podNodes) : Promise.resolve([]),
      s.config.containers ? run(s.queries.containerCpu) : Promise.resolve([]),
    ]);
    const fields = await fieldResults;
    await lookbackRead;
    const failedField = fields.find((result) => result.status === "rejected");
    if (failedField?.status === "rejected") return failAll(s, atMs, failedField.reason);
    if (seen.status === "rejected") return failAll(s, atMs, seen.reason);
    const current = new Map(wanted.map((field, i) => [field, valuesOf(fields[i]!)]));
    const heartbeat = valuesOf(fields[wanted.length]!);
    const optional: { what: string; result: PromiseSettledResult<PromVectorSample[]> }[] = [
      { what: "node_load1", result: load1 },
      { what: "node_cpu_seconds_total", result: busy },
      { what: "kube_pod_container_resource_requests", result: requests },
      { what: "kube_pod_info", result: podNodes },
      { what: "container_cpu_usage_seconds_total", result: containerCpu },
    ];
    const problems = optional.flatMap(({ what, result }) =>
      result.status === "rejected" ? [{ what, err: errorMessage(result.reason) }] : [],
    );
    if (problems.length > 0) {
      s.logger.warn(
        { source: "prometheus", url: s.client.displayUrl, failed: problems },
        "some Prometheus s.queries failed; those readings are unknown",
      );
    }
    const fleet = readGpus(current, heartbeat, seen.value, {
      hostLabel: s.config.host_label,
      oldestMs: atMs - s.config.stale_after_seconds * 1000,
    });
    if (fleet.unlabelled > 0 && fleet.hosts.size === 0 && fleet.stale.size === 0) {
      s.logger.warn(
        { source: "prometheus", host_label: s.config.host_label, series: fleet.unlabelled },
        `dcgm-exporter series carry no "${s.config.host_label}" label; set host_label to the label that names the host`,
      );
    }
    recallGpus(s, fleet, atMs, current.has("fbFree"));
    if (fullRead) s.lastFullReadMs = atMs;
    for (const [host, lastMs] of s.lastFresh) {
      if (atMs - lastMs <= s.forgetMs && !fleet.hosts.has(host) && !fleet.stale.has(host)) {
        fleet.stale.set(host, new Set());
      }
    }
    const since = await lastSeenTimes(s, fleet.stale, atMs, signal, () => count++);
    const observations = assemble(s, fleet, since, {
      atMs,
      load1: valuesOf(load1),
      busy: valuesOf(busy),
      requests: valuesOf(requests),
      podNodes: valuesOf(podNodes),
      containerCpu: valuesOf(containerCpu),
    });
    remember(s, observations, atMs);
    s.slotsSeen = observations.reduce(
      (sum, observation) => sum + (observation.ok ? observation.gpus.length : 0),
      0,
    );
    return observations;
  } finally {
    s.lastQueryCount = count;
  }
}

/**
 * Completes this cycle's GPUs from what earlier cycles saw (UUID, model, memory total) and remembers
 * them; a GPU that dropped out of a live host comes back without readings.
 */
function recallGpus(s: PromState, fleet: GpuFleet, atMs: number, totalsRead: boolean): void {
  for (const [host, remembered] of s.knownGpus) {
    for (const [index, memory] of remembered) if (atMs - memory.lastMs > s.forgetMs) remembered.delete(index);
    if (remembered.size === 0) s.knownGpus.delete(host);
  }
  s.missingTotal = false;
  s.missingUtil = false;
  for (const [host, gpus] of fleet.hosts) {
    const remembered = s.knownGpus.get(host) ?? new Map<number, KnownGpu>();
    s.knownGpus.set(host, remembered);
    for (const gpu of gpus.values()) {
      const before = remembered.get(gpu.index);
      const memory = before && (gpu.uuid === null || gpu.uuid === before.uuid) ? before : undefined;
      gpu.uuid ??= memory?.uuid ?? null;
      gpu.model ??= memory?.model ?? null;
      const total = totalsRead ? memoryTotalMiB(gpu) : (memory?.totalMiB ?? null);
      const totalKnown = totalsRead || (memory?.totalKnown ?? false);
      gpu.totalMiB = total;
      remembered.set(gpu.index, {
        uuid: gpu.uuid,
        model: gpu.model,
        lastMs: atMs,
        totalMiB: total,
        totalKnown,
      });
      s.missingTotal ||= !totalKnown;
      s.missingUtil ||= gpu.fields.util === undefined;
    }
    // NOTE: a GPU switched in or out of MIG mode (or re-partitioned) reports other slots; its old
    // ones are forgotten at once rather than shown without readings.
    const present = new Set([...gpus.keys()].map(physicalGpu));
    for (const [index, memory] of remembered) {
      if (gpus.has(index)) continue;
      if (present.has(physicalGpu(index))) remembered.delete(index);
      else gpus.set(index, emptyGpu(index, memory.uuid, memory.model));
    }
  }
}

async function readLookback(s: PromState, signal: AbortSignal, counted: () => void): Promise<void> {
  counted();
  try {
    const flags = await s.client.flags({ signal });
    s.lookbackMs = parseDurationMs(flags["query.lookback-delta"] ?? "");
  } catch (error) {
    const transient =
      error instanceof PrometheusError && error.kind !== "http" && error.kind !== "bad-response";
    s.lookbackMs = transient ? undefined : null;
    s.logger.debug(
      { source: "prometheus", url: s.client.displayUrl, err: errorMessage(error) },
      "server flags unavailable; checking every sample's age",
    );
  }
}

async function lastSeenTimes(
  s: PromState,
  stale: Map<string, Set<string>>,
  atMs: number,
  signal: AbortSignal,
  counted: () => void,
): Promise<Map<string, number>> {
  const since = new Map<string, number>();
  const raw = [...stale.values()].flatMap((values) => [...values]);
  if (raw.length === 0) return since;
  counted();
  try {
    const series = await s.client.queryVector(s.queries.lastSeen(raw), { atMs, signal });
    for (const sample of series) {
      const value = sample.labels[s.config.host_label];
      if (value === undefined || !Number.isFinite(sample.value)) continue;
      const host = hostFromLabel(value);
      since.set(host, Math.max(since.get(host) ?? 0, Math.round(sample.value * 1000)));
    }
  } catch (error) {
    s.logger.warn(
      { source: "prometheus", url: s.client.displayUrl, err: errorMessage(error) },
      "could not read when stale hosts last reported",
    );
  }
  return since;
}

function assemble(
  s: PromState,
  fleet: GpuFleet,
  since: Map<string, number>,
  data: CycleData,
): HostObservation[] {
  const { atMs } = data;
  const load1 = hostIndex(data.load1, s.config.node_host_label);
  const busy = hostIndex(data.busy, s.config.node_host_label);
  const containers = s.config.containers
    ? containersByNode(data.requests, data.podNodes, data.containerCpu)
    : new HostIndex<ContainerUsage[]>();
  const observations: HostObservation[] = [];
  for (const [host, gpus] of fleet.hosts) {
    const busyPct = busy.get(host);
    observations.push(
      prometheusObservation(host, atMs, gpus, {
        cpuLoad1: load1.get(host) ?? null,
        cpuUtilPct: busyPct === undefined ? null : round(clamp(busyPct, 0, 100), 2),
        containers: containers.get(host) ?? [],
      }),
    );
  }
  for (const host of fleet.stale.keys()) {
    // NOTE: the subquery sees a sample only if one of its 30 s steps fell inside the series' life;
    // a cycle that saw the host fresh is a lower bound too.
    const lastMs = maxDefined(since.get(host), s.lastFresh.get(host));
    const message =
      lastMs === undefined
        ? `no data from ${host} for more than ${formatSeconds(s.config.stale_after_seconds)}`
        : `no data from ${host} since ${formatSince(lastMs, atMs)}`;
    const observation = failed(host, "prometheus", atMs, "stale", message);
    if (lastMs !== undefined && !observation.ok) observation.lastSampleAtMs = lastMs;
    observations.push(observation);
  }
  return observations.sort((a, b) => (a.host < b.host ? -1 : a.host > b.host ? 1 : 0));
}

function failAll(s: PromState, atMs: number, error: unknown): HostObservation[] {
  const cause = causeOf(error);
  const detail = errorMessage(error);
  const hosts = [...s.known].filter(([, lastMs]) => atMs - lastMs <= s.forgetMs).map(([host]) => host);
  s.logger.error(
    { source: "prometheus", url: s.client.displayUrl, cause, hosts: hosts.length, err: detail },
    `Prometheus poll failed, ${hosts.length} host(s) unknown: ${detail}`,
  );
  return hosts
    .sort()
    .map((host) => failed(host, "prometheus", atMs, cause, `no data from ${host}: ${detail}`));
}

function remember(s: PromState, observations: HostObservation[], atMs: number): void {
  for (const observation of observations) {
    s.known.set(observation.host, atMs);
    if (observation.ok) s.lastFresh.set(observation.host, atMs);
  }
  for (const [host, lastMs] of s.known) if (atMs - lastMs > s.forgetMs) s.known.delete(host);
  for (const [host, lastMs] of s.lastFresh) if (atMs - lastMs > s.forgetMs) s.lastFresh.delete(host);
}

/** Range-query answers' series; throws on anything but a matrix. */
async function readRange(
  s: PromState,
  promql: string,
  chunk: { startMs: number; endMs: number },
  stepSeconds: number,
  signal: AbortSignal,
): Promise<PromRangeSeries[]> {
  const answer = await s.historyClient.queryRange(promql, { ...chunk, stepSeconds }, { signal });
  if (answer.data.resultType !== "matrix") {
    throw new PrometheusError(
      "bad-response",
      `${s.historyClient.displayUrl}: expected a matrix, got a ${answer.data.resultType}`,
      null,
      null,
    );
  }
  return answer.data.series;
}

/**
 * Utilisation per GPU slot as polls would have seen it, one range query per 10,000 steps; without the
 * heartbeat check, memory, power, processes or CPU.
 */
async function history(
  s: PromState,
  request: HistoryRequest,
  signal: AbortSignal,
): Promise<HostObservation[]> {
  const stepSeconds = Math.max(1, Math.round(request.stepMs / 1000));
  const chunks = rangeChunks(request.fromMs, request.toMs, stepSeconds * 1000, MAX_STEPS_PER_QUERY);
  s.lastHistoryQueryCount = chunks.length;
  const answers = await Promise.all(
    chunks.map((chunk) => readRange(s, s.queries.historyInstant, chunk, stepSeconds, signal)),
  );
  const observations = historyObservations([{ field: "util", series: answers.flat() }], s.config.host_label);
  const lastAtMs = observations.at(-1)?.atMs;
  s.slotsSeen = observations
    .filter((observation) => observation.atMs === lastAtMs)
    .reduce((sum, observation) => sum + (observation.ok ? observation.gpus.length : 0), 0);
  return observations;
}

/**
 * Each host's busiest GPU per step: two range queries (the highest utilisation and the number of GPU
 * slots with samples, per host) per chunk of steps. Chunks keep about 4 M slot-steps each (the matrix
 * Prometheus holds while it evaluates: a week of 8,000 GPUs is 5 chunks) and are read one after the other.
 */
async function busiestHistory(
  s: PromState,
  request: HistoryRequest,
  signal: AbortSignal,
): Promise<Map<string, HostUtilHistory>> {
  const stepSeconds = Math.max(1, Math.round(request.stepMs / 1000));
  const stepMs = stepSeconds * 1000;
  const steps = Math.floor((request.toMs - request.fromMs) / stepMs) + 1;
  const perChunk =
    s.slotsSeen > 0
      ? Math.max(12, Math.min(MAX_STEPS_PER_QUERY, Math.floor(MAX_SLOT_STEPS_PER_QUERY / s.slotsSeen)))
      : DEFAULT_STEPS_PER_CHUNK;
  const chunks = rangeChunks(request.fromMs, request.toMs, stepMs, perChunk);
  const max = s.queries.historyMax(stepSeconds);
  const grids = new Map<string, { highest: Float64Array; slots: Uint16Array }>();
  const gridOf = (series: PromRangeSeries) => {
    const raw = series.labels[s.config.host_label];
    if (!raw) return null;
    const host = hostFromLabel(raw);
    let grid = grids.get(host);
    if (!grid) {
      grid = { highest: new Float64Array(steps).fill(Number.NaN), slots: new Uint16Array(steps) };
      grids.set(host, grid);
    }
    return grid;
  };
  const stepOf = (atMs: number) => Math.round((atMs - request.fromMs) / stepMs);
  s.lastHistoryQueryCount = 0;
  for (const chunk of chunks) {
    s.lastHistoryQueryCount += 2;
    const [highest, slots] = await Promise.all([
      readRange(s, max.highest, chunk, stepSeconds, signal),
      readRange(s, max.slots, chunk, stepSeconds, signal),
    ]);
    for (const series of highest) {
      const grid = gridOf(series);
      if (grid === null) continue;
      for (const point of series.points) {
        const i = stepOf(point.atMs);
        const before = grid.highest[i]!;
        if (Number.isFinite(point.value))
          grid.highest[i] = Number.isNaN(before) ? point.value : Math.max(before, point.value);
      }
    }
    for (const series of slots) {
      const grid = gridOf(series);
      if (grid === null) continue;
      for (const point of series.points) grid.slots[stepOf(point.atMs)]! += point.value;
    }
  }
  const out = new Map<string, HostUtilHistory>();
  for (const [host, grid] of grids) {
    const most = Math.max(...grid.slots);
    for (let i = 0; i < steps; i++) {
      if (grid.slots[i] === 0) grid.highest[i] = Number.NaN;
      else if (grid.slots[i]! < most || Number.isNaN(grid.highest[i]!)) grid.highest[i] = SOME_GPU_SILENT;
    }
    out.set(host, { fromMs: request.fromMs, stepMs, utilPct: grid.highest });
  }
  return out;
}

/** History reads whole days of the fleet: they get more time than a poll's queries. */
const HISTORY_TIMEOUT_MS = 120_000;
/** Prometheus refuses range queries of more than 11,000 points per series. */
const MAX_STEPS_PER_QUERY = 10_000;
/** GPU slots × steps one look-back query may make Prometheus hold. */
const MAX_SLOT_STEPS_PER_QUERY = 4_000_000;
/** Steps per look-back query before the fleet's size is known (a day of 5-minute steps). */
const DEFAULT_STEPS_PER_CHUNK = 288;

/** `[fromMs, toMs]` cut into ranges of at most `maxSteps` steps on the same grid. */
function rangeChunks(
  fromMs: number,
  toMs: number,
  stepMs: number,
  maxSteps: number,
): { startMs: number; endMs: number }[] {
  const chunks: { startMs: number; endMs: number }[] = [];
  for (let startMs = fromMs; startMs <= toMs; startMs += maxSteps * stepMs) {
    chunks.push({ startMs, endMs: Math.min(toMs, startMs + (maxSteps - 1) * stepMs) });
  }
  return chunks;
}

interface CycleData {
  atMs: number;
  load1: PromVectorSample[];
  busy: PromVectorSample[];
  requests: PromVectorSample[];
  podNodes: PromVectorSample[];
  containerCpu: PromVectorSample[];
}

interface GpuAccumulator {
  index: number;
  uuid: string | null;
  model: string | null;
  fields: Partial<Record<DcgmField, number>>;
  mig: boolean;
  /** A MIG GPU instance's profile (`1g.5gb`); `null` for a whole GPU. */
  profile: string | null;
  workloads: Map<string, Workload>;
  /** Memory total, filled in from this or an earlier cycle. */
  totalMiB: number | null;
}

function emptyGpu(index: number, uuid: string | null, model: string | null): GpuAccumulator {
  return {
    index,
    uuid,
    model,
    fields: {},
    mig: false,
    profile: null,
    workloads: new Map(),
    totalMiB: null,
  };
}

/** A GPU as earlier cycles saw it. */
interface KnownGpu {
  uuid: string | null;
  model: string | null;
  lastMs: number;
  /** used + free + reserved when last read; `null` when the exporter does not give it. */
  totalMiB: number | null;
  /** False until FB_FREE has been read for this GPU. */
  totalKnown: boolean;
}

const FULL_READ_EVERY_MS = 10 * 60_000;

function memoryTotalMiB(gpu: GpuAccumulator): number | null {
  const { fbUsed, fbFree, fbReserved } = gpu.fields;
  return fbUsed !== undefined && fbFree !== undefined ? fbUsed + fbFree + (fbReserved ?? 0) : null;
}

interface GpuFleet {
  /** Fresh hosts → GPU index → accumulator. */
  hosts: Map<string, Map<number, GpuAccumulator>>;
  /**
   * Hosts seen within the forget window but not fresh → their raw host-label values (none for a host
   * known only from an earlier cycle of this process).
   */
  stale: Map<string, Set<string>>;
  /** Fresh series without the host label. */
  unlabelled: number;
}

function readGpus(
  current: Map<DcgmField, PromVectorSample[]>,
  heartbeat: PromVectorSample[],
  seen: Record<string, string>[],
  options: { hostLabel: string; oldestMs: number },
): GpuFleet {
  const { hostLabel, oldestMs } = options;
  const gpuKey = (labels: Record<string, string>) =>
    `${hostFromLabel(labels[hostLabel] ?? "")}\u0000${labels.gpu}`;
  const beatMs = new Map<string, number>();
  for (const sample of heartbeat) {
    const key = gpuKey(sample.labels);
    beatMs.set(key, Math.max(beatMs.get(key) ?? 0, sample.value * 1000));
  }
  const hosts = new Map<string, Map<number, GpuAccumulator>>();
  let unlabelled = 0;
  const gpuOf = (labels: Record<string, string>): GpuAccumulator | null => {
    if (!labels[hostLabel]) {
      unlabelled++;
      return null;
    }
    const slot = slotOf(labels, hostLabel);
    return slot === null ? null : accumulatorIn(hosts, slot);
  };

  for (const [field, samples] of current) {
    for (const sample of samples) {
      const beat = beatMs.get(gpuKey(sample.labels));
      if (beat !== undefined && beat < oldestMs) continue;
      const gpu = gpuOf(sample.labels);
      if (!gpu) continue;
      const value = Number.isFinite(sample.value) && !isDcgmBlank(sample.value) ? sample.value : null;
      const workload = workloadOf(sample.labels);
      if (workload)
        gpu.workloads.set(`${workload.namespace}/${workload.pod}/${workload.container}`, workload);
      if (value !== null) gpu.fields[field] = Math.max(gpu.fields[field] ?? value, value);
    }
  }
  for (const gpus of hosts.values()) splitMigGpus(gpus);

  const stale = new Map<string, Set<string>>();
  for (const labels of seen) {
    const raw = labels[hostLabel];
    if (!raw) continue;
    const host = hostFromLabel(raw);
    if (hosts.has(host)) continue;
    let values = stale.get(host);
    if (!values) {
      values = new Set();
      stale.set(host, values);
    }
    values.add(raw);
  }
  return { hosts, stale, unlabelled };
}

/**
 * A MIG GPU whose instances report is shown as its instances: each is a slot of its own (its own
 * GR_ENGINE_ACTIVE and, where the exporter sends it, memory), and the whole-GPU series (power,
 * temperature, total memory) are not a slot. Instances take the whole GPU's UUID and model.
 */
function splitMigGpus(gpus: Map<number, GpuAccumulator>): void {
  const split = new Set<number>();
  for (const gpu of gpus.values()) {
    const parts = migParts(gpu.index);
    if (parts === null) continue;
    split.add(parts.gpu);
    const whole = gpus.get(parts.gpu);
    if (whole === undefined) continue;
    gpu.uuid ??= whole.uuid;
    gpu.model ??= whole.model;
  }
  for (const index of split) gpus.delete(index);
}

/** Where a dcgm-exporter series belongs: its host and GPU slot, with what its labels say about the GPU. */
interface SeriesSlot {
  host: string;
  slot: number;
  uuid: string | null;
  model: string | null;
  /** The MIG profile of a GPU-instance series; `null` for a whole GPU. */
  profile: string | null;
  instance: boolean;
}

function slotOf(labels: Record<string, string>, hostLabel: string): SeriesSlot | null {
  const raw = labels[hostLabel];
  const index = Number(labels.gpu);
  if (!raw || labels.gpu === undefined || labels.gpu === "" || !Number.isInteger(index)) return null;
  const instance = labels.GPU_I_ID;
  const isInstance = instance !== undefined && instance !== "";
  const slot = isInstance ? migSlot(index, Number(instance)) : index;
  if (slot === null) return null;
  return {
    host: hostFromLabel(raw),
    slot,
    uuid: labels.UUID || null,
    model: labels.modelName || null,
    profile: isInstance ? labels.GPU_I_PROFILE || null : null,
    instance: isInstance,
  };
}

/** The accumulator of a series' slot in `hosts`, made on first use. */
function accumulatorIn(hosts: Map<string, Map<number, GpuAccumulator>>, where: SeriesSlot): GpuAccumulator {
  let gpus = hosts.get(where.host);
  if (!gpus) {
    gpus = new Map();
    hosts.set(where.host, gpus);
  }
  let gpu = gpus.get(where.slot);
  if (!gpu) {
    gpu = emptyGpu(where.slot, null, null);
    gpus.set(where.slot, gpu);
  }
  gpu.uuid ??= where.uuid;
  gpu.model ??= where.model;
  if (where.instance) {
    gpu.mig = true;
    gpu.profile ??= where.profile;
  }
  return gpu;
}

/**
 * Range-query answers as one observation per host and step, oldest first. Series-major: each series'
 * labels are read once, however many steps it has.
 */
function historyObservations(
  answers: readonly { field: DcgmField; series: readonly PromRangeSeries[] }[],
  hostLabel: string,
): HostObservation[] {
  const steps = new Map<number, Map<string, Map<number, GpuAccumulator>>>();
  for (const { field, series: list } of answers) {
    for (const series of list) {
      const where = slotOf(series.labels, hostLabel);
      if (where === null) continue;
      for (const point of series.points) {
        let hosts = steps.get(point.atMs);
        if (!hosts) {
          hosts = new Map();
          steps.set(point.atMs, hosts);
        }
        const gpu = accumulatorIn(hosts, where);
        const value = point.value;
        if (Number.isFinite(value) && !isDcgmBlank(value))
          gpu.fields[field] = Math.max(gpu.fields[field] ?? value, value);
      }
    }
  }
  const observations: HostObservation[] = [];
  for (const atMs of [...steps.keys()].sort((a, b) => a - b)) {
    const hosts = steps.get(atMs)!;
    for (const host of [...hosts.keys()].sort()) {
      const gpus = hosts.get(host)!;
      splitMigGpus(gpus);
      observations.push(
        prometheusObservation(host, atMs, gpus, { cpuLoad1: null, cpuUtilPct: null, containers: [] }),
      );
    }
  }
  return observations;
}

/** A host's answered observation from Prometheus: its GPUs by index; no login sessions (unknown). */
function prometheusObservation(
  host: string,
  atMs: number,
  gpus: Map<number, GpuAccumulator>,
  cpu: Pick<HostReadings, "cpuLoad1" | "cpuUtilPct" | "containers">,
): HostObservation {
  return {
    host,
    source: "prometheus",
    atMs,
    ok: true,
    gpus: [...gpus.values()].sort((a, b) => a.index - b.index).map(toReading),
    sessions: null,
    ...cpu,
  };
}

function toReading(gpu: GpuAccumulator): GpuReading {
  const { fields } = gpu;
  const util = fields.util !== undefined && fields.util >= 0 && fields.util <= 100 ? fields.util : null;
  const gr =
    fields.grActive !== undefined && fields.grActive >= 0 && fields.grActive <= 1
      ? round(fields.grActive * 100, 2)
      : null;
  const memUsedMiB = fields.fbUsed ?? null;
  const soleWorkload = gpu.workloads.size === 1 && !gpu.mig;
  const processes: GpuProcess[] = [...gpu.workloads.values()].map((workload) => ({
    pid: null,
    user: null,
    name: workload.container ? `${workload.pod}/${workload.container}` : workload.pod,
    usedMemoryMiB: soleWorkload ? memUsedMiB : null,
    container: workload.container,
    pod: workload.pod,
    namespace: workload.namespace,
    ...(workload.label === null ? {} : { projectLabel: workload.label }),
  }));
  return {
    index: gpu.index,
    uuid: gpu.uuid,
    model: migParts(gpu.index) === null ? gpu.model : migModel(gpu.model, gpu.profile),
    utilPct: util ?? gr,
    memUsedMiB,
    memTotalMiB: gpu.totalMiB,
    powerW: fields.power ?? null,
    tempC: fields.temp ?? null,
    mig: gpu.mig,
    processes,
  };
}

/**
 * The Kubernetes workload a dcgm-exporter series is attributed to, if any.
 * NOTE: without honor_labels, a scrape through a ServiceMonitor stamps the exporter's own pod on every
 * series (`pod="nvidia-dcgm-exporter-…"`) and renames the workload's labels to `exported_*`.
 */
function workloadOf(labels: Record<string, string>): Workload | null {
  const label = labels.exported_project || labels.project || null;
  if (labels.exported_pod) {
    return {
      pod: labels.exported_pod,
      namespace: labels.exported_namespace || null,
      container: labels.exported_container || null,
      label,
    };
  }
  const pod = labels.pod;
  if (!pod || /dcgm-exporter/i.test(pod)) return null;
  return { pod, namespace: labels.namespace || null, container: labels.container || null, label };
}

/** A Kubernetes workload on a GPU; `label`: its `project` label, when the series has one. */
interface Workload {
  pod: string;
  namespace: string | null;
  container: string | null;
  label: string | null;
}

function containersByNode(
  requests: PromVectorSample[],
  podNodes: PromVectorSample[],
  usage: PromVectorSample[],
): HostIndex<ContainerUsage[]> {
  const nodeOfPod = new Map<string, string>();
  for (const { labels } of podNodes) {
    if (labels.namespace && labels.pod && labels.node)
      nodeOfPod.set(`${labels.namespace}/${labels.pod}`, labels.node);
  }
  const rows = new Map<string, { usage: ContainerUsage; node: string | null }>();
  const rowOf = (labels: Record<string, string>) => {
    const { namespace, pod, container } = labels;
    if (!namespace || !pod || !container) return null;
    const key = `${namespace}/${pod}/${container}`;
    let row = rows.get(key);
    if (!row) {
      row = {
        usage: { namespace, pod, container, cpuRequestCores: null, cpuUsageCores: null, gpuRequest: null },
        node: null,
      };
      rows.set(key, row);
    }
    row.node ??= labels.node || nodeOfPod.get(`${namespace}/${pod}`) || null;
    return row;
  };
  for (const sample of requests) {
    const row = rowOf(sample.labels);
    if (!row || !Number.isFinite(sample.value)) continue;
    if (sample.labels.resource === "cpu") row.usage.cpuRequestCores = sample.value;
    else if (sample.labels.resource === "nvidia_com_gpu") row.usage.gpuRequest = sample.value;
  }
  for (const sample of usage) {
    const row = rowOf(sample.labels);
    if (!row || !Number.isFinite(sample.value)) continue;
    row.usage.cpuUsageCores = round(Math.max(0, sample.value), 4);
  }
  const byNode = new HostIndex<ContainerUsage[]>();
  const lists = new Map<string, ContainerUsage[]>();
  for (const { usage: row, node } of rows.values()) {
    if (!node) continue;
    let list = lists.get(node);
    if (!list) {
      list = [];
      lists.set(node, list);
    }
    list.push(row);
  }
  for (const [node, list] of lists) {
    list.sort((a, b) =>
      `${a.namespace}/${a.pod}/${a.container}` < `${b.namespace}/${b.pod}/${b.container}` ? -1 : 1,
    );
    byNode.set(node, list);
  }
  return byNode;
}

/**
 * Host names as keys, matched case-insensitively, falling back to the short name (`gpu-a` for
 * `gpu-a.lab.example.com`) when that is unambiguous: node_exporter's `instance` often carries an FQDN
 * where dcgm-exporter's `Hostname` has the short name.
 */
class HostIndex<T> {
  readonly #full = new Map<string, T>();
  /** Short name → the one full name that has it, or `null` when several do. */
  readonly #short = new Map<string, string | null>();

  set(host: string, value: T): void {
    const full = host.toLowerCase();
    this.#full.set(full, value);
    const short = shortName(full);
    const owner = this.#short.get(short);
    this.#short.set(short, owner === undefined || owner === full ? full : null);
  }

  get(host: string): T | undefined {
    const full = host.toLowerCase();
    const exact = this.#full.get(full);
    if (exact !== undefined) return exact;
    const owner = this.#short.get(shortName(full));
    return owner ? this.#full.get(owner) : undefined;
  }
}

function hostIndex(samples: PromVectorSample[], label: string): HostIndex<number> {
  const index = new HostIndex<number>();
  for (const sample of samples) {
    const raw = sample.labels[label];
    if (raw && Number.isFinite(sample.value)) index.set(hostFromLabel(raw), sample.value);
  }
  return index;
}

/** `gpu-a:9100` → `gpu-a`, `[::1]:9100` → `::1`; anything else unchanged. */
export function hostFromLabel(value: string): string {
  const v6 = /^\[(.+)\]:\d+$/.exec(value);
  if (v6) return v6[1]!;
  const v4 = /^([^:]+):\d+$/.exec(value);
  return v4 ? v4[1]! : value;
}

function shortName(host: string): string {
  if (/^[\d.]+$/.test(host) || host.includes(":")) return host;
  return host.split(".")[0]!;
}

function valuesOf(result: PromiseSettledResult<PromVectorSample[]>): PromVectorSample[] {
  return result.status === "fulfilled" ? result.value : [];
}

function causeOf(error: unknown): FailureCause {
  if (error instanceof PrometheusError) {
    switch (error.kind) {
      case "unreachable":
        return "unreachable";
      case "timeout":
      case "aborted":
        return "timeout";
      case "http":
      case "bad-response":
        return "http-error";
      default:
        return error.kind satisfies never;
    }
  }
  return "error";
}

/** A Prometheus duration such as `5m`, `1h30m` or `90s` in ms; `null` when it is not one. */
export function parseDurationMs(text: string): number | null {
  const units: Record<string, number> = {
    ms: 1,
    s: 1000,
    m: 60_000,
    h: 3_600_000,
    d: 86_400_000,
    w: 604_800_000,
    y: 31_536_000_000,
  };
  if (!/^(\d+(ms|s|m|h|d|w|y))+$/.test(text)) return null;
  let total = 0;
  for (const [, amount, unit] of text.matchAll(/(\d+)(ms|s|m|h|d|w|y)/g))
    total += Number(amount) * units[unit!]!;
  return total;
}

function maxDefined(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  return b === undefined ? a : Math.max(a, b);
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function formatSince(lastMs: number, nowMs: number): string {
  const last = dayjs.utc(lastMs);
  return last.isSame(dayjs.utc(nowMs), "day")
    ? `${last.format("HH:mm")} UTC`
    : `${last.format("YYYY-MM-DD HH:mm")} UTC`;
}

function formatSeconds(seconds: number): string {
  return seconds % 60 === 0 ? `${seconds / 60} min` : `${seconds} s`;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function promString(text: string): string {
  return JSON.stringify(text);
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
