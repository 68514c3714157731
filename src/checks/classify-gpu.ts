import type { GpuProcess, GpuReading } from "../domain/observation.ts";
import { DEFAULT_SUSPECT_IDLE_POWER_W, readingPlausibility } from "./suspect-reading.ts";

/** `suspect`: full utilisation with no memory at idle-level power (see `suspect-reading.ts`). */
export type GpuClass = "busy" | "idle" | "suspect" | "unknown";

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
  /** Power draw; `null` when not read. */
  powerW: number | null;
}

/** One GPU at one instant: busy, idle or unknown, with its evidence. Unknown is never idle. */
export type GpuSample =
  | (GpuEvidence & { class: "busy" | "idle" | "suspect"; utilPct: number; reason: null })
  | (GpuEvidence & { class: "unknown"; utilPct: null; reason: GpuUnknownReason });

/**
 * Classifies one GPU reading: `busy` when `utilPct ≥ idleUtilPct`, `idle` below it (whatever memory
 * is held), `suspect` when busy by utilisation but implausible (full utilisation, no memory, power
 * below `suspectIdlePowerW`), `unknown` when there is no valid utilisation reading.
 */
export function classifyGpu(
  reading: GpuReading,
  idleUtilPct: number,
  suspectIdlePowerW: number = DEFAULT_SUSPECT_IDLE_POWER_W,
): GpuSample {
  const { index, utilPct, memUsedMiB, processes, powerW } = reading;
  if (utilPct === null) {
    const reason = reading.mig ? "mig" : "no-reading";
    return { index, class: "unknown", utilPct: null, reason, memUsedMiB, processes, powerW };
  }
  if (!(utilPct >= 0 && utilPct <= 100)) {
    return { index, class: "unknown", utilPct: null, reason: "invalid", memUsedMiB, processes, powerW };
  }
  if (utilPct < idleUtilPct) {
    return { index, class: "idle", utilPct, reason: null, memUsedMiB, processes, powerW };
  }
  return {
    index,
    class: busyClass(reading, suspectIdlePowerW),
    utilPct,
    reason: null,
    memUsedMiB,
    processes,
    powerW,
  };
}

function busyClass(reading: GpuReading, suspectIdlePowerW: number): "busy" | "suspect" {
  const plausibility = readingPlausibility(reading, suspectIdlePowerW);
  switch (plausibility) {
    case "suspect":
      return "suspect";
    case "plausible":
    case "unverifiable":
      return "busy";
    default:
      return plausibility satisfies never;
  }
}
