import { type ClaimGroup, groupClaims } from "../../checks/claim-groups.ts";
import { type GpuSlots, overlaps } from "../../checks/claim-target.ts";
import type { Config } from "../../config/schema.ts";
import type { Claim } from "../../domain/claim.ts";
import { isAdmin } from "../authorise.ts";
import { endReleasedGrants } from "../queue/queue-release.ts";
import type { ClaimDeps } from "./claim-deps.ts";
import { afterClaimsChanged, expireDue, recordEnded } from "./claim-effects.ts";
import { slotsProblem } from "./claim-gpus.ts";
import { type ClaimProblem, unknownHostOf } from "./claim-problem.ts";
import type { ForcerRole } from "./claim-words.ts";

/** What to release: bare `/gpu release` (your one claim), `all` yours, a host or GPUs, or claim rows (buttons). */
export type ReleaseTarget =
  | { kind: "default" }
  | { kind: "all" }
  | { kind: "slots"; slots: GpuSlots }
  | { kind: "ids"; claimIds: readonly number[] };

export type ReleaseResult =
  | {
      kind: "released";
      /** The actor's own claims released. */
      groups: ClaimGroup[];
      /** Other people's claims released by the cost warden or an admin. */
      forced: ClaimGroup[];
    }
  /** Nothing to release: the actor holds no claims, nobody holds `slots`, or the claim had ended. */
  | { kind: "none"; why: "no-claims" | "ended" }
  | { kind: "none"; why: "nobody-holds"; slots: GpuSlots }
  /** Someone else's claim, and the actor is neither the cost warden nor an admin. */
  | { kind: "refused"; holders: ClaimGroup[]; warden: string | null; admins: string[] }
  | { kind: "invalid"; problem: ClaimProblem };

/**
 * `/gpu release` and the Release buttons. Your own claims are released; someone else's only by
 * the cost warden or an admin (a force release: audited as such, the holder gets a DM), anyone else
 * is told who can. Claims past their end are ended as expired first. Waitlists, alerts and Home
 * tabs follow.
 */
export function releaseClaims(
  deps: ClaimDeps,
  request: { actor: string; target: ReleaseTarget },
): ReleaseResult {
  const { state, config, clock, warden } = deps;
  const { actor, target } = request;
  const nowMs = clock.now();
  if (target.kind === "slots") {
    const unknown = unknownHostOf(deps, target.slots.host);
    if (unknown !== null) return { kind: "invalid", problem: unknown };
  }
  const ended: Claim[] = [];
  const outcome = state.transaction((): ReleaseResult => {
    ended.push(...expireDue(deps, nowMs, target.kind === "slots" ? target.slots.host : undefined));
    const chosen = choose(deps, actor, target, nowMs);
    if ("kind" in chosen) return chosen;
    const { mine, theirs } = chosen;
    const currentWarden = warden.current(nowMs);
    if (theirs.length > 0 && currentWarden !== actor && !isAdmin(actor, config)) {
      const holders = groupClaims(theirs);
      state.audit.record({
        atMs: nowMs,
        actor,
        action: "claim-release-refused",
        host: holders[0]?.host ?? null,
        detail: { claimIds: theirs.map((claim) => claim.id), holders: holders.map((group) => group.user) },
      });
      return { kind: "refused", holders, warden: currentWarden, admins: [...config.slack.admins] };
    }
    const released = state.claims.release(
      mine.map((claim) => claim.id),
      nowMs,
      actor,
      "released",
    );
    const groups = recordEnded(deps, released, { kind: "released" }, actor, nowMs);
    const forcedClaims = state.claims.release(
      theirs.map((claim) => claim.id),
      nowMs,
      actor,
      "forced",
    );
    const role = forcerRole(actor, currentWarden, config);
    const forced = recordEnded(deps, forcedClaims, { kind: "forced", actor, role }, actor, nowMs);
    ended.push(...released, ...forcedClaims);
    endReleasedGrants(deps, [...released, ...forcedClaims], actor, nowMs);
    return { kind: "released", groups, forced };
  });
  if (ended.length > 0) afterClaimsChanged(deps, { ended, users: [actor] }, nowMs);
  return outcome;
}

/** The actor's claims and other people's that the target names, or why there are none. */
function choose(
  deps: ClaimDeps,
  actor: string,
  target: ReleaseTarget,
  nowMs: number,
): { mine: Claim[]; theirs: Claim[] } | Exclude<ReleaseResult, { kind: "released" }> {
  const { state } = deps;
  switch (target.kind) {
    case "default":
    case "all": {
      const mine = state.claims.activeOf(actor, nowMs);
      const groups = groupClaims(mine);
      if (groups.length === 0) return { kind: "none", why: "no-claims" };
      if (target.kind === "default" && groups.length > 1) {
        return { kind: "invalid", problem: { kind: "say-which", groups } };
      }
      return { mine, theirs: [] };
    }
    case "slots": {
      const { slots } = target;
      const overlapping = state.claims
        .activeOn(slots.host, nowMs)
        .filter((claim) => overlaps(slots, claim.host, claim.gpuIndex));
      if (overlapping.length === 0) {
        const problem = slotsProblem(deps, slots, nowMs);
        return problem === null ? { kind: "none", why: "nobody-holds", slots } : { kind: "invalid", problem };
      }
      const mine = overlapping.filter((claim) => claim.user === actor);
      if (slots.gpus !== null && mine.some((claim) => claim.gpuIndex === null)) {
        return { kind: "invalid", problem: { kind: "whole-host", host: slots.host } };
      }
      return { mine, theirs: overlapping.filter((claim) => claim.user !== actor) };
    }
    case "ids": {
      const claims = state.claims.unreleased(target.claimIds).filter((claim) => claim.untilMs > nowMs);
      if (claims.length === 0) return { kind: "none", why: "ended" };
      return {
        mine: claims.filter((claim) => claim.user === actor),
        theirs: claims.filter((claim) => claim.user !== actor),
      };
    }
    default:
      return target satisfies never;
  }
}

/** Who `actor` was when releasing someone else's claim. */
function forcerRole(actor: string, warden: string | null, config: Pick<Config, "slack">): ForcerRole {
  if (actor === warden) return "warden";
  return config.slack.admins.includes(actor) ? "admin" : "other";
}
