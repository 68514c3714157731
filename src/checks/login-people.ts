import type { HostObservation } from "../domain/observation.ts";

/** Login names of the processes and sessions on the host now; empty when nothing is known. */
export function loginsOn(observation: HostObservation | null): Set<string> {
  const logins = new Set<string>();
  if (observation === null || !observation.ok) return logins;
  for (const gpu of observation.gpus) {
    for (const process of gpu.processes) if (process.user !== null) logins.add(process.user);
  }
  for (const session of observation.sessions ?? []) logins.add(session.user);
  return logins;
}

/** The Slack users (`team.logins`) any of whose login names is among `logins`, in the map's order. */
export function peopleOfLogins(
  map: Readonly<Record<string, readonly string[]>>,
  logins: ReadonlySet<string>,
): string[] {
  return Object.entries(map)
    .filter(([, names]) => names.some((name) => logins.has(name)))
    .map(([user]) => user);
}

/**
 * The login names holding the host, when every process and session on it has a known login and there
 * is at least one; `null` otherwise (nothing on it, a process of unknown owner, no reading).
 */
export function holdersIfAllKnown(observation: HostObservation | null): Set<string> | null {
  if (observation === null || !observation.ok) return null;
  const processes = observation.gpus.flatMap((gpu) => gpu.processes);
  if (processes.some((process) => process.user === null)) return null;
  const logins = loginsOn(observation);
  return logins.size === 0 ? null : logins;
}
