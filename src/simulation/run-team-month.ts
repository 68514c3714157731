import { ManualClock, MINUTE_MS } from "../shared/clock.ts";
import { teamConfig } from "./team-config.ts";
import type { TeamEvent } from "./team-events.ts";
import { TeamLedger } from "./team-ledger.ts";
import type { TeamParams } from "./team-params.ts";
import {
  autostopPolicy,
  manualHooks,
  nightlyPolicy,
  nonePolicy,
  type PolicyName,
  type TeamPolicy,
} from "./team-policy.ts";
import { TeamWorld } from "./team-world.ts";
import { createWardenPolicy } from "./warden-policy.ts";

/** What one policy did to the team's month, as the outcome benchmark reports it. Money in the team currency. */
export interface PolicyFigures {
  idle_cost: number;
  total_cost: number;
  /** Stops that interrupted a run, or killed a notebook whose person came back within the day. */
  false_stops: number;
  /** GPU-hours since the last checkpoint of every interrupted run. */
  work_lost_gpu_hours: number;
  /** From a host's every GPU going idle to its stop (stops of idle hosts, by anyone). */
  stop_delay_p50_min: number | null;
  stop_delay_p90_min: number | null;
  /** Idle alerts, notices, escalations and DMs, per person per week. */
  interruptions_per_person_week: number;
  stops: number;
  /** Times someone had to start a stopped host (or wait for one booting), and the minutes waited. */
  start_waits: number;
  start_wait_min: number;
  idle_host_hours: number;
}

export interface TeamMonth {
  policy: string;
  figures: PolicyFigures;
  events: TeamEvent[];
  runSeconds: number;
}

/** Runs the team's simulated month under one policy, minute by minute on a manual clock. */
export async function runTeamMonth(
  params: TeamParams,
  policyName: PolicyName,
  options: { storePath?: string } = {},
): Promise<TeamMonth> {
  const startedAt = performance.now();
  const clock = new ManualClock(params.startMs);
  const world = new TeamWorld(params, {
    runStarted() {},
    runFinishedNoticed() {},
    tidy() {},
  });
  const ledger = new TeamLedger(world, teamConfig(params, { autoStop: false }));
  world.hooks = manualHooks(world, ledger);
  const policy = createPolicy(policyName, world, ledger, clock, options.storePath);
  world.hooks = policy.hooks;
  const minutes = params.days * 24 * 60;
  try {
    for (let minute = 0; minute < minutes; minute++) {
      const nowMs = params.startMs + minute * MINUTE_MS;
      clock.set(nowMs);
      world.tick(nowMs);
      await policy.step(nowMs);
      ledger.account();
    }
  } finally {
    await policy.close();
  }
  return {
    policy: policy.name,
    figures: figuresOf(world.events, ledger, params),
    events: world.events,
    runSeconds: (performance.now() - startedAt) / 1000,
  };
}

function createPolicy(
  name: PolicyName,
  world: TeamWorld,
  ledger: TeamLedger,
  clock: ManualClock,
  storePath: string | undefined,
): TeamPolicy {
  switch (name) {
    case "none":
      return nonePolicy(world, ledger);
    case "autostop-5":
      return autostopPolicy(world, ledger, 5);
    case "autostop-30":
      return autostopPolicy(world, ledger, 30);
    case "nightly":
      return nightlyPolicy(world, ledger);
    case "gpu-warden":
    case "gpu-warden-autostop":
      return createWardenPolicy({
        world,
        ledger,
        clock,
        autoStop: name === "gpu-warden-autostop",
        ...(storePath === undefined ? {} : { storePath }),
      });
    default:
      return name satisfies never;
  }
}

/** The figures from the event log and the ledger. */
export function figuresOf(
  events: readonly TeamEvent[],
  ledger: TeamLedger,
  params: TeamParams,
): PolicyFigures {
  let falseStops = 0;
  let lost = 0;
  let stops = 0;
  let waits = 0;
  let waitMin = 0;
  let messages = 0;
  const delays: number[] = [];
  for (const event of events) {
    switch (event.kind) {
      case "host-stopped":
        stops++;
        if (event.falseStop) falseStops++;
        for (const run of event.interruptedRuns) lost += run.lostGpuHours;
        if (event.idleForMin !== null) delays.push(event.idleForMin);
        break;
      case "start-wait":
        waits++;
        waitMin += event.waitMin;
        break;
      case "message":
        messages++;
        break;
      default:
        break;
    }
  }
  const personWeeks = (params.people.length * params.days) / 7;
  return {
    idle_cost: round(ledger.idleCost),
    total_cost: round(ledger.totalCost),
    false_stops: falseStops,
    work_lost_gpu_hours: round(lost),
    stop_delay_p50_min: quantile(delays, 0.5),
    stop_delay_p90_min: quantile(delays, 0.9),
    interruptions_per_person_week: round(messages / personWeeks),
    stops,
    start_waits: waits,
    start_wait_min: round(waitMin),
    idle_host_hours: round(ledger.idleHostMinutes / 60),
  };
}

function quantile(values: readonly number[], q: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return round(sorted[rank]!, 1);
}

function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
