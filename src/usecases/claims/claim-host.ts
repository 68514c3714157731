import type { ClaimDeps } from "./claim-deps.ts";
import { type ClaimGpusResult, claimGpus } from "./claim-gpus.ts";

export interface ClaimRequest {
  host: string;
  /** Slack user id. */
  actor: string;
  alertId?: number | undefined;
}

/**
 * The alert's *Claim it*: a real claim ({@link claimGpus}) of the whole host for the clicker, for
 * `claims.default_hours`, with its reminder, nudges and expiry; posted in the alert's thread.
 */
export function claimHost(deps: ClaimDeps, request: ClaimRequest): ClaimGpusResult {
  return claimGpus(deps, {
    actor: request.actor,
    target: { kind: "slots", slots: { host: request.host, gpus: null } },
    durationMs: null,
    alertId: request.alertId,
  });
}
