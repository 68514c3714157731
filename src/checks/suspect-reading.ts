import type { GpuReading } from "../domain/observation.ts";

/**
 * Implausible readings: a known driver/exporter fault reports a GPU at full utilisation while it
 * holds no memory and draws idle-level power (the L40S idle capture in `test/fixtures`: 100 %,
 * 0 MiB, 145 W of 350 W, no process). Real work always holds memory (a CUDA context alone takes
 * hundreds of MiB), so such a reading is *suspect*: neither busy nor idle, never stopped or released
 * on, and never counted busy without saying so.
 *
 * "Idle-level power" is a draw below `idlePowerW` (default 150 W, `policy.suspect_idle_power_watts`).
 * The sources do not read the power limit, so the threshold is absolute: a data-centre GPU at full
 * utilisation draws well above it (H100/H200 at 100 %: 630 W in the fixtures), and a small card that
 * stays below it at full load (T4, L4: 70 W) still holds memory when it really works.
 */
export const SUSPECT_MIN_UTIL_PCT = 99;
/** Memory at or below this is "no memory held" (the driver's own bookkeeping on some cards). */
export const SUSPECT_MAX_MEM_MIB = 32;
/** The default idle-level power draw. */
export const DEFAULT_SUSPECT_IDLE_POWER_W = 150;

/**
 * What the implausibility rule says of one reading:
 * - `plausible`: not full utilisation, or memory or a process held, or power above idle level;
 * - `suspect`: full utilisation, no memory, idle-level power;
 * - `unverifiable`: full utilisation and no memory, but power or memory unknown: the rule cannot
 *   tell, so the reading stands as reported (unknown is not suspect, and not idle).
 */
export type ReadingPlausibility = "plausible" | "suspect" | "unverifiable";

/** Applies the rule to one reading. Pure. */
export function readingPlausibility(
  reading: Pick<GpuReading, "utilPct" | "memUsedMiB" | "powerW" | "processes">,
  idlePowerW: number = DEFAULT_SUSPECT_IDLE_POWER_W,
): ReadingPlausibility {
  const { utilPct, memUsedMiB, powerW } = reading;
  if (utilPct === null || !(utilPct >= SUSPECT_MIN_UTIL_PCT)) return "plausible";
  if (reading.processes.length > 0) return "plausible";
  if (memUsedMiB !== null && memUsedMiB > SUSPECT_MAX_MEM_MIB) return "plausible";
  if (powerW !== null && powerW >= idlePowerW) return "plausible";
  return memUsedMiB === null || powerW === null ? "unverifiable" : "suspect";
}
