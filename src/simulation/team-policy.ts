import { MINUTE_MS } from "../shared/clock.ts";
import type { TeamLedger } from "./team-ledger.ts";
import { hasGpuProcess } from "./team-readings.ts";
import type { PeopleHooks, TeamWorld } from "./team-world.ts";

/** The policy names the outcome benchmark compares. */
export const POLICY_NAMES = [
  "none",
  "gpu-warden",
  "gpu-warden-autostop",
  "autostop-5",
  "autostop-30",
  "nightly",
] as const;
export type PolicyName = (typeof POLICY_NAMES)[number];

/** A way of running the team's machines: acts on the world once a minute, after the people. */
export interface TeamPolicy {
  readonly name: string;
  /** How the people's own actions (claims, switching a host off by hand) go under this policy. */
  readonly hooks: PeopleHooks;
  step(nowMs: number): Promise<void>;
  close(): Promise<void>;
}

/** Without a bot, a person switches a host off by hand. */
export function manualHooks(world: TeamWorld, ledger: TeamLedger): PeopleHooks {
  return {
    runStarted() {},
    runFinishedNoticed() {},
    tidy(person, host) {
      world.powerOff(host, "person", world.params.people[person]!.id, ledger.idleForMin(host));
    },
  };
}

/** `none`: no bot; only people switch hosts off. */
export function nonePolicy(world: TeamWorld, ledger: TeamLedger): TeamPolicy {
  return { name: "none", hooks: manualHooks(world, ledger), step: async () => {}, close: async () => {} };
}

/**
 * `autostop-N`: a host with no GPU process for N minutes is stopped, whatever its utilisation,
 * memory or logins (as SkyPilot's and dstack's idle autostop do).
 */
export function autostopPolicy(world: TeamWorld, ledger: TeamLedger, minutes: number): TeamPolicy {
  const lastProcessMs = new Map<string, number>();
  return {
    name: `autostop-${minutes}`,
    hooks: manualHooks(world, ledger),
    async step(nowMs) {
      for (const host of world.hosts) {
        const name = host.spec.name;
        if (host.power !== "on") continue;
        if (hasGpuProcess(host)) {
          lastProcessMs.set(name, nowMs);
          continue;
        }
        const sinceMs = Math.max(lastProcessMs.get(name) ?? world.params.startMs, host.readyAtMs);
        if (nowMs - sinceMs >= minutes * MINUTE_MS) {
          world.powerOff(name, "policy", `autostop-${minutes}`, ledger.idleForMin(name));
        }
      }
    },
    close: async () => {},
  };
}

/** `nightly`: every host stopped at 19:00, started again at 08:00 on weekdays (team time zone). */
export function nightlyPolicy(world: TeamWorld, ledger: TeamLedger): TeamPolicy {
  return {
    name: "nightly",
    hooks: manualHooks(world, ledger),
    async step(nowMs) {
      const cal = world.calendar;
      const minuteOfDay = Math.round(cal.localHour(nowMs) * 60);
      if (minuteOfDay === 19 * 60) {
        for (const host of world.hosts) {
          world.powerOff(host.spec.name, "policy", "nightly", ledger.idleForMin(host.spec.name));
        }
      } else if (minuteOfDay === 8 * 60 && !cal.isWeekend(cal.dayOf(nowMs))) {
        for (const host of world.hosts) world.powerOn(host.spec.name, "nightly");
      }
    },
    close: async () => {},
  };
}
