import { describeAction } from "../../executors/run-action.ts";
import type { ClaimDeps } from "../claims/claim-deps.ts";
import { startIfStopped } from "./start-host.ts";

/**
 * A claim or queue grant of a host the bot stopped starts it (once per stop: later claims join the
 * first start) and tells the claimant it is being started; they get a DM when it reports again.
 */
export function startForClaim(deps: ClaimDeps, host: string, user: string, trigger: "claim" | "grant"): void {
  const began = startIfStopped(deps, host, user, trigger);
  const start = deps.config.hosts[host]?.start;
  if (start === undefined || (began.kind !== "begun" && began.kind !== "joined")) return;
  const steps = [describeAction(start)];
  deps.alerts.tell(user, { kind: "start-running", host, actor: null, trigger, user, steps });
}
