import type { HostObservation } from "../domain/observation.ts";

/** GPU memory at or below this, with no process listed, is nothing (the driver's own few MiB). */
export const EMPTY_GPU_MEMORY_MIB = 256;

/** One GPU's unbroken stretches so far, as the autopilot watched them. */
export interface GpuStretch {
  /** Since when the GPU has been below the idle threshold; `null`: busy now or not read. */
  idleSinceMs: number | null;
  /** Since when it has had nothing on it (no process, no memory held); `null`: something on it now. */
  emptySinceMs: number | null;
}

/** Whether a GPU reading shows nothing on it: no process and no memory held beyond the driver's own. */
export function gpuIsEmpty(gpu: { processes: readonly unknown[]; memUsedMiB: number | null }): boolean {
  return gpu.processes.length === 0 && gpu.memUsedMiB !== null && gpu.memUsedMiB <= EMPTY_GPU_MEMORY_MIB;
}

/**
 * Each GPU's stretches after the host's latest observation: a stretch goes on from `previous` while
 * the GPU stays idle (or empty) and restarts at the observation's time when it becomes so; a GPU
 * busy, unread or holding something ends it. A failed observation, a different number of GPUs or no
 * observation at all forgets every stretch (`null`): what was not watched is not assumed.
 */
export function nextGpuStretches(
  previous: readonly GpuStretch[] | null,
  latest: HostObservation | null,
  idleUtilPct: number,
): GpuStretch[] | null {
  if (latest === null || !latest.ok || latest.gpus.length === 0) return null;
  const known = previous !== null && previous.length === latest.gpus.length ? previous : null;
  return latest.gpus.map((gpu, index) => {
    const before = known?.[index];
    const idle = gpu.utilPct !== null && gpu.utilPct < idleUtilPct;
    return {
      idleSinceMs: idle ? (before?.idleSinceMs ?? latest.atMs) : null,
      emptySinceMs: gpuIsEmpty(gpu) ? (before?.emptySinceMs ?? latest.atMs) : null,
    };
  });
}
