import { type ClaimGroup, groupClaims } from "../../checks/claim-groups.ts";
import { slotsText } from "../../checks/claim-target.ts";
import type { Claim } from "../../domain/claim.ts";
import { publishHome } from "../fleet/publish-home.ts";
import { BOT_ACTOR } from "../power/action-text.ts";
import { grantWaiting } from "../queue/queue-grant-pass.ts";
import type { ClaimDeps } from "./claim-deps.ts";
import { notifyWaiters } from "./claim-waitlist.ts";
import type { ClaimEnding } from "./claim-words.ts";

/** The audit action of each way a claim ends. */
const END_ACTIONS: Readonly<Record<ClaimEnding["kind"] | "released", string>> = {
  released: "claim-release",
  expired: "claim-expire",
  idle: "claim-auto-release",
  forced: "claim-force-release",
};

/**
 * Records claims that just ended: one audit entry per group (actor, time, GPUs, holder) and, unless
 * the holder ended them, a DM to the holder saying how. Synchronous; call inside the transaction
 * that ended them.
 */
export function recordEnded(
  deps: ClaimDeps,
  ended: readonly Claim[],
  how: { kind: "released" } | ClaimEnding,
  actor: string,
  nowMs: number,
): ClaimGroup[] {
  const groups = groupClaims(ended);
  for (const group of groups) {
    const endedAtMs = how.kind === "expired" ? group.untilMs : nowMs;
    deps.state.audit.record({
      atMs: nowMs,
      actor,
      action: END_ACTIONS[how.kind],
      host: group.host,
      forced: how.kind === "forced",
      detail: {
        claimIds: group.claimIds,
        holder: group.user,
        gpus: group.gpus,
        untilMs: group.untilMs,
        endedAtMs,
        note: group.note,
        ...(how.kind === "idle" ? { idleFromMs: how.idleFromMs } : {}),
      },
    });
    if (how.kind === "released") continue;
    const dm = deps.claimWords.ended(group, how, endedAtMs, { nowMs, zone: deps.config.team.timezone });
    deps.notifier.send("chat.postMessage", { channel: group.user, text: dm.text, blocks: dm.blocks });
    deps.logger.info(
      { host: group.host, claim: slotsText(group), holder: group.user, ending: how.kind, actor },
      "claim ended",
    );
  }
  return groups;
}

/** Claims past their end on `host` (every host when absent) end now, as expired. Synchronous. */
export function expireDue(deps: ClaimDeps, nowMs: number, host?: string): Claim[] {
  return deps.state.transaction(() => {
    const expired = deps.state.claims.expireDue(nowMs, BOT_ACTOR, host);
    recordEnded(deps, expired, { kind: "expired" }, BOT_ACTOR, nowMs);
    return expired;
  });
}

/**
 * What follows a change of claims: the waitlists of hosts where claims ended, a grant pass of the
 * waiting list when claims ended, the open idle alerts of the hosts (they name the claimants), and
 * the Home tabs of the people concerned.
 */
export function afterClaimsChanged(
  deps: ClaimDeps,
  change: { ended?: readonly Claim[]; hosts?: Iterable<string>; users?: Iterable<string> },
  nowMs: number,
): void {
  const ended = change.ended ?? [];
  const hosts = new Set([...(change.hosts ?? []), ...ended.map((claim) => claim.host)]);
  const users = new Set([...(change.users ?? []), ...ended.map((claim) => claim.user)]);
  for (const host of new Set(ended.map((claim) => claim.host))) notifyWaiters(deps, host, nowMs);
  if (ended.length > 0) grantWaiting(deps, nowMs);
  for (const host of hosts) deps.alerts.refresh(host);
  for (const user of users) {
    if (user !== BOT_ACTOR) publishHome(deps, user);
  }
}
