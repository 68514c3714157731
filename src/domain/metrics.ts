import type { FailureCause, HostObservation, SourceKind } from "./observation.ts";

/** What one write of a poll cycle committed. */
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
