import { digestEntries } from "../alerts/storm-digest.ts";
import type { StopAllMineView } from "../alerts/storm-words.ts";
import { beginStop, runStop, type StopHostDeps, type StopPlan } from "./stop-host.ts";

/** The stops *Stop all mine* began (each to be run), and what the clicker is told at once. */
export interface StopAllMineBegun {
  view: StopAllMineView;
  plans: StopPlan[];
}

/**
 * Begins a stop of each of the actor's hosts of a storm digest, through the stop use-case on its
 * own: authorised, re-checked (still idle), run once and audited per host; each posts its progress
 * in its alert's thread. A host whose alert is over is left alone. Run the plans with {@link runStopAllMine}.
 */
export function beginStopAllMine(deps: StopHostDeps, digestId: number, actor: string): StopAllMineBegun {
  const mine = digestEntries(deps.state, digestId).filter(({ host }) => deps.owners(host).includes(actor));
  const view: StopAllMineView = { stopping: [], notStopped: [], over: [] };
  const plans: StopPlan[] = [];
  for (const { host, alertId } of mine) {
    if (deps.state.alerts.byId(alertId)?.state !== "open") {
      view.over.push(host);
      continue;
    }
    const plan = beginStop(deps, { host, actor, alertId, force: false, reason: "Stop all mine" }); // words-ok: audit reason code
    if (plan.kind === "refused") {
      view.notStopped.push(host);
      continue;
    }
    view.stopping.push(host);
    plans.push(plan);
  }
  return { view, plans };
}

/**
 * Runs the begun stops one after the other; each says how it went in its own thread. One that
 * throws does not keep the others from running (each holds its key); the first error is rethrown.
 */
export async function runStopAllMine(deps: StopHostDeps, plans: readonly StopPlan[]): Promise<void> {
  const errors: unknown[] = [];
  for (const plan of plans) await runStop(deps, plan).catch((error: unknown) => errors.push(error));
  if (errors.length > 0) throw errors[0];
}
