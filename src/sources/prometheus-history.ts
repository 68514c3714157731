import type { HostObservation } from "../domain/observation.ts";
import type { HistoryRequest, HostUtilHistory } from "../domain/source.ts";
import { createBusiestGrids } from "./busiest-grids.ts";
import { isDcgmBlank } from "./prom-value.ts";
import { PrometheusError, type PromRangeSeries } from "./prometheus-api.ts";
import {
  accumulatorIn,
  type GpuAccumulator,
  prometheusObservation,
  slotOf,
  splitMigGpus,
} from "./prometheus-gpus.ts";
import { hostFromLabel } from "./prometheus-hosts.ts";
import { DCGM_METRICS, type DcgmField } from "./prometheus-queries.ts";
import type { PromState } from "./prometheus-state.ts";

/**
 * Range-query answers' series; throws on anything but a matrix. A selector reads back at most the
 * source's `stale_after_seconds` (VictoriaMetrics' `max_lookback`; Prometheus has its fixed 5 min), so
 * no engine fills a gap with an older sample that a live poll would call stale: unknown is never idle.
 */
export async function readRange(
  s: PromState,
  promql: string,
  chunk: { startMs: number; endMs: number },
  stepSeconds: number,
  signal: AbortSignal,
): Promise<PromRangeSeries[]> {
  const maxLookbackSeconds = s.config.stale_after_seconds;
  const range = { ...chunk, stepSeconds, maxLookbackSeconds };
  const answer = await s.historyClient.queryRange(promql, range, { signal });
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
export async function history(
  s: PromState,
  request: HistoryRequest,
  signal: AbortSignal,
): Promise<HostObservation[]> {
  const stepSeconds = Math.max(1, Math.round(request.stepMs / 1000));
  const chunks = rangeChunks(request.fromMs, request.toMs, stepSeconds * 1000, MAX_STEPS_PER_QUERY);
  const span = { startMs: request.fromMs, endMs: request.toMs };
  const promql = (await holdsGrActive(s, span, signal)) ? s.queries.historyInstant : s.queries.historyUtil;
  s.lastHistoryQueryCount = chunks.length;
  const answers = await Promise.all(chunks.map((chunk) => readRange(s, promql, chunk, stepSeconds, signal)));
  const observations = historyObservations([{ field: "util", series: answers.flat() }], s.config.host_label);
  const lastAtMs = observations.at(-1)?.atMs;
  s.slotsSeen = observations
    .filter((observation) => observation.atMs === lastAtMs)
    .reduce((sum, observation) => sum + (observation.ok ? observation.gpus.length : 0), 0);
  return observations;
}

/** {@link history} of the given hosts only, in chunks of 500 hosts; it changes no counter of the source's. */
export async function hostsHistory(
  s: PromState,
  hosts: readonly string[],
  request: HistoryRequest,
  signal: AbortSignal,
): Promise<HostObservation[]> {
  const stepSeconds = Math.max(1, Math.round(request.stepMs / 1000));
  const chunks = rangeChunks(request.fromMs, request.toMs, stepSeconds * 1000, MAX_STEPS_PER_QUERY);
  const groups: string[][] = [];
  for (let i = 0; i < hosts.length; i += HOSTS_PER_QUERY) groups.push(hosts.slice(i, i + HOSTS_PER_QUERY));
  const answers = await Promise.all(
    groups.flatMap((group) =>
      chunks.map((chunk) => readRange(s, s.queries.historyOf(group), chunk, stepSeconds, signal)),
    ),
  );
  return historyObservations([{ field: "util", series: answers.flat() }], s.config.host_label);
}

/** Hosts named in one regex matcher of {@link hostsHistory}. */
const HOSTS_PER_QUERY = 500;

/**
 * Each host's busiest GPU per step: two range queries (the highest utilisation and the number of GPU
 * slots with samples, per host) per chunk of steps, without GR_ENGINE_ACTIVE where the engine holds none
 * in the range. Chunks keep about {@link MAX_SLOT_STEPS_PER_QUERY} slot-steps each (the matrix
 * Prometheus holds while it evaluates) and are read one after the other.
 */
export async function busiestHistory(
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
  const span = { startMs: request.fromMs - stepMs, endMs: request.toMs };
  const max = s.queries.historyMax(stepSeconds, await holdsGrActive(s, span, signal));
  const grids = createBusiestGrids(steps);
  const hostOf = (series: PromRangeSeries) => {
    const raw = series.labels[s.config.host_label];
    return raw ? hostFromLabel(raw) : null;
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
      const host = hostOf(series);
      if (host !== null)
        for (const point of series.points) grids.addHighest(host, stepOf(point.atMs), point.value);
    }
    for (const series of slots) {
      const host = hostOf(series);
      if (host !== null)
        for (const point of series.points) grids.addSlots(host, stepOf(point.atMs), point.value);
    }
  }
  return grids.finish(request.fromMs, stepMs);
}

/**
 * Whether the engine holds GR_ENGINE_ACTIVE series of some host (MIG, or exporters without GPU_UTIL)
 * with samples in `span` (extended by the longest look-back a step may read); from the index (a series
 * without the host label is read by no query). An engine that cannot say is taken to hold some (the
 * queries with it give the same answers, only slower). NOTE: VictoriaMetrics names `__name__` where
 * nothing matches.
 */
async function holdsGrActive(
  s: PromState,
  span: { startMs: number; endMs: number },
  signal: AbortSignal,
): Promise<boolean> {
  const lookBackMs = Math.max(5 * 60_000, s.config.stale_after_seconds * 1000);
  try {
    const names = await s.historyClient.labelNames(
      DCGM_METRICS.grActive,
      { startMs: span.startMs - lookBackMs, endMs: span.endMs },
      { signal },
    );
    return names.includes(s.config.host_label);
  } catch (error) {
    if (signal.aborted) throw error;
    return true;
  }
}

/** Prometheus refuses range queries of more than 11,000 points per series. */
export const MAX_STEPS_PER_QUERY = 10_000;

/**
 * GPU slots × steps one look-back query may make Prometheus hold; its answer holds about this many
 * points divided by the GPUs per host (250,000 for hosts of 8 GPUs), and two sources are read at once.
 */
export const MAX_SLOT_STEPS_PER_QUERY = 2_000_000;

/** Steps per look-back query before the fleet's size is known (a day of 5-minute steps). */
export const DEFAULT_STEPS_PER_CHUNK = 288;

/** `[fromMs, toMs]` cut into ranges of at most `maxSteps` steps on the same grid. */
export function rangeChunks(
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

/**
 * Range-query answers as one observation per host and step, oldest first. Series-major: each series'
 * labels are read once, however many steps it has.
 */
export function historyObservations(
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
