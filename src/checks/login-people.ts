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
