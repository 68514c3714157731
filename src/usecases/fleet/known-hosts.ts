import type { HostActionDeps } from "../authorise.ts";
import { type UnknownHost, unknownHost } from "../power/action-text.ts";

/** Every host the bot can act on: seen by a source or configured, sorted. */
export function knownHosts(deps: Pick<HostActionDeps, "fleet" | "config">): string[] {
  return [...new Set([...deps.fleet.hosts(), ...Object.keys(deps.config.hosts)])].sort();
}

/** Whether the bot can act on `host`: checked without listing every host (the fleet knows exactly those it has a reading or a state for). */
export function isKnownHost(deps: Pick<HostActionDeps, "fleet" | "config">, host: string): boolean {
  return (
    Object.hasOwn(deps.config.hosts, host) ||
    deps.fleet.latest(host) !== null ||
    deps.fleet.state(host) !== null
  );
}

/** `null` when {@link isKnownHost}, else what to tell the person (with the nearest name). */
export function unknownHostFacts(
  deps: Pick<HostActionDeps, "config" | "fleet">,
  host: string,
): UnknownHost | null {
  return isKnownHost(deps, host) ? null : unknownHost(host, knownHosts(deps));
}
