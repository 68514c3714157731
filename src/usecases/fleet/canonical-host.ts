import type { HostActionDeps } from "../authorise.ts";
import { knownHosts } from "./known-hosts.ts";

/**
 * The known host a typed name means: itself when known as typed, else the one known host with the
 * same name ignoring case (`GPU-A` → `gpu-a`); unchanged when there is none or more than one, so the
 * use-case says it is unknown (with the nearest name).
 */
export function canonicalHost(deps: Pick<HostActionDeps, "fleet" | "config">, typed: string): string {
  if (Object.hasOwn(deps.config.hosts, typed) || deps.fleet.latest(typed) !== null) return typed;
  const lower = typed.toLowerCase();
  const matches = knownHosts(deps).filter((host) => host.toLowerCase() === lower);
  return matches.length === 1 ? (matches[0] ?? typed) : typed;
}
