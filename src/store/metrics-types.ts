import type { FailureCause, HostObservation, SourceKind } from "../sources/observation.ts";

/** What one {@link MetricsStore.writeCycle} committed. */
export interface CycleWritten {
  cycleId: number;
  hosts: number;
  /** GPU sample rows, including the all-null rows of hosts whose poll failed. */
  gpuSamples: number;
  /** Hosts whose processes/sessions/containers changed and were rewritten. */
  evidenceWrites: number;
}

export interface LatestObservation {
  /**
   * The host's most recent observation: readings (with the processes, sessions and containers of
   * that poll) or the failure with its cause and message.
   */
  observation: HostObservation;
  /** When the host last answered with readings; `null` when it never did (as far as the store knows). */
  lastOkAtMs: number | null;
}

export interface HostSample {
  host: string;
  atMs: number;
  ok: boolean;
  cause: FailureCause | null;
  message: string | null;
  /** Active login sessions; `null` when the poll failed or the source cannot see sessions. */
  sessions: number | null;
  cpuLoad1: number | null;
  cpuUtilPct: number | null;
}

export interface GpuSample {
  host: string;
  index: number;
  /** The host observation's time. */
  atMs: number;
  utilPct: number | null;
  memUsedMiB: number | null;
  powerW: number | null;
  tempC: number | null;
}

/** One GPU over one clock hour `[hourMs, hourMs + 1 h)`. Minutes add up to 60. */
export interface GpuHourRollup {
  host: string;
  index: number;
  uuid: string | null;
  hourMs: number;
  /** Time-weighted over the minutes with a reading; `null` when there were none. */
  utilMeanPct: number | null;
  utilMaxPct: number | null;
  /** Minutes with utilisation at or above the idle threshold in force when the hour was rolled up. */
  busyMinutes: number;
  idleMinutes: number;
  /** Minutes without a utilisation reading: failed polls, null readings, no poll at all. */
  unknownMinutes: number;
  memMeanMiB: number | null;
  memMaxMiB: number | null;
  /** Energy over the minutes with a power reading; `null` when there were none. */
  energyWh: number | null;
}

/** One GPU's rollups summed over a period; hours without any rollup row are not in `hours`. */
export interface GpuRollupTotals {
  host: string;
  index: number;
  uuid: string | null;
  model: string | null;
  /** Hours with a rollup row. */
  hours: number;
  utilMeanPct: number | null;
  utilMaxPct: number | null;
  busyMinutes: number;
  idleMinutes: number;
  unknownMinutes: number;
  memMaxMiB: number | null;
  energyWh: number | null;
}

export interface GpuRecord {
  index: number;
  uuid: string | null;
  model: string | null;
  memTotalMiB: number | null;
  mig: boolean;
  firstSeenMs: number;
}

export interface HostRecord {
  name: string;
  source: SourceKind;
  firstSeenMs: number;
  /** Every GPU ever seen on the host, by index. */
  gpus: GpuRecord[];
}

export interface RollupResult {
  /** Clock hours processed by this call. */
  hours: number;
  /** Every hour before this instant is rolled up; `null` before the first rollup. */
  rolledUpToMs: number | null;
  /** `false` when `maxHours` stopped the call early: call again to continue. */
  complete: boolean;
}

export interface PruneResult {
  /** Poll cycles whose raw samples were deleted. */
  cycles: number;
  gpuHours: number;
  /** `false` when `maxCycles` stopped the call early: call again to continue. */
  complete: boolean;
}

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
   * rollups older than `rollupRetentionDays`. `maxCycles` bounds the work of one call.
   */
  prune(
    nowMs: number,
    rawRetentionDays: number,
    rollupRetentionDays: number,
    maxCycles?: number,
  ): PruneResult;
  /** The latest observation of every host seen within raw retention, failed ones included, by name. */
  latestObservations(): LatestObservation[];
  /** The host's samples with `atMs >= sinceMs` (by cycle time), oldest first. */
  hostSamplesSince(host: string, sinceMs: number): HostSample[];
  /** The host's GPU samples since `sinceMs` (by cycle time), oldest first, then by GPU index. */
  gpuSamplesSince(host: string, sinceMs: number): GpuSample[];
  /** Hourly rollups with `fromMs <= hourMs < toMs`, by hour then GPU. */
  rollupsBetween(fromMs: number, toMs: number, host?: string): GpuHourRollup[];
  /** Per-GPU totals of the hourly rollups with `fromMs <= hourMs < toMs`, by host then index. */
  rollupTotals(fromMs: number, toMs: number, host?: string): GpuRollupTotals[];
  /** Every host and GPU ever seen, by name then index. */
  hosts(): HostRecord[];
}
