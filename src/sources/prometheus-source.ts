import type { ContainerUsage, HostObservation } from "../domain/observation.ts";
import { failed } from "../domain/observation.ts";
import type { HistorySource } from "../domain/source.ts";
import { dayjs } from "../shared/time.ts";
import type { VectorVisit } from "./prom-query-data.ts";
import { round } from "./prom-value.ts";
import { PrometheusError, type PromVectorSample, type QueryOptions } from "./prometheus-api.ts";
import { createGpuFold } from "./prometheus-gpu-fold.ts";
import { type GpuFleet, prometheusObservation } from "./prometheus-gpus.ts";
import { busiestHistory, history, hostsHistory } from "./prometheus-history.ts";
import { containersByNode, HostIndex, hostFromLabel, hostIndex } from "./prometheus-hosts.ts";
import { DCGM_FIELDS, type PrometheusSourceConfig } from "./prometheus-queries.ts";
import { hostsIn, readingsHistory } from "./prometheus-readings-history.ts";
import {
  createPromState,
  errorMessage,
  failAll,
  type PrometheusSourceDeps,
  type PromState,
  recallGpus,
  recallStored,
  remember,
} from "./prometheus-state.ts";
import { victoriaMaxLookbackSeconds } from "./victoria-lookback.ts";

/** A `Source` over the Prometheus query API, with the server's history. */
export interface PrometheusSource extends HistorySource {
  readonly kind: "prometheus";
  /** Hosts reported by the last successful cycle (ok or stale), within `forget_after_hours`. */
  readonly hosts: readonly string[];
  /** Queries sent during the last poll. */
  readonly lastQueryCount: number;
}

/**
 * The Prometheus source: a fixed set of fleet-wide queries per cycle, never one per host. Steady state:
 * GPU_UTIL, FB_USED, POWER_USAGE, the hosts seen within `forget_after_hours`, node_exporter load and
 * CPU, and (with `containers`) kube-state-metrics requests and pod nodes and cAdvisor CPU: 9 queries, 6
 * without containers. Every 10 minutes GPU_TEMP (a poll without it has no temperature), and then and
 * while some GPU needs them FB_FREE, FB_RESERVED and GR_ENGINE_ACTIVE too; the FB_USED heartbeat while `stale_after_seconds` is shorter than the
 * server's lookback delta (or that is unknown; VictoriaMetrics is told its look-back per query instead,
 * once its `/flags` answered); the server's flags once, before the first poll's other queries; the
 * last-seen time of stale hosts when there are some.
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
    pollDeadlineMs: s.config.timeout_seconds * 1000,
    poll: (signal) => poll(s, signal),
    recall: (hosts, atMs) => recallStored(s, hosts, atMs),
    history: (request, signal) => history(s, request, signal),
    busiestHistory: (request, signal) => busiestHistory(s, request, signal),
    hostsHistory: (hosts, request, signal) => hostsHistory(s, hosts, request, signal),
    hostsIn: (span, signal) => hostsIn(s, span, signal),
    readingsHistory: (hosts, request, signal) => readingsHistory(s, hosts, request, signal),
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
    // NOTE: the flags first (one small answer), so that the first poll too knows whether it needs the heartbeat.
    if (s.lookbackMs === undefined) await readLookback(s, signal, () => count++);
    const { needHeartbeat, fieldOptions } = freshness(s, atMs, signal);
    // NOTE: a card's memory total (used + free + reserved) does not change, and GR_ENGINE_ACTIVE only
    // stands in for a missing GPU_UTIL (MIG): both are read every 10 minutes, or while some GPU needs them.
    // The temperature, which no decision reads, every 10 minutes: an engine's cost is per series read.
    const fullRead = atMs - s.lastFullReadMs >= FULL_READ_EVERY_MS;
    const wanted = DCGM_FIELDS.filter((field) => {
      if (field === "fbFree" || field === "fbReserved") return fullRead || s.missingTotal;
      if (field === "grActive") return fullRead || s.missingUtil;
      if (field === "temp") return fullRead;
      return true;
    });
    const fold = createGpuFold(s.config.host_label);
    const visit = (promql: string, visitor: VectorVisit) => {
      count++;
      return s.client.queryVectorEach(promql, visitor, fieldOptions);
    };
    const fieldResults = Promise.allSettled([
      ...wanted.map((field) => visit(s.queries.fields[field], fold.visitor(field))),
      needHeartbeat ? visit(s.queries.heartbeat, fold.beat) : Promise.resolve(0),
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
    const failedField = fields.find((result) => result.status === "rejected");
    if (failedField?.status === "rejected") return failAll(s, atMs, failedField.reason);
    if (seen.status === "rejected") return failAll(s, atMs, seen.reason);
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
    const fleet = fold.finish(seen.value, atMs - s.config.stale_after_seconds * 1000);
    if (fleet.unlabelled > 0 && fleet.hosts.size === 0 && fleet.stale.size === 0) {
      s.logger.warn(
        { source: "prometheus", host_label: s.config.host_label, series: fleet.unlabelled },
        `dcgm-exporter series carry no "${s.config.host_label}" label; set host_label to the label that names the host`,
      );
    }
    recallGpus(s, fleet, atMs, wanted.includes("fbFree"));
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
 * How the DCGM fields' queries leave stale samples out: instant selectors drop those older than the
 * server's lookback delta (5 min by default), or than the `max_lookback` sent to VictoriaMetrics; the
 * FB_USED heartbeat is needed only when `stale_after_seconds` is shorter than that (or it is unknown).
 */
function freshness(
  s: PromState,
  atMs: number,
  signal: AbortSignal,
): { needHeartbeat: boolean; fieldOptions: QueryOptions } {
  const maxLookbackSeconds = s.maxLookbackSeconds;
  if (maxLookbackSeconds !== null)
    return { needHeartbeat: false, fieldOptions: { atMs, signal, maxLookbackSeconds } };
  const needHeartbeat = s.lookbackMs == null || s.lookbackMs > s.config.stale_after_seconds * 1000;
  return { needHeartbeat, fieldOptions: { atMs, signal } };
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
    if (!transient) await readVictoriaFlags(s, signal, counted);
    if (s.maxLookbackSeconds !== null) return;
    s.logger.debug(
      { source: "prometheus", url: s.client.displayUrl, err: errorMessage(error) },
      "server flags unavailable; checking every sample's age",
    );
  }
}

/** VictoriaMetrics' `/flags`, where `/api/v1/status/flags` is missing: the `max_lookback` to send. */
async function readVictoriaFlags(s: PromState, signal: AbortSignal, counted: () => void): Promise<void> {
  counted();
  try {
    const flags = await s.client.victoriaFlags({ signal });
    s.maxLookbackSeconds = victoriaMaxLookbackSeconds(flags, s.config.stale_after_seconds);
  } catch {
    s.maxLookbackSeconds = null;
  }
}

async function lastSeenTimes(
  s: PromState,
  stale: Map<string, Set<string>>,
  atMs: number,
  signal: AbortSignal,
  counted: () => void,
): Promise<Map<string, number> | null> {
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
    return null;
  }
  return since;
}

function assemble(
  s: PromState,
  fleet: GpuFleet,
  since: Map<string, number> | null,
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
    const lastMs = maxDefined(since?.get(host), s.lastFresh.get(host));
    if (forgotten(s, since, lastMs, atMs)) continue;
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

interface CycleData {
  atMs: number;
  load1: PromVectorSample[];
  busy: PromVectorSample[];
  requests: PromVectorSample[];
  podNodes: PromVectorSample[];
  containerCpu: PromVectorSample[];
}

const FULL_READ_EVERY_MS = 10 * 60_000;

function valuesOf(result: PromiseSettledResult<PromVectorSample[]>): PromVectorSample[] {
  return result.status === "fulfilled" ? result.value : [];
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

function formatSince(lastMs: number, nowMs: number): string {
  const last = dayjs.utc(lastMs);
  return last.isSame(dayjs.utc(nowMs), "day")
    ? `${last.format("HH:mm")} UTC`
    : `${last.format("YYYY-MM-DD HH:mm")} UTC`;
}

function formatSeconds(seconds: number): string {
  return seconds % 60 === 0 ? `${seconds / 60} min` : `${seconds} s`;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

export { hostFromLabel } from "./prometheus-hosts.ts";
export { DCGM_METRICS, type PrometheusSourceConfig, prometheusQueries } from "./prometheus-queries.ts";

/**
 * A host listed by the series API whose last sample is older than `forget_after_hours`, or that the
 * last-seen query did not find at all: VictoriaMetrics lists series per day, Prometheus per block.
 */
function forgotten(
  s: PromState,
  since: Map<string, number> | null,
  lastMs: number | undefined,
  atMs: number,
): boolean {
  if (lastMs === undefined) return since !== null;
  return atMs - lastMs > s.forgetMs;
}
