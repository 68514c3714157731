import { type ClaimGroup, groupClaims } from "../../checks/claim-groups.ts";
import { type ClaimDeps, claimRulesOf } from "./claim-deps.ts";

export type StillUsingResult =
  /** The idle time of `groups` counts from now; the next nudge is `nudgeMs` of idleness away. */
  | { kind: "noted"; groups: ClaimGroup[]; nudgeMs: number }
  /** The claim had ended. */
  | { kind: "none" }
  /** Someone else's claim: only the holder answers. */
  | { kind: "refused"; holders: ClaimGroup[] };

/**
 * *Still using it* on a claimed-but-idle nudge: idle time of the claims counts from now again, so
 * the next nudge (and any automatic release) is a full idle period away. Only the holder. Audited.
 */
export function claimStillUsing(
  deps: ClaimDeps,
  request: { actor: string; claimIds: readonly number[] },
): StillUsingResult {
  const { state, clock, config } = deps;
  const nowMs = clock.now();
  const rules = claimRulesOf(config);
  return state.transaction((): StillUsingResult => {
    const claims = state.claims.unreleased(request.claimIds).filter((claim) => claim.untilMs > nowMs);
    if (claims.length === 0) return { kind: "none" };
    const mine = claims.filter((claim) => claim.user === request.actor);
    if (mine.length === 0) {
      return { kind: "refused", holders: groupClaims(claims) };
    }
    state.claims.markStillUsing(
      mine.map((claim) => claim.id),
      nowMs,
    );
    const groups = groupClaims(mine);
    for (const group of groups) {
      state.audit.record({
        atMs: nowMs,
        actor: request.actor,
        action: "claim-still-using",
        host: group.host,
        detail: { claimIds: group.claimIds, gpus: group.gpus },
      });
    }
    return { kind: "noted", groups, nudgeMs: rules.nudgeMs };
  });
}
