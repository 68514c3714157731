import { type HygienePolicy, hygieneOutcome } from "../../checks/hygiene.ts";
import type { Config } from "../../config/schema.ts";
import { HYGIENE_CHECKS, type HygieneProbe, type HygieneResult } from "../../domain/hygiene.ts";
import type { Clock } from "../../shared/clock.ts";
import { mapWithConcurrency } from "../../shared/map-with-concurrency.ts";

export interface CheckHygieneDeps {
  probe: HygieneProbe;
  policy: HygienePolicy;
  clock: Clock;
  /** Each check on each host gives up after this long: that check is "could not check". */
  checkTimeoutMs: number;
  /** Hosts read at once. */
  concurrency: number;
}

/** The team's hygiene thresholds from the configuration. */
export function hygienePolicy(config: Pick<Config, "hygiene">): HygienePolicy {
  const h = config.hygiene;
  return {
    clientAliveMaxSeconds: h.client_alive_max_seconds,
    diskFullPct: h.disk_full_pct,
    dockerReclaimableBytes: h.docker_reclaimable_gib * 2 ** 30,
    imageUnusedDays: h.image_unused_days,
    sessionIdleMinutes: h.session_idle_hours * 60,
  };
}

/**
 * Runs every hygiene check on `hosts` (all the probe reaches when empty), read-only, each check on
 * its own with its own timeout: a host that does not answer is "could not check" for each check,
 * never fine. Results in host order, then check order.
 */
export async function checkHygiene(
  deps: CheckHygieneDeps,
  hosts: readonly string[],
  signal?: AbortSignal,
): Promise<HygieneResult[]> {
  const targets = hosts.length === 0 ? deps.probe.hosts : hosts;
  const perHost = await mapWithConcurrency(targets, deps.concurrency, (host) =>
    Promise.all(
      HYGIENE_CHECKS.map(async (check): Promise<HygieneResult> => {
        const read = await deps.probe.probe(host, check, deps.checkTimeoutMs, signal);
        const outcome = read.ok
          ? hygieneOutcome(read.facts, deps.policy, deps.clock.now())
          : ({ status: "could-not-check", why: read.why } as const);
        return { host, check, outcome };
      }),
    ),
  );
  return perHost.flat();
}
