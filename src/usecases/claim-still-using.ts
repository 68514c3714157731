import { groupClaims } from "../checks/claim-groups.ts";
import { slotsText } from "../checks/claim-target.ts";
import { formatDuration } from "../shared/duration.ts";
import { listWords } from "./action-text.ts";
import { type ClaimDeps, claimRulesOf } from "./claim-deps.ts";
import { holdersText } from "./claim-text.ts";

export interface StillUsingResult {
  kind: "noted" | "none" | "refused";
  text: string;
}

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
    if (claims.length === 0) return { kind: "none", text: "That claim has already ended." };
    const mine = claims.filter((claim) => claim.user === request.actor);
    if (mine.length === 0) {
      return {
        kind: "refused",
        text: `${holdersText(groupClaims(claims), nowMs, config.team.timezone)} Only the holder can answer for it.`,
      };
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
    return {
      kind: "noted",
      text:
        `Noted: ${listWords(groups.map(slotsText), "and")} stays yours. I'll ask again if it is idle for ` +
        `another ${formatDuration(rules.nudgeMs)}.`,
    };
  });
}
