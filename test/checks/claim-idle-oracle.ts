import type { IdleWindow, UtilPoint } from "../../src/checks/claim-idle.ts";

/*
 * The claims job's idle-since as it was computed before it kept idle stretches in the store: from
 * every sample of the look-back window, re-read each time. The property test holds the stretches
 * (src/checks/claim-idle.ts) to the same answers.
 */

function isIdle(point: UtilPoint, idleUtilPct: number): boolean {
  return point.utilPct !== null && point.utilPct >= 0 && point.utilPct < idleUtilPct;
}

/**
 * When one GPU's current idle stretch began, from its points (oldest first, all since
 * `window.fromMs`): `window.fromMs` when the stretch reaches back to the start of the window;
 * `null` when the GPU is not idle now (busy, no reading, or no recent sample).
 */
export function gpuIdleSinceMs(points: readonly UtilPoint[], window: IdleWindow): number | null {
  const last = points.at(-1);
  if (last === undefined || window.nowMs - last.atMs > window.maxGapMs) return null;
  if (!isIdle(last, window.idleUtilPct)) return null;
  for (let i = points.length - 1; i > 0; i--) {
    const current = points[i]!;
    const previous = points[i - 1]!;
    if (current.atMs - previous.atMs > window.maxGapMs || !isIdle(previous, window.idleUtilPct)) {
      return current.atMs;
    }
  }
  const first = points[0]!;
  return first.atMs - window.fromMs <= window.maxGapMs ? window.fromMs : first.atMs;
}

/**
 * Since when every GPU of a claim has been idle: the latest of the GPUs' idle starts. `gpus` null
 * (a whole-host claim) means every GPU in the samples. `null` when any of them is not idle now or
 * has no samples at all.
 */
export function claimIdleSinceMs(
  points: readonly UtilPoint[],
  gpus: readonly number[] | null,
  window: IdleWindow,
): number | null {
  const byGpu = new Map<number, UtilPoint[]>();
  for (const point of points) {
    if (gpus !== null && !gpus.includes(point.index)) continue;
    const list = byGpu.get(point.index);
    if (list === undefined) byGpu.set(point.index, [point]);
    else list.push(point);
  }
  const wanted = gpus ?? [...byGpu.keys()];
  if (wanted.length === 0) return null;
  let since = Number.NEGATIVE_INFINITY;
  for (const index of wanted) {
    const gpuSince = gpuIdleSinceMs(byGpu.get(index) ?? [], window);
    if (gpuSince === null) return null;
    since = Math.max(since, gpuSince);
  }
  return since;
}
