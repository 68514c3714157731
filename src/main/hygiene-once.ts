import type { Config } from "../config/schema.ts";
import type { HygieneResult } from "../domain/hygiene.ts";
import type { Clock } from "../shared/clock.ts";
import { createHostShell } from "../sources/host-shell.ts";
import { createHygieneProbe } from "../sources/hygiene-probe.ts";
import { type CheckHygieneDeps, checkHygiene, hygienePolicy } from "../usecases/warden/check-hygiene.ts";

/** The hygiene checks' deps from the configuration: the sources' ssh and local access. */
export function hygieneDeps(
  config: Pick<Config, "sources" | "hygiene">,
  hostName: string,
  clock: Clock,
): CheckHygieneDeps {
  const shell = createHostShell(config, hostName);
  return {
    probe: createHygieneProbe(shell, { sshdConfig: config.hygiene.sshd_config }),
    policy: hygienePolicy(config),
    clock,
    checkTimeoutMs: config.hygiene.check_timeout_seconds * 1000,
    concurrency: config.hygiene.concurrency,
  };
}

/** `gpu-warden hygiene`: every check on `hosts` (all with access when empty); unknown names are returned apart. */
export async function hygieneOnce(
  config: Pick<Config, "sources" | "hygiene">,
  hostName: string,
  clock: Clock,
  hosts: readonly string[],
): Promise<{ results: HygieneResult[]; unknown: string[]; known: string[] }> {
  const deps = hygieneDeps(config, hostName, clock);
  const known = deps.probe.hosts;
  const unknown = hosts.filter((host) => !known.includes(host));
  if (unknown.length > 0 || known.length === 0) return { results: [], unknown, known };
  return { results: await checkHygiene(deps, hosts), unknown, known };
}
