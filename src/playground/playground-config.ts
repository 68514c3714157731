import { monthOf, rosterWarden } from "../checks/warden-rotation.ts";
import { type Config, configSchema } from "../config/schema.ts";

/** A person in the playground's workspace, and what they are there to show. */
export interface PlaygroundUser {
  id: string;
  name: string;
  /** Shown in the user switcher in the team's language, e.g. "owner of every host". */
  role: `playground.user.${"owner" | "claimant" | "warden" | "admin" | "stranger"}`;
}

export const PLAYGROUND_CHANNEL = { id: "C0GPU", name: "gpu" } as const;

export const OWNER = "U0ALICE";
export const CLAIMANT = "U0BOB";
export const WARDEN = "U0CAROL";
export const ADMIN = "U0DAVE";
export const STRANGER = "U0EVE";

export const PLAYGROUND_USERS: readonly PlaygroundUser[] = [
  { id: OWNER, name: "alice", role: "playground.user.owner" },
  { id: CLAIMANT, name: "bob", role: "playground.user.claimant" },
  { id: WARDEN, name: "carol", role: "playground.user.warden" },
  { id: ADMIN, name: "dave", role: "playground.user.admin" },
  { id: STRANGER, name: "eve", role: "playground.user.stranger" },
];

/**
 * The seed whose six hosts play: gpu-a forgotten (idle for days), gpu-b training, gpu-c a notebook
 * holding memory at 0 %, gpu-d inference, gpu-e flaky, gpu-f interactive.
 */
export const PLAYGROUND_SEED = 267;
export const PLAYGROUND_HOSTS = 6;
export const PLAYGROUND_GPUS_PER_HOST = 4;

/**
 * The playground's whole configuration: the team settings of the real one (name, time zone,
 * currency, HTTP address), and everything else its own, so no real host or store is ever touched:
 * a simulated fleet, an in-memory store, a stop that is a webhook to the fleet's power switch
 * (`powerUrl`), a roster whose turn this month (at `nowMs`) is {@link WARDEN}.
 */
export function playgroundConfig(real: Config, options: { powerUrl: string; nowMs: number }): Config {
  const { timezone } = real.team;
  const month = monthOf(options.nowMs, timezone);
  const roster = rosterWarden([WARDEN, ADMIN], month) === WARDEN ? [WARDEN, ADMIN] : [ADMIN, WARDEN];
  const stop = { webhook: `${options.powerUrl}/stop`, timeout_seconds: 10 };
  const start = { webhook: `${options.powerUrl}/start`, timeout_seconds: 10 };
  const owned = { owners: [OWNER], stop, start, rated_watts: 2800 };
  return configSchema.parse({
    team: real.team,
    http: real.http,
    slack: { channel: PLAYGROUND_CHANNEL.id, admins: [ADMIN] },
    poll: { interval_seconds: 300 },
    store: { path: ":memory:" },
    warden: { roster },
    sources: [
      {
        kind: "simulated",
        hosts: PLAYGROUND_HOSTS,
        gpus_per_host: PLAYGROUND_GPUS_PER_HOST,
        seed: PLAYGROUND_SEED,
      },
    ],
    hosts: {
      "gpu-a": { ...owned, purchase_price: 240_000 },
      "gpu-b": { ...owned, purchase_price: 60_000 },
      "gpu-c": { ...owned, purchase_price: 150_000 },
      "gpu-d": { ...owned, never_stop: true, purchase_price: 150_000 },
      "gpu-e": { ...owned, cost_per_hour: 14, rented: true },
      "gpu-f": { ...owned, cost_per_hour: 9, rented: true },
    },
  });
}
