import { type ClaimGroup, groupClaims } from "../../checks/claim-groups.ts";
import { type GpuSlots, overlaps } from "../../checks/claim-target.ts";
import type { ClaimReservationLimit } from "../../checks/reservation-window.ts";
import type { Claim } from "../../domain/claim.ts";
import { claimLimitOf } from "../queue/reservations.ts";
import { type ClaimDeps, claimRulesOf } from "./claim-deps.ts";
import { afterClaimsChanged, expireDue } from "./claim-effects.ts";
import { slotsProblem } from "./claim-gpus.ts";
import { type ClaimProblem, unknownHostOf } from "./claim-problem.ts";

/** What to extend: your claims on a host or GPUs, or claim rows (the *Extend 4 h* button). */
export type ExtendTarget = { kind: "slots"; slots: GpuSlots } | { kind: "ids"; claimIds: readonly number[] };

export type ExtendResult =
  /** `capped`: some end was cut to `maxMs` from now. */
  | {
      kind: "extended";
      groups: ClaimGroup[];
      capped: boolean;
      maxMs: number;
      /** Reservations that kept an end from moving past another's window (cut, or in force now). */
      reserved?: Exclude<ClaimReservationLimit, { kind: "free" }>[];
    }
  /** The actor holds no claim on `slots`; `null`: the claim had ended. */
  | { kind: "none"; slots: GpuSlots | null }
  /** Someone else's claim: only the holder extends. */
  | { kind: "refused"; holders: ClaimGroup[] }
  | { kind: "invalid"; problem: ClaimProblem };

/**
 * `/gpu extend` and *Extend 4 h*: moves the end of the actor's claims by `byMs`, never past
 * `claims.max_days` from now (cut to it, and said). Only the holder extends; the reminder is sent
 * again before the new end. Audited.
 */
export function extendClaims(
  deps: ClaimDeps,
  request: { actor: string; target: ExtendTarget; byMs: number },
): ExtendResult {
  const { state, config, clock } = deps;
  const { actor, target, byMs } = request;
  const nowMs = clock.now();
  const maxMs = claimRulesOf(config).maxMs;
  if (target.kind === "slots") {
    const unknown = unknownHostOf(deps, target.slots.host);
    if (unknown !== null) return { kind: "invalid", problem: unknown };
  }
  const ended: Claim[] = [];
  const outcome = state.transaction((): ExtendResult => {
    ended.push(...expireDue(deps, nowMs, target.kind === "slots" ? target.slots.host : undefined));
    let candidates: Claim[];
    if (target.kind === "slots") {
      const { slots } = target;
      candidates = state.claims
        .activeOn(slots.host, nowMs)
        .filter((claim) => overlaps(slots, claim.host, claim.gpuIndex));
      if (candidates.length === 0) {
        const problem = slotsProblem(deps, slots, nowMs);
        return problem === null ? { kind: "none", slots } : { kind: "invalid", problem };
      }
    } else {
      candidates = state.claims.unreleased(target.claimIds).filter((claim) => claim.untilMs > nowMs);
      if (candidates.length === 0) return { kind: "none", slots: null };
    }
    const mine = candidates.filter((claim) => claim.user === actor);
    if (mine.length === 0) {
      return { kind: "refused", holders: groupClaims(candidates) };
    }
    let capped = false;
    const reserved: Exclude<ClaimReservationLimit, { kind: "free" }>[] = [];
    const groups = groupClaims(mine).map((group): ClaimGroup => {
      const wantedMs = group.untilMs + byMs;
      const limit = claimLimitOf(deps, actor, [group], nowMs, Math.min(wantedMs, nowMs + maxMs));
      if (limit.kind !== "free") reserved.push(limit);
      const untilMs = Math.max(group.untilMs, Math.min(wantedMs, nowMs + maxMs, reservedEnd(limit, nowMs)));
      if (untilMs < wantedMs && limit.kind === "free") capped = true;
      state.claims.setUntil(group.claimIds, untilMs);
      state.audit.record({
        atMs: nowMs,
        actor,
        action: "claim-extend",
        host: group.host,
        detail: {
          claimIds: group.claimIds,
          gpus: group.gpus,
          fromUntilMs: group.untilMs,
          untilMs,
          byMs,
          capped: untilMs < wantedMs,
        },
      });
      return { ...group, untilMs, remindedAtMs: null };
    });
    return { kind: "extended", groups, capped, maxMs, ...(reserved.length > 0 ? { reserved } : {}) };
  });
  const hosts = outcome.kind === "extended" ? outcome.groups.map((group) => group.host) : [];
  if (ended.length > 0 || outcome.kind === "extended") {
    afterClaimsChanged(deps, { ended, hosts, users: outcome.kind === "extended" ? [actor] : [] }, nowMs);
  }
  return outcome;
}

/** The latest end reservations allow: a window's start, or now when one is in force. */
function reservedEnd(limit: ClaimReservationLimit, nowMs: number): number {
  if (limit.kind === "free") return limit.untilMs;
  return limit.kind === "cut" ? limit.untilMs : nowMs;
}
