import { type Config, configSchema } from "../config/schema.ts";
import type { TeamParams } from "./team-params.ts";

/** Where the simulated hosts' stop webhook points; the simulation answers it by switching the host off. */
export const SIM_STOP_URL = "http://simulated-fleet.invalid/stop";
/** Where their start webhook points (a cloud API or Wake-on-LAN behind a webhook); the simulation boots the host. */
export const SIM_START_URL = "http://simulated-fleet.invalid/start";

/**
 * The gpu-warden configuration of the simulated team: its hosts with owners, prices and a stop
 * webhook and a start webhook, the team's time zone, each person's login (`team.logins`), the warden
 * roster; every rule at its default. `autoStop` adds
 * `auto_stop` (30 min, the least allowed) to every host.
 */
export function teamConfig(params: TeamParams, options: { autoStop: boolean; storePath?: string }): Config {
  const hosts: Record<string, unknown> = {};
  for (const host of params.hosts) {
    hosts[host.name] = {
      owners: host.owners,
      ...(host.price.kind === "cloud"
        ? { cost_per_hour: host.price.costPerHour }
        : { purchase_price: host.price.purchasePrice, rated_watts: host.price.ratedWatts }),
      stop: { webhook: `${SIM_STOP_URL}/${host.name}` },
      start: { webhook: `${SIM_START_URL}/${host.name}` },
      ...(options.autoStop ? { auto_stop: {} } : {}),
    };
  }
  return configSchema.parse({
    team: {
      name: "simulated team",
      timezone: params.timezone,
      currency: params.currency,
      logins: Object.fromEntries(params.people.map((person) => [person.id, [person.login]])),
    },
    slack: { channel: "C0SIMGPU" },
    store: { path: options.storePath ?? ":memory:" },
    warden: { roster: params.wardenRoster },
    costs: { electricity: { price_per_kwh: params.electricityPerKWh } },
    hosts,
  });
}
