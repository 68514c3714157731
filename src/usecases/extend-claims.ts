import { type ClaimGroup, groupClaims } from "../checks/claim-groups.ts";
import { type GpuSlots, overlaps, slotsText } from "../checks/claim-target.ts";
import type { ClaimReservationLimit } from "../checks/reservation-window.ts";
import { formatDuration } from "../shared/duration.ts";
import type { Claim } from "../store/claim-store.ts";
import { localWhen } from "./action-text.ts";
import { type ClaimDeps, claimRulesOf } from "./claim-deps.ts";
import { afterClaimsChanged, expireDue } from "./claim-effects.ts";
import { slotsProblem } from "./claim-gpus.ts";
import { holdersText } from "./claim-text.ts";
import { claimLimitOf } from "./reservations.ts";
import { unknownHostProblem } from "./stop-host.ts";

/** What to extend: your claims on a host or GPUs, or claim rows (the *Extend 4 h* button). */
export type ExtendTarget = { kind: "slots"; slots: GpuSlots } | { kind: "ids"; claimIds: readonly number[] };

export type ExtendResult =
  | { kind: "extended"; groups: ClaimGroup[]; capped: boolean; text: string }
  | { kind: "none" | "refused" | "invalid"; text: string };

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
  const zone = config.team.timezone;
  const maxMs = claimRulesOf(config).maxMs;
  if (target.kind === "slots") {
    const unknown = unknownHostProblem(deps, target.slots.host);
    if (unknown !== null) return { kind: "invalid", text: unknown };
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
        if (problem !== null) return { kind: "invalid", text: problem };
        const what = slotsText(slots);
        return {
          kind: "none",
          text: `You hold no claim on ${what}: \`/gpu claim ${what} for 4h\` takes it.`,
        };
      }
    } else {
      candidates = state.claims.unreleased(target.claimIds).filter((claim) => claim.untilMs > nowMs);
      if (candidates.length === 0) return { kind: "none", text: "That claim has already ended." };
    }
    const mine = candidates.filter((claim) => claim.user === actor);
    if (mine.length === 0) {
      return {
        kind: "refused",
        text: `${holdersText(groupClaims(candidates), nowMs, zone)} Only the holder can extend a claim.`,
      };
    }
    let capped = false;
    const cuts: Exclude<ClaimReservationLimit, { kind: "free" }>[] = [];
    const groups = groupClaims(mine).map((group): ClaimGroup => {
      const wantedMs = group.untilMs + byMs;
      const reserved = extendLimit(deps, actor, group, nowMs, Math.min(wantedMs, nowMs + maxMs));
      if (reserved.kind !== "free") cuts.push(reserved);
      const untilMs = Math.max(
        group.untilMs,
        Math.min(wantedMs, nowMs + maxMs, reservedEnd(reserved, nowMs)),
      );
      if (untilMs < wantedMs && reserved.kind === "free") capped = true;
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
    const parts = groups.map(
      (group) => `${slotsText(group)} is yours until ${localWhen(group.untilMs, nowMs, zone)}`,
    );
    const cap = capped ? `: capped at ${formatDuration(maxMs)} from now, the longest claim` : "";
    const cut = cuts.map((limit) => ` ${reservationWords(deps, actor, limit)}`).join("");
    return { kind: "extended", groups, capped, text: `${parts.join("; ")}${cap}.${cut}` };
  });
  const hosts = outcome.kind === "extended" ? outcome.groups.map((group) => group.host) : [];
  if (ended.length > 0 || outcome.kind === "extended") {
    afterClaimsChanged(deps, { ended, hosts, users: outcome.kind === "extended" ? [actor] : [] }, nowMs);
  }
  return outcome;
}

/** What reservations do to extending `group` to `untilMs` (see {@link claimLimitOf}). */
function extendLimit(
  deps: ClaimDeps,
  actor: string,
  group: ClaimGroup,
  nowMs: number,
  untilMs: number,
): ClaimReservationLimit {
  return claimLimitOf(deps, actor, [group], nowMs, untilMs);
}

/** The latest end a reservation allows: the window's start, or now when one is in force. */
function reservedEnd(limit: ClaimReservationLimit, nowMs: number): number {
  if (limit.kind === "free") return limit.untilMs;
  return limit.kind === "cut" ? limit.untilMs : nowMs;
}

function reservationWords(
  deps: ClaimDeps,
  actor: string,
  limit: Exclude<ClaimReservationLimit, { kind: "free" }>,
): string {
  return limit.kind === "cut"
    ? deps.claimWords.reservationCut(limit, actor)
    : deps.claimWords.reservedNow(limit.window, actor);
}
