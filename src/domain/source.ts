import type { HostRecord } from "./metrics.ts";
import type { HostObservation, SourceKind } from "./observation.ts";

/** A metric source: one poll returns one observation per host it knows, failures included. */
export interface Source {
  readonly kind: SourceKind;
  /** Host names this source is expected to report (empty when discovered, as with Prometheus). */
  readonly hosts: readonly string[];
  /**
   * How long one poll of this source may take, ms, every request of it included: a poll still running
   * then is aborted and the source's hosts are unknown for that cycle, while the other sources' readings
   * are used. Absent: the cycle's own deadline.
   */
  readonly pollDeadlineMs?: number;
  poll(signal: AbortSignal): Promise<HostObservation[]>;
  /**
   * What the store knew of this source's hosts at a start (their GPUs' UUIDs and memory totals), so
   * that the first poll need not read again what a card does not change. Called once, before it.
   */
  recall?(hosts: readonly HostRecord[], atMs: number): void;
}

/** A stretch of the past a source is asked about: one step at `fromMs, fromMs + stepMs, …` up to `toMs`. */
export interface HistoryRequest {
  fromMs: number;
  toMs: number;
  stepMs: number;
}

/**
 * A host's utilisation over a grid of steps, step `i` at `fromMs + i × stepMs`: the highest utilisation %
 * of its busiest GPU within the step that ends there (`[t − stepMs, t]`), so a step is idle only when every
 * sample of every GPU in it was. `NaN`: no sample at all in the step (a gap); {@link SOME_GPU_SILENT}:
 * some GPU the host had within the request had no sample in the step (unknown). Never 0 for no data.
 * Single precision: 14 days of 10,000 hosts at 5-minute steps are 160 MB.
 */
export interface HostUtilHistory {
  fromMs: number;
  stepMs: number;
  utilPct: Float32Array;
}

/** In {@link HostUtilHistory}: a step where some of the host's GPUs reported and some did not. */
export const SOME_GPU_SILENT = -1;

/**
 * A source that keeps history (Prometheus). Both calls send a few fleet-wide queries, never one per host.
 * Processes, sessions, containers, memory and power are not part of history.
 */
export interface HistorySource extends Source {
  /**
   * What polls would have seen at each step: ok observations in time order; a host without data at a
   * step has no observation there (a gap: unknown, never idle).
   */
  history(request: HistoryRequest, signal: AbortSignal): Promise<HostObservation[]>;
  /**
   * `history` for the given hosts only (a few queries for all of them, never one per host): what the
   * engine keeps of their recent past, for sparklines.
   */
  hostsHistory?(
    hosts: readonly string[],
    request: HistoryRequest,
    signal: AbortSignal,
  ): Promise<HostObservation[]>;
  /**
   * The hosts with GPU series in `[fromMs, toMs]`, from the engine's index (one query, no samples read):
   * the hosts a replay of that span asks about.
   */
  hostsIn?(span: { fromMs: number; toMs: number }, signal: AbortSignal): Promise<string[]>;
  /**
   * What polls would have seen of the given hosts at each step, per GPU: utilisation, memory used, power
   * and the Kubernetes workloads on it where the exporter labels them (as processes without pid or user);
   * no login sessions (`null`), CPU or containers. Ok observations in time order; a host without data at a
   * step has no observation there, and a GPU without data at a step is missing from it. A few queries per
   * call for all the hosts, never one per host.
   */
  readingsHistory?(
    hosts: readonly string[],
    request: HistoryRequest,
    signal: AbortSignal,
  ): Promise<HostObservation[]>;
  /** Each host's busiest-GPU utilisation per step, for long look-backs (compact: one number a step). */
  busiestHistory(request: HistoryRequest, signal: AbortSignal): Promise<Map<string, HostUtilHistory>>;
  /** How far back `busiestHistory` is meant to be asked (the source's configured look-back), ms; 0: not at all. */
  readonly historyLookbackMs: number;
  /** Range queries sent by the last `history` or `busiestHistory` call. */
  readonly lastHistoryQueryCount: number;
}

export function hasHistory(source: Source): source is HistorySource {
  return "history" in source && typeof source.history === "function";
}
