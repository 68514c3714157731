import type {
  CycleWritten,
  GpuHourRollup,
  GpuRollupTotals,
  GpuSample,
  HostRecord,
  HostSample,
  LatestObservation,
  PruneResult,
  RollupResult,
} from "../domain/metrics.ts";
import type { HostObservation } from "../domain/observation.ts";
import type { HourPack } from "./hour-packs.ts";

/**
 * The metrics repository: the poll loop writes cycles, the scheduler rolls up and prunes, the
 * checks and the bot read. All instants are epoch milliseconds; every method is synchronous.
 */
export interface MetricsStore {
  /**
   * Writes one poll cycle in one transaction: upserts hosts and GPUs, appends a host sample per
   * observation and a GPU sample per reading (all-null rows for a failed host's known GPUs), and
   * rewrites a host's evidence only when it changed. Throws, writing nothing, when a host appears
   * twice or a GPU index twice in one host. The store keeps the observations' processes, sessions
   * and containers as the latest evidence: do not mutate observations once written.
   */
  writeCycle(observations: readonly HostObservation[], atMs: number): CycleWritten;
  /**
   * Rolls up every complete clock hour not yet rolled up, oldest first, one transaction per hour.
   * An hour is complete once `uptoMs` is past its end plus `sampleSpanMaxMs`. Idempotent and
   * resumable. `maxHours` bounds the work of one call (it blocks the event loop).
   */
  rollup(uptoMs: number, idleUtilPct: number, maxHours?: number): RollupResult;
  /**
   * Deletes raw samples older than `rawRetentionDays` (never ones not yet rolled up) and hourly
   * rollups older than `rollupRetentionDays`; the raw samples of hosts a time-series engine reports
   * (source `prometheus`) after `engineRawRetentionDays` when that is shorter (0: once rolled up).
   * `maxCycles` bounds the work of one call.
   */
  prune(
    nowMs: number,
    rawRetentionDays: number,
    rollupRetentionDays: number,
    maxCycles?: number,
    engineRawRetentionDays?: number,
  ): PruneResult;
  /** The latest observation of every host seen within raw retention, failed ones included, by name. */
  latestObservations(): LatestObservation[];
  /** The time of each host's latest sample, by name ({@link MetricsStore.latestObservations} without the readings). */
  latestSampleTimes(): Map<string, number>;
  /** The host's samples with `atMs >= sinceMs` (by cycle time), oldest first. */
  hostSamplesSince(host: string, sinceMs: number): HostSample[];
  /** The host's GPU samples since `sinceMs` (by cycle time), oldest first, then by GPU index. */
  gpuSamplesSince(host: string, sinceMs: number): GpuSample[];
  /** Hourly rollups with `fromMs <= hourMs < toMs`, by hour then GPU. */
  rollupsBetween(fromMs: number, toMs: number, host?: string): GpuHourRollup[];
  /**
   * The stored GPUs by id, and the hourly rollups as columns, read one hour at a time by `at` (the
   * store's hour packs): memory does not grow with the period or the fleet's GPU-hours.
   */
  rollupHours(): RollupHours;
  /** Per-GPU totals of the hourly rollups with `fromMs <= hourMs < toMs`, by host then index. */
  rollupTotals(fromMs: number, toMs: number, host?: string): GpuRollupTotals[];
  /** Every host and GPU ever seen, by name then index. */
  hosts(): HostRecord[];
}

/** Hourly rollups as columns, an hour at a time: a row's GPU is `gpus.get(gpuIds[k])`. */
export interface RollupHours {
  gpus: ReadonlyMap<number, { host: string; index: number }>;
  /** The one clock hour at `hourMs`: its GPU ids, busy and idle minutes; `null` without rollups. */
  at(hourMs: number): Pick<HourPack, "hourMs" | "gpuIds" | "busyMinutes" | "idleMinutes"> | null;
}
