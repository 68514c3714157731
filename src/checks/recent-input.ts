import type { HostObservation } from "../domain/observation.ts";

/** Someone who typed on the host recently: what a stop would end for them. */
export interface RecentInput {
  /** The login. */
  user: string;
  /** Minutes since their last input on the host (their most recent session). */
  idleMinutes: number;
  /** Their GPU processes on the host (names, at most a few). */
  processes: readonly string[];
  /** GPU memory their processes hold; `null` where a process's memory is unknown. */
  memMiB: number | null;
}

const PROCESSES_KEPT = 3;

/**
 * The people with a login on the host whose last input is less than `withinMinutes` old (the
 * autopilot's `stale_hours`: it treats such a session as in use and never stops it), most recent
 * first, each with the GPU processes and memory they hold there. Sessions of unknown age are left
 * out (the re-check already refuses a stop over a session it counts as active). Pure.
 */
export function recentInputOf(observation: HostObservation | null, withinMinutes: number): RecentInput[] {
  if (observation === null || !observation.ok || observation.sessions === null) return [];
  const byUser = new Map<string, number>();
  for (const session of observation.sessions) {
    if (session.idleMinutes === null || session.idleMinutes >= withinMinutes) continue;
    byUser.set(session.user, Math.min(byUser.get(session.user) ?? session.idleMinutes, session.idleMinutes));
  }
  return [...byUser.entries()]
    .map(([user, idleMinutes]) => ({ user, idleMinutes, ...heldBy(observation, user) }))
    .sort((a, b) => a.idleMinutes - b.idleMinutes || a.user.localeCompare(b.user));
}

function heldBy(
  observation: Extract<HostObservation, { ok: true }>,
  user: string,
): Pick<RecentInput, "processes" | "memMiB"> {
  const names: string[] = [];
  let memMiB: number | null = 0;
  for (const gpu of observation.gpus) {
    for (const process of gpu.processes) {
      if (process.user !== user) continue;
      if (!names.includes(process.name)) names.push(process.name);
      memMiB = memMiB === null || process.usedMemoryMiB === null ? null : memMiB + process.usedMemoryMiB;
    }
  }
  return { processes: names.slice(0, PROCESSES_KEPT), memMiB };
}
