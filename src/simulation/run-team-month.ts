import { ManualClock, MINUTE_MS } from "../shared/clock.ts";
import { figuresOf, type PolicyFigures } from "./policy-figures.ts";
import { ReadingLog } from "./reading-log.ts";
import { teamConfig } from "./team-config.ts";
import type { TeamEvent } from "./team-events.ts";
import { TeamLedger } from "./team-ledger.ts";
import type { TeamParams } from "./team-params.ts";
import {
  manualHooks,
  nightlyPolicy,
  nightlySmartPolicy,
  nonePolicy,
  type PolicyName,
  processAutostopPolicy,
  skypilotAutostopPolicy,
  type TeamPolicy,
} from "./team-policy.ts";
import { TeamWorld } from "./team-world.ts";
import { createWardenPolicy } from "./warden-policy.ts";

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
  const readings = new ReadingLog(world);
  try {
    for (let minute = 0; minute < minutes; minute++) {
      const nowMs = params.startMs + minute * MINUTE_MS;
      clock.set(nowMs);
      world.tick(nowMs);
      await policy.step(nowMs);
      ledger.account();
      readings.record();
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
    case "skypilot-autostop-5":
      return skypilotAutostopPolicy(world, ledger, 5);
    case "skypilot-autostop-30":
      return skypilotAutostopPolicy(world, ledger, 30);
    case "process-autostop-5":
      return processAutostopPolicy(world, ledger, 5);
    case "process-autostop-30":
      return processAutostopPolicy(world, ledger, 30);
    case "nightly":
      return nightlyPolicy(world, ledger);
    case "nightly-smart":
      return nightlySmartPolicy(world, ledger);
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
