import type { Claim } from "../domain/claim.ts";
import type { GpuReading } from "../domain/observation.ts";

/** A GPU in use that nobody has claimed. */
export interface UnclaimedUse {
  index: number;
  utilPct: number;
  /** Who runs on it, where the source knows: login names, else `namespace/pod`. */
  owners: string[];
}

/**
 * "Busy but unclaimed": the GPUs at or above the idle threshold that no claim in force covers
 * (neither a claim on the GPU nor one on the whole host), with their processes' owners. Pure.
 */
export function busyUnclaimed(
  gpus: readonly GpuReading[],
  claims: readonly Pick<Claim, "gpuIndex">[],
  idleUtilPct: number,
): UnclaimedUse[] {
  if (claims.some((claim) => claim.gpuIndex === null)) return [];
  const claimed = new Set(claims.map((claim) => claim.gpuIndex));
  const uses: UnclaimedUse[] = [];
  for (const gpu of gpus) {
    const utilPct = gpu.utilPct;
    if (utilPct === null || !(utilPct >= idleUtilPct && utilPct <= 100) || claimed.has(gpu.index)) continue;
    const owners = gpu.processes.flatMap((process) => {
      if (process.user !== null) return [process.user];
      if (process.pod !== null)
        return [process.namespace === null ? process.pod : `${process.namespace}/${process.pod}`];
      return [];
    });
    uses.push({ index: gpu.index, utilPct, owners: [...new Set(owners)].sort() });
  }
  return uses;
}
