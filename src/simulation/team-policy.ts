import { MINUTE_MS } from "../shared/clock.ts";
import type { TeamLedger } from "./team-ledger.ts";
import { hasGpuProcess, skypilotBusy } from "./team-readings.ts";
import type { PeopleHooks, SimHost, TeamWorld } from "./team-world.ts";

/** The policy names the outcome benchmark compares. */
export const POLICY_NAMES = [
  "none",
  "gpu-warden",
  "gpu-warden-autostop",
  "skypilot-autostop-5",
  "skypilot-autostop-30",
  "process-autostop-5",
  "process-autostop-30",
  "nightly",
  "nightly-smart",
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
 * `process-autostop-N`: a host with no GPU process for N minutes is stopped, whatever its
 * utilisation, memory, jobs or logins (a process-based idle rule, as dstack's idle duration).
 */
export function processAutostopPolicy(world: TeamWorld, ledger: TeamLedger, minutes: number): TeamPolicy {
  return idleTimerPolicy(world, ledger, `process-autostop-${minutes}`, minutes, hasGpuProcess);
}

/**
 * `skypilot-autostop-N`: SkyPilot's `autostop` with its default `wait_for: jobs_and_ssh` — a host
 * is idle while no job of its queue is pending or running (a run is one job from its setup to its
 * end, stage gaps included) and no SSH session is open; after N idle minutes it is stopped. GPU
 * utilisation and processes are never looked at.
 */
export function skypilotAutostopPolicy(world: TeamWorld, ledger: TeamLedger, minutes: number): TeamPolicy {
  return idleTimerPolicy(world, ledger, `skypilot-autostop-${minutes}`, minutes, (host) =>
    skypilotBusy(world, host),
  );
}

function idleTimerPolicy(
  world: TeamWorld,
  ledger: TeamLedger,
  name: string,
  minutes: number,
  busy: (host: SimHost) => boolean,
): TeamPolicy {
  const lastBusyMs = new Map<string, number>();
  return {
    name,
    hooks: manualHooks(world, ledger),
    async step(nowMs) {
      for (const host of world.hosts) {
        const hostName = host.spec.name;
        if (host.power !== "on") continue;
        if (busy(host)) {
          lastBusyMs.set(hostName, nowMs);
          continue;
        }
        const sinceMs = Math.max(lastBusyMs.get(hostName) ?? world.params.startMs, host.readyAtMs);
        if (nowMs - sinceMs >= minutes * MINUTE_MS) {
          world.powerOff(hostName, "policy", name, ledger.idleForMin(hostName));
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

/**
 * `nightly-smart`: at 19:00 every host without a GPU process is stopped; at 08:00 on weekdays only
 * the hosts someone will use that day are started (the home host of each person who plans a run or
 * a notebook that day, as a team's own start schedule would list them). Anyone else starts a host by
 * hand when they need it, and waits for it.
 */
export function nightlySmartPolicy(world: TeamWorld, ledger: TeamLedger): TeamPolicy {
  return {
    name: "nightly-smart",
    hooks: manualHooks(world, ledger),
    async step(nowMs) {
      const cal = world.calendar;
      const minuteOfDay = Math.round(cal.localHour(nowMs) * 60);
      if (minuteOfDay === 19 * 60) {
        for (const host of world.hosts) {
          if (hasGpuProcess(host)) continue;
          world.powerOff(host.spec.name, "policy", "nightly-smart", ledger.idleForMin(host.spec.name));
        }
      } else if (minuteOfDay === 8 * 60 && !cal.isWeekend(cal.dayOf(nowMs))) {
        for (const name of hostsUsedOn(world, cal.dayOf(nowMs))) world.powerOn(name, "nightly-smart");
      }
    },
    close: async () => {},
  };
}

function hostsUsedOn(world: TeamWorld, day: number): Set<string> {
  const used = new Set<string>();
  world.params.people.forEach((person, index) => {
    const plan = world.calendar.plan(index, day);
    if (plan.works && (plan.run !== null || plan.notebook !== null)) used.add(person.homeHost);
  });
  return used;
}
