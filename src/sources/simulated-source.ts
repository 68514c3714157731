import type { SourceConfig } from "../config/schema.ts";
import type { HostObservation } from "../domain/observation.ts";
import type { Source } from "../domain/source.ts";
import type { Clock } from "../shared/clock.ts";
import { SimulatedFleet } from "./simulated-fleet.ts";

export type SimulatedSourceConfig = Extract<SourceConfig, { kind: "simulated" }>;

export interface SimulatedSourceDeps {
  /** The only time the fleet knows: the playground and tests drive it with a `ManualClock`. */
  clock: Clock;
  /** The team's IANA time zone (`team.timezone`): working hours, nights and weekends follow it. */
  timezone: string;
}

/** A `Source` over a {@link SimulatedFleet}; `fleet` is exposed for ground truth (roles, busy intervals). */
export interface SimulatedSource extends Source {
  readonly kind: "simulated";
  readonly fleet: SimulatedFleet;
}

/** The simulated fleet as a metric source: each poll reports the fleet at `clock.now()`. */
export function createSimulatedSource(
  config: SimulatedSourceConfig,
  deps: SimulatedSourceDeps,
): SimulatedSource {
  const fleet = new SimulatedFleet({
    hosts: config.hosts,
    gpusPerHost: config.gpus_per_host,
    seed: config.seed,
    timezone: deps.timezone,
  });
  const hosts = fleet.hosts.map((host) => host.name);
  return {
    kind: "simulated",
    hosts,
    fleet,
    poll(signal: AbortSignal): Promise<HostObservation[]> {
      if (signal.aborted) return Promise.reject(signal.reason);
      return Promise.resolve(fleet.observe(deps.clock.now()));
    },
  };
}
