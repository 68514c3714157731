/**
 * One GPU's idle stretch kept between runs of the claims job, so that each poll's sample is read
 * once: the latest sample, and the stretch of idle samples it ends (no gap between them).
 */
export interface GpuIdleRun {
  index: number;
  /** The latest sample read. */
  lastAtMs: number;
  /** Whether that sample was idle. */
  idle: boolean;
  /** The first sample of the idle stretch the latest sample ends; `null` when it is not idle. */
  runFromMs: number | null;
  /** The sample just before the stretch began; `null` when none was read. */
  beforeRunMs: number | null;
}

/** A claimed host's GPU idle stretches as the claims job keeps them between runs. */
export interface ClaimIdleRecord {
  host: string;
  /** The stretches were kept from the samples since this instant. */
  fromMs: number;
  /** The latest poll (by cycle time) read into them. */
  readUpToMs: number;
  gpus: GpuIdleRun[];
}
