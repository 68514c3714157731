import type { FailureCause, HostObservation, LoginSession } from "../domain/observation.ts";
import { classifyGpu, type GpuSample } from "./classify-gpu.ts";
import type { IdlePolicy } from "./idle-policy.ts";

/**
 * One host at one poll, as the idle checks see it. A failed observation is an `ok: false` sample;
 * the sweep also makes one for a host that did not report or reported only a stale reading.
 */
export type HostSample =
  | {
      atMs: number;
      ok: true;
      gpus: readonly GpuSample[];
      /**
       * Login sessions that count as activity; `null` when the source cannot see sessions
       * (Prometheus), in which case the GPUs alone decide.
       */
      activeSessions: number | null;
      /** The sessions the source saw, as evidence; `null` as for `activeSessions`. */
      sessions: readonly LoginSession[] | null;
    }
  | {
      atMs: number;
      ok: false;
      cause: FailureCause;
      message: string;
      /** When the host's latest real sample was taken, where known (the source said, or a stale one). */
      lastSampleAtMs?: number;
    };

/**
 * What one host sample says about the host:
 * - `busy`: at least one GPU is busy (whatever the others say);
 * - `unknown`: a failed observation, no GPUs at all, or a GPU without a valid reading and none busy;
 * - `session`: every GPU idle or suspect but someone is logged in and active;
 * - `suspect`: no GPU busy or unknown, at least one suspect (an implausible reading), no active session;
 * - `idle`: every GPU idle and no active session.
 */
export type HostClass = "busy" | "session" | "suspect" | "idle" | "unknown";

/**
 * A session counts as active unless the source says its last input is at least `idleForMinutes`
 * old: a tmux session left attached for days does not keep a host busy; one of unknown age does.
 */
export function countActiveSessions(
  sessions: readonly LoginSession[] | null,
  idleForMinutes: number,
): number | null {
  if (sessions === null) return null;
  let active = 0;
  for (const session of sessions) {
    if (session.idleMinutes === null || !(session.idleMinutes >= idleForMinutes)) active++;
  }
  return active;
}

/** Turns a source's observation into the sample the idle checks use. */
export function classifyHost(
  observation: HostObservation,
  policy: Pick<IdlePolicy, "idleUtilPct" | "idleForMinutes" | "suspectIdlePowerW">,
): HostSample {
  if (!observation.ok) {
    const { atMs, cause, message, lastSampleAtMs } = observation;
    return lastSampleAtMs === undefined
      ? { atMs, ok: false, cause, message }
      : { atMs, ok: false, cause, message, lastSampleAtMs };
  }
  const gpus = new Array<GpuSample>(observation.gpus.length);
  for (let i = 0; i < gpus.length; i++) {
    gpus[i] = classifyGpu(observation.gpus[i]!, policy.idleUtilPct, policy.suspectIdlePowerW);
  }
  return {
    atMs: observation.atMs,
    ok: true,
    gpus,
    activeSessions: countActiveSessions(observation.sessions, policy.idleForMinutes),
    sessions: observation.sessions,
  };
}

/** GPU memory at or below this, with no process listed, is nothing (the driver's own few MiB). */
const EMPTY_GPU_MEMORY_MIB = 256;

/** A GPU with no process listed and no memory held (beyond the driver's own few MiB). */
export function holdsNothing(gpu: { processes: readonly unknown[]; memUsedMiB: number | null }): boolean {
  return gpu.processes.length === 0 && gpu.memUsedMiB !== null && gpu.memUsedMiB <= EMPTY_GPU_MEMORY_MIB;
}

/**
 * Nothing on the host: every GPU read with no process and no memory held, and no login session, by a
 * source that sees sessions (without them, nothing shows that nobody is at work there).
 */
export function nothingOn(sample: HostSample): boolean {
  if (!sample.ok || sample.gpus.length === 0 || sample.sessions === null || sample.sessions.length > 0) {
    return false;
  }
  return sample.gpus.every(holdsNothing);
}

export function hostClass(sample: HostSample): HostClass {
  if (!sample.ok || sample.gpus.length === 0) return "unknown";
  let unknown = false;
  let suspect = false;
  for (const gpu of sample.gpus) {
    switch (gpu.class) {
      case "busy":
        return "busy";
      case "unknown":
        unknown = true;
        break;
      case "suspect":
        suspect = true;
        break;
      case "idle":
        break;
      default:
        gpu satisfies never;
    }
  }
  if (unknown) return "unknown";
  if (sample.activeSessions !== null && sample.activeSessions > 0) return "session";
  return suspect ? "suspect" : "idle";
}
