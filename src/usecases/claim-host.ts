import { formatDuration } from "../bot/parse-duration.ts";
import { HOUR_MS } from "../shared/clock.ts";
import type { Claim } from "../store/claim-store.ts";
import { localWhen, mention, unknownHostText } from "./action-text.ts";
import type { HostActionDeps } from "./authorise.ts";
import { knownHosts } from "./stop-host.ts";

/** How long the alert's *Claim it* takes a host for (the claims issue makes this configurable). */
export const DEFAULT_CLAIM_MS = 8 * HOUR_MS;

export interface ClaimRequest {
  host: string;
  /** Slack user id. */
  actor: string;
  alertId?: number | undefined;
}

export type ClaimResult =
  | { kind: "claimed"; claim: Claim; text: string }
  | { kind: "refused"; reason: "unknown-host" | "held" | "already-yours"; host: string; text: string };

/**
 * The minimal claim behind the alert's *Claim it*: the whole host for the clicker, for
 * {@link DEFAULT_CLAIM_MS}, unless someone else holds a claim on it. Audited, noted in the alert
 * thread, alert refreshed (so it names the claimant). Synchronous; the check and the insert are one
 * transaction, so two people clicking at once cannot both win.
 */
export function claimHost(deps: HostActionDeps, request: ClaimRequest): ClaimResult {
  const { state, clock, config } = deps;
  const { host, actor } = request;
  const nowMs = clock.now();
  const zone = config.team.timezone;
  const known = knownHosts(deps);
  if (!known.includes(host)) {
    return { kind: "refused", reason: "unknown-host", host, text: unknownHostText(host, known) };
  }
  const outcome = state.transaction((): ClaimResult => {
    const active = state.claims.activeOn(host, nowMs);
    const mine = active.find((claim) => claim.user === actor && claim.gpuIndex === null);
    if (mine !== undefined) {
      return {
        kind: "refused",
        reason: "already-yours",
        host,
        text: `You already hold ${host} until ${localWhen(mine.untilMs, nowMs, zone)}.`,
      };
    }
    const other = active.find((claim) => claim.user !== actor);
    if (other !== undefined) {
      const what = other.gpuIndex === null ? host : `${host}:${other.gpuIndex}`;
      const note = other.note === "" ? "" : ` (${other.note})`;
      return {
        kind: "refused",
        reason: "held",
        host,
        text: `${what} is claimed by ${mention(other.user)} until ${localWhen(other.untilMs, nowMs, zone)}${note}.`,
      };
    }
    const claim = state.claims.add({
      host,
      gpuIndex: null,
      user: actor,
      fromMs: nowMs,
      untilMs: nowMs + DEFAULT_CLAIM_MS,
      note: "",
    });
    state.audit.record({
      atMs: nowMs,
      actor,
      action: "claim",
      host,
      detail: { claimId: claim.id, untilMs: claim.untilMs, alertId: request.alertId ?? null },
    });
    const until = `${localWhen(claim.untilMs, nowMs, zone)} (${formatDuration(DEFAULT_CLAIM_MS)})`;
    return { kind: "claimed", claim, text: `You hold ${host} until ${until}.` };
  });
  if (outcome.kind === "claimed") {
    const until = localWhen(outcome.claim.untilMs, nowMs, zone);
    deps.alerts.postInThread(host, `${host} claimed by ${mention(actor)} until ${until}.`);
    deps.alerts.refresh(host);
  }
  return outcome;
}
