import type { HostRecord } from "../domain/metrics.ts";
import type { FailureCause, HostObservation } from "../domain/observation.ts";
import { failed } from "../domain/observation.ts";
import type { Clock } from "../shared/clock.ts";
import { physicalGpu } from "../shared/gpu-slot.ts";
import type { Logger } from "../shared/logger.ts";
import { createPrometheusClient, type PrometheusClient, PrometheusError } from "./prometheus-api.ts";
import {
  emptyGpu,
  type GpuAccumulator,
  type GpuFleet,
  type KnownGpu,
  memoryTotalMiB,
} from "./prometheus-gpus.ts";
import { type PrometheusSourceConfig, prometheusQueries } from "./prometheus-queries.ts";

export interface PrometheusSourceDeps {
  /** Queries are evaluated at `clock.now()`; observations carry that instant. */
  clock: Clock;
  logger: Logger;
  fetch?: typeof fetch;
}

/** What one Prometheus source keeps between calls: its clients and queries, and what it has seen. */
export interface PromState {
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
  /**
   * Host → GPU index → the UUID and memory total the store knew at the start ({@link recallStored}),
   * used by the first poll's GPUs of the same UUID, then dropped.
   */
  recalled: Map<string, Map<number, { uuid: string; totalMiB: number }>>;
  /** When FB_FREE, FB_RESERVED and GR_ENGINE_ACTIVE were last read for every GPU. */
  lastFullReadMs: number;
  /** Some current GPU has no known memory total yet, or no GPU_UTIL: read those fields next cycle too. */
  missingTotal: boolean;
  missingUtil: boolean;
  /** The server's lookback delta: `undefined` until read, `null` where the server does not say. */
  lookbackMs: number | null | undefined;
  /**
   * The `max_lookback` sent with each DCGM field's query where the server is VictoriaMetrics (its
   * `/flags` answered): no sample older than `stale_after_seconds` then comes back, and no heartbeat is
   * needed. Null elsewhere.
   */
  maxLookbackSeconds: number | null;
}

export function createPromState(config: PrometheusSourceConfig, deps: PrometheusSourceDeps): PromState {
  const clientOf = (timeoutMs: number) =>
    createPrometheusClient({
      url: config.url,
      timeoutMs,
      compressed: config.compress_answers,
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
    });
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
    recalled: new Map(),
    lastQueryCount: 0,
    lastFullReadMs: Number.NEGATIVE_INFINITY,
    missingTotal: false,
    missingUtil: false,
    lookbackMs: undefined,
    maxLookbackSeconds: null,
  };
}

/**
 * Takes the memory totals the store knew of this source's GPUs (the records of its hosts, named as the
 * source names them): the first poll then leaves FB_FREE and FB_RESERVED out (read 10 minutes later, or
 * at the next poll for a GPU it does not match), and GR_ENGINE_ACTIVE unless a known GPU is a MIG slot
 * (one without GPU_UTIL makes the next poll read it).
 */
export function recallStored(s: PromState, hosts: readonly HostRecord[], atMs: number): void {
  let mig = false;
  for (const host of hosts) {
    if (host.source !== "prometheus") continue;
    const gpus = new Map<number, { uuid: string; totalMiB: number }>();
    for (const gpu of host.gpus) {
      mig ||= gpu.mig;
      if (gpu.uuid !== null && gpu.memTotalMiB !== null)
        gpus.set(gpu.index, { uuid: gpu.uuid, totalMiB: gpu.memTotalMiB });
    }
    if (gpus.size > 0) s.recalled.set(host.name, gpus);
  }
  if (s.recalled.size === 0) return;
  s.lastFullReadMs = atMs;
  s.missingUtil = mig;
}

/**
 * Completes this cycle's GPUs from what earlier cycles saw (UUID, model, memory total) and remembers
 * them; a GPU that dropped out of a live host comes back without readings.
 */
export function recallGpus(s: PromState, fleet: GpuFleet, atMs: number, totalsRead: boolean): void {
  for (const [host, remembered] of s.knownGpus) {
    for (const [index, memory] of remembered) if (atMs - memory.lastMs > s.forgetMs) remembered.delete(index);
    if (remembered.size === 0) s.knownGpus.delete(host);
  }
  s.missingTotal = false;
  s.missingUtil = false;
  for (const [host, gpus] of fleet.hosts) {
    const remembered = s.knownGpus.get(host) ?? new Map<number, KnownGpu>();
    s.knownGpus.set(host, remembered);
    const stored = s.recalled.get(host);
    for (const gpu of gpus.values()) {
      const before = remembered.get(gpu.index);
      const memory = before && (gpu.uuid === null || gpu.uuid === before.uuid) ? before : undefined;
      gpu.uuid ??= memory?.uuid ?? null;
      gpu.model ??= memory?.model ?? null;
      const recalled = stored?.get(gpu.index);
      const fromStore = memory === undefined && recalled !== undefined && recalled.uuid === gpu.uuid;
      const total = totalsRead
        ? memoryTotalMiB(gpu)
        : (memory?.totalMiB ?? (fromStore ? recalled.totalMiB : null));
      const totalKnown = totalsRead || (memory?.totalKnown ?? fromStore);
      gpu.totalMiB = total;
      rememberGpu(remembered, before, gpu, atMs, totalKnown);
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
  s.recalled.clear();
}

/** Keeps what a poll saw of a GPU, in the object an earlier poll left where there is one (no garbage per GPU). */
function rememberGpu(
  remembered: Map<number, KnownGpu>,
  before: KnownGpu | undefined,
  gpu: GpuAccumulator,
  atMs: number,
  totalKnown: boolean,
): void {
  const { uuid, model, totalMiB } = gpu;
  if (before === undefined) {
    remembered.set(gpu.index, { uuid, model, lastMs: atMs, totalMiB, totalKnown });
    return;
  }
  before.uuid = uuid;
  before.model = model;
  before.lastMs = atMs;
  before.totalMiB = totalMiB;
  before.totalKnown = totalKnown;
}

export function failAll(s: PromState, atMs: number, error: unknown): HostObservation[] {
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

export function remember(s: PromState, observations: HostObservation[], atMs: number): void {
  for (const observation of observations) {
    s.known.set(observation.host, atMs);
    if (observation.ok) s.lastFresh.set(observation.host, atMs);
  }
  for (const [host, lastMs] of s.known) if (atMs - lastMs > s.forgetMs) s.known.delete(host);
  for (const [host, lastMs] of s.lastFresh) if (atMs - lastMs > s.forgetMs) s.lastFresh.delete(host);
}

export function causeOf(error: unknown): FailureCause {
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

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** History reads whole days of the fleet: they get more time than a poll's queries. */
const HISTORY_TIMEOUT_MS = 120_000;
