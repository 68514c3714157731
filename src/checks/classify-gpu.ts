import type { GpuProcess, GpuReading } from "../sources/observation.ts";

export type GpuClass = "busy" | "idle" | "unknown";

/**
 * Why a GPU sample is unknown: no utilisation reading, a MIG GPU without one, or a value no GPU can
 * report (negative, above 100, not a number).
 */
export type GpuUnknownReason = "no-reading" | "mig" | "invalid";

interface GpuEvidence {
  index: number;
  /** Memory in use, still held on an idle GPU; `null` when not read. */
  memUsedMiB: number | null;
  /** The processes holding the GPU (pid, user, name, memory, container): who holds the memory. */
  processes: readonly GpuProcess[];
}

/** One GPU at one instant: busy, idle or unknown, with its evidence. Unknown is never idle. */
export type GpuSample =
  | (GpuEvidence & { class: "busy" | "idle"; utilPct: number; reason: null })
  | (GpuEvidence & { class: "unknown"; utilPct: null; reason: GpuUnknownReason });

/**
 * Classifies one GPU reading: `busy` when `utilPct ≥ idleUtilPct`, `idle` below it (whatever memory
 * is held), `unknown` when there is no valid utilisation reading.
 */
export function classifyGpu(reading: GpuReading, idleUtilPct: number): GpuSample {
  const { index, utilPct, memUsedMiB, processes } = reading;
  if (utilPct === null) {
    return {
      index,
      class: "unknown",
      utilPct: null,
      reason: reading.mig ? "mig" : "no-reading",
      memUsedMiB,
      processes,
    };
  }
  if (!(utilPct >= 0 && utilPct <= 100)) {
    return { index, class: "unknown", utilPct: null, reason: "invalid", memUsedMiB, processes };
  }
  return {
    index,
    class: utilPct < idleUtilPct ? "idle" : "busy",
    utilPct,
    reason: null,
    memUsedMiB,
    processes,
  };
}
