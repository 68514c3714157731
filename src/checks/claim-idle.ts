import type { GpuIdleRun } from "../domain/gpu-idle-run.ts";

export type { GpuIdleRun };

/**
 * "Claimed but idle": how long the GPUs of a claim have been idle, from their stored samples. A
 * sample is idle when its utilisation is below the threshold; no reading, an invalid one, a gap
 * between samples or a stale last sample is unknown, and unknown never counts as idle. Pure.
 */

/** One GPU's utilisation at one poll. */
export interface UtilPoint {
  index: number;
  atMs: number;
  /** `null`: no reading. */
  utilPct: number | null;
}

export interface IdleWindow {
  /** Where the samples read begin: a stretch reaching back to it counts from here. */
  fromMs: number;
  nowMs: number;
  idleUtilPct: number;
  /** A gap longer than this between samples, or since the last one, is unknown. */
  maxGapMs: number;
}

function isIdle(point: UtilPoint, idleUtilPct: number): boolean {
  return point.utilPct !== null && point.utilPct >= 0 && point.utilPct < idleUtilPct;
}

/** `run` with one more sample of its GPU (samples in time order). */
export function advanceIdleRun(
  run: GpuIdleRun | undefined,
  point: UtilPoint,
  rules: Pick<IdleWindow, "idleUtilPct" | "maxGapMs">,
): GpuIdleRun {
  const idle = isIdle(point, rules.idleUtilPct);
  if (!idle) return { index: point.index, lastAtMs: point.atMs, idle, runFromMs: null, beforeRunMs: null };
  if (run?.idle && point.atMs - run.lastAtMs <= rules.maxGapMs) {
    return { ...run, lastAtMs: point.atMs };
  }
  return {
    index: point.index,
    lastAtMs: point.atMs,
    idle,
    runFromMs: point.atMs,
    beforeRunMs: run?.lastAtMs ?? null,
  };
}

/**
 * {@link gpuIdleSinceMs} of the GPU's samples in the window, from its kept stretch: the same answer
 * as reading them again, as long as the stretch was kept from a sample at or before `window.fromMs`.
 */
export function runIdleSinceMs(run: GpuIdleRun | undefined, window: IdleWindow): number | null {
  if (run === undefined || run.lastAtMs < window.fromMs) return null;
  if (window.nowMs - run.lastAtMs > window.maxGapMs || !run.idle || run.runFromMs === null) return null;
  if (run.runFromMs < window.fromMs) return window.fromMs;
  const firstInWindow = run.beforeRunMs === null || run.beforeRunMs < window.fromMs;
  return firstInWindow && run.runFromMs - window.fromMs <= window.maxGapMs ? window.fromMs : run.runFromMs;
}

/** {@link claimIdleSinceMs} from the host's kept stretches, by GPU index. */
export function claimRunsIdleSinceMs(
  runs: ReadonlyMap<number, GpuIdleRun>,
  gpus: readonly number[] | null,
  window: IdleWindow,
): number | null {
  const wanted =
    gpus ?? [...runs.values()].filter((run) => run.lastAtMs >= window.fromMs).map((run) => run.index);
  if (wanted.length === 0) return null;
  let since = Number.NEGATIVE_INFINITY;
  for (const index of wanted) {
    const gpuSince = runIdleSinceMs(runs.get(index), window);
    if (gpuSince === null) return null;
    since = Math.max(since, gpuSince);
  }
  return since;
}
