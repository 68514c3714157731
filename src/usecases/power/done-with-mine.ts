import { holdersIfAllKnown, loginsOn, peopleOfLogins } from "../../checks/login-people.ts";
import type { HostObservation } from "../../domain/observation.ts";
import { doneOn, holdsEverythingOn, holdsSomethingOn } from "../authorise.ts";
import type { StillOnIt } from "./stop-facts.ts";
import {
  beginStop,
  runStop,
  type StopHostDeps,
  type StopPlan,
  type StopRefusal,
  type StopResult,
} from "./stop-host.ts";

export interface DoneWithMineRequest {
  host: string;
  /** Slack user id of the person who pressed *Done with mine*. */
  actor: string;
  /** The idle alert whose button it was. */
  alertId: number;
}

/**
 * What a *Done with mine* did:
 * - `done-refused`: the alert is no longer open (`no-alert`), or nothing on the host is the person's
 *   (`nothing-of-yours`: no process or session of their `team.logins`);
 * - `noted`: said; the host still holds others' work or claims (`others`);
 * - otherwise everything on the host is now held by people who said it: the stop's own begin (a
 *   {@link StopPlan} to run, or its refusal).
 */
export type DoneWithMineBegun =
  | { kind: "done-refused"; reason: "no-alert" | "nothing-of-yours"; host: string }
  | { kind: "noted"; host: string; others: StillOnIt }
  | StopRefusal
  | StopPlan;

/**
 * *Done with mine* on an idle alert: the person lets their own sessions and processes on the host go
 * (their work, not the host: nothing is stopped for them alone). It holds across the host's later
 * alerts until they type there or start a process there again, or the host is stopped. When
 * everything on the host (every process, session and claim) belongs to people whose word holds, the
 * host is stopped through the same stop (re-check, once, audited) with the last of them as
 * the actor. Each new mark is audited and said in the alert's thread with who still holds the host.
 */
export function beginDoneWithMine(deps: StopHostDeps, request: DoneWithMineRequest): DoneWithMineBegun {
  const { state, clock } = deps;
  const { host, actor, alertId } = request;
  const alert = state.alerts.byId(alertId);
  if (alert === null || alert.resolvedAtMs !== null || alert.host !== host || alert.kind !== "idle") {
    return { kind: "done-refused", reason: "no-alert", host };
  }
  if (!holdsSomethingOn(deps, host, actor)) return { kind: "done-refused", reason: "nothing-of-yours", host };
  const nowMs = clock.now();
  const observation = deps.fleet.latest(host)?.observation ?? null;
  const before = doneOn(deps, host, observation);
  const pids = ownPids(observation, deps.config.team.logins[actor] ?? []);
  state.transaction(() => {
    state.doneMarks.mark({ host, user: actor, alertId, atMs: nowMs, pids });
    state.audit.record({ atMs: nowMs, actor, action: "done-with-mine", host, detail: { alertId, pids } });
  });
  // NOTE: the mark just made holds (its pids are the person's processes now, its time is now).
  const done = before.includes(actor) ? before : [...before, actor];
  if (holdsEverythingOn(deps, host, actor, nowMs, done)) {
    return beginStop(deps, { host, actor, alertId, reason: "everyone on it is done" }); // words-ok: audit reason code
  }
  const others = stillOnIt(deps, observation, host, done, nowMs);
  if (!before.includes(actor)) {
    deps.alerts.postNote(host, { kind: "done-with-mine", host, user: actor, others });
    deps.alerts.refresh(host);
  }
  return { kind: "noted", host, others };
}

/** {@link beginDoneWithMine}, then the stop when it began (the simulation's people press it so). */
export async function doneWithMine(
  deps: StopHostDeps,
  request: DoneWithMineRequest,
): Promise<Exclude<DoneWithMineBegun, StopPlan> | StopResult> {
  const begun = beginDoneWithMine(deps, request);
  return begun.kind === "begun" ? runStop(deps, begun) : begun;
}

/** The pids of the GPU processes of `logins` on the host. */
function ownPids(observation: HostObservation | null, logins: readonly string[]): number[] {
  if (observation === null || !observation.ok) return [];
  return observation.gpus.flatMap((gpu) =>
    gpu.processes.flatMap((process) =>
      process.user !== null && logins.includes(process.user) && process.pid !== null ? [process.pid] : [],
    ),
  );
}

/** The people and logins holding the host, and the claimants, other than `done`. */
function stillOnIt(
  deps: StopHostDeps,
  observation: HostObservation | null,
  host: string,
  done: readonly string[],
  nowMs: number,
): StillOnIt {
  const logins = loginsOn(observation);
  const map = deps.config.team.logins;
  const mapped = new Set(Object.values(map).flat());
  const holders = [
    ...peopleOfLogins(map, logins),
    ...deps.state.claims.activeOn(host, nowMs).map((claim) => claim.user),
  ];
  return {
    people: [...new Set(holders)].filter((user) => !done.includes(user)),
    logins: [...logins].filter((login) => !mapped.has(login)).sort(),
    unknownProcesses: holdersIfAllKnown(observation) === null && logins.size > 0,
  };
}
