import { beginStop, runStop, type StopHostDeps } from "./stop-host.ts";
import { digestEntries } from "./storm-digest.ts";
import type { StopAllMineView } from "./storm-words.ts";

/**
 * Stops the actor's hosts of a storm digest, each through the stop use-case on its own: authorised,
 * re-checked (still idle), run once and audited per host. A host whose alert is over is left alone.
 */
export async function stopAllMine(
  deps: StopHostDeps,
  digestId: number,
  actor: string,
): Promise<StopAllMineView> {
  const mine = digestEntries(deps.state, digestId).filter(({ host }) => deps.owners(host).includes(actor));
  const view: StopAllMineView = { stopped: [], notStopped: [], over: [] };
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
    const result = await runStop(deps, plan);
    (result.kind === "failed" ? view.notStopped : view.stopped).push(host);
  }
  return view;
}
