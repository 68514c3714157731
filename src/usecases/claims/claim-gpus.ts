import { type ClaimGroup, groupClaims } from "../../checks/claim-groups.ts";
import { matchModels } from "../../checks/claim-model.ts";
import { pickFreeGpus } from "../../checks/claim-pick.ts";
import { type GpuSlots, overlaps } from "../../checks/claim-target.ts";
import { gpusHeldBy, type QuotaExceeded, quotaExceeded } from "../../checks/project-quota.ts";
import { defaultProject } from "../../checks/queue-project.ts";
import type { ClaimReservationLimit, ReservationWindow } from "../../checks/reservation-window.ts";
import type { Claim } from "../../domain/claim.ts";
import { shortModel } from "../../reports/fleet-table.ts";
import { isAdmin } from "../authorise.ts";
import { startForClaim } from "../power/start-for-claim.ts";
import { claimLimitOf, withoutReservedSeats } from "../queue/reservations.ts";
import { type ClaimDeps, claimRulesOf } from "./claim-deps.ts";
import { afterClaimsChanged, expireDue, recordEnded } from "./claim-effects.ts";
import { type ClaimProblem, unknownHostOf } from "./claim-problem.ts";
import { fleetGpusNow, type GpuNow, hostGpusNow } from "./claim-seats.ts";

/** What to claim: a host or some of its GPUs, or any `count` free GPUs (of a model). */
export type ClaimTarget =
  | { kind: "slots"; slots: GpuSlots }
  | { kind: "count"; count: number; model: string | null };

export interface ClaimGpusRequest {
  /** Slack user id. */
  actor: string;
  target: ClaimTarget;
  /** `null`: `claims.default_hours`. */
  durationMs: number | null;
  note?: string;
  /** The alert whose *Claim it* was clicked. */
  alertId?: number | undefined;
  /** The project its GPU-hours count for; absent: the actor's default project. */
  project?: string | null;
}

/** Claimed GPUs someone runs on without a claim: where, how many, whose processes. */
export interface BusyGpus {
  slots: GpuSlots[];
  count: number;
  /** The processes' users (sorted), when the readings name them. */
  users: string[];
}

export type ClaimGpusResult =
  | {
      kind: "claimed";
      groups: ClaimGroup[];
      durationMs: number;
      /** The short model names picked, for `claim <n> <model>` (else empty). */
      models: string[];
      /** GPUs asked for that the actor already held (they keep their end). */
      alsoHeld: GpuSlots | null;
      /** The actor's single-GPU claims a whole-host claim replaced. */
      replaced: ClaimGroup[];
      busy: BusyGpus | null;
      /** A reservation cut the claim short: it ends when the window starts. */
      cut?: Extract<ClaimReservationLimit, { kind: "cut" }>;
    }
  /** Someone else's reservation window is in force on (part of) it now. */
  | { kind: "reserved"; window: ReservationWindow }
  /** The project would hold more GPUs than its `max_gpus`. */
  | { kind: "over-quota"; quota: QuotaExceeded }
  | {
      kind: "already-yours";
      slots: GpuSlots;
      /** Single GPUs asked of a host the actor holds whole. */
      allOf: boolean;
      untilMs: number;
    }
  | {
      kind: "held";
      /** What was asked for. */
      slots: GpuSlots;
      /** Who holds (part of) it. */
      holders: ClaimGroup[];
      /** The asker is the cost warden or an admin and may release the holders' claims. */
      forceable: boolean;
    }
  | {
      kind: "short";
      free: number;
      total: number;
      /** What was asked for. */
      count: number;
      /** The matched short model names (empty without a model). */
      models: string[];
      /** Who holds the matching GPUs. */
      holders: ClaimGroup[];
    }
  | { kind: "invalid"; problem: ClaimProblem };

/**
 * `/gpu claim`: takes a host, some of its GPUs, or any `count` free GPUs (of a model) for
 * `durationMs` (default `claims.default_hours`, at most `claims.max_days`), unless someone else
 * holds them. Race-free: ending the claims past their end, the conflict check and the insert are
 * one synchronous IMMEDIATE transaction, and a unique index allows one unreleased claim per slot.
 * Audited; the host's alert thread hears of it when an alert is open; the Home tab is refreshed.
 */
export function claimGpus(deps: ClaimDeps, request: ClaimGpusRequest): ClaimGpusResult {
  const rules = claimRulesOf(deps.config);
  const durationMs = request.durationMs ?? rules.defaultMs;
  if (durationMs > rules.maxMs) {
    return { kind: "invalid", problem: { kind: "too-long", maxMs: rules.maxMs, durationMs } };
  }
  const note = request.note ?? "";
  const { target } = request;
  if (target.kind === "count") return claimCount(deps, request, target, durationMs, note);
  const problem = slotsProblem(deps, target.slots, deps.clock.now());
  if (problem !== null) return { kind: "invalid", problem };
  return claimSlots(deps, request, target.slots, durationMs, note);
}

/**
 * Why `slots` cannot name anything: an unknown host (with a suggestion), GPUs of a host none of whose
 * GPUs were seen, or indexes the host does not have (saying the ones it has). `null` when fine.
 */
export function slotsProblem(deps: ClaimDeps, slots: GpuSlots, nowMs: number): ClaimProblem | null {
  const { host, gpus } = slots;
  const unknown = unknownHostOf(deps, host);
  if (unknown !== null) return unknown;
  if (gpus === null) return null;
  const has = hostGpusNow(deps, host, nowMs).map((gpu) => gpu.index);
  if (has.length === 0) return { kind: "no-gpus-seen", host };
  const missing = gpus.filter((index) => !has.includes(index));
  return missing.length === 0 ? null : { kind: "no-such-gpus", host, has, missing };
}

function claimSlots(
  deps: ClaimDeps,
  request: ClaimGpusRequest,
  slots: GpuSlots,
  durationMs: number,
  note: string,
): ClaimGpusResult {
  const { state, config, clock } = deps;
  const { actor } = request;
  const { host } = slots;
  const nowMs = clock.now();
  const ended: Claim[] = [];
  const outcome = state.transaction((): ClaimGpusResult => {
    ended.push(...expireDue(deps, nowMs, host));
    const overlapping = state.claims
      .activeOn(host, nowMs)
      .filter((claim) => overlaps(slots, claim.host, claim.gpuIndex));
    const others = overlapping.filter((claim) => claim.user !== actor);
    if (others.length > 0) {
      const holders = groupClaims(others);
      return {
        kind: "held",
        slots,
        holders,
        forceable: isAdmin(actor, config) || deps.warden.current(nowMs) === actor,
      };
    }
    const mine = overlapping;
    const wholeMine = mine.find((claim) => claim.gpuIndex === null);
    if (wholeMine !== undefined) {
      return {
        kind: "already-yours",
        slots: { host, gpus: null },
        allOf: slots.gpus !== null,
        untilMs: wholeMine.untilMs,
      };
    }
    const heldGpus = new Set(mine.map((claim) => claim.gpuIndex as number));
    const wanted: Array<number | null> =
      slots.gpus === null ? [null] : slots.gpus.filter((index) => !heldGpus.has(index));
    if (wanted.length === 0) {
      const untilMs = Math.min(...mine.map((claim) => claim.untilMs));
      return { kind: "already-yours", slots, allOf: false, untilMs };
    }
    const project = projectOf(deps, request);
    const asked = slots.gpus === null ? hostGpusNow(deps, host, nowMs).length - mine.length : wanted.length;
    const quota = overQuota(deps, actor, project, asked, nowMs);
    if (quota !== null) return quota;
    const limit = claimLimitOf(deps, actor, [slots], nowMs, nowMs + durationMs);
    if (limit.kind === "refused") return reservedNow(deps, actor, limit.window);
    const heldMs = limit.untilMs - nowMs;
    const replaced = slots.gpus === null ? mine : [];
    if (replaced.length > 0) {
      const released = state.claims.release(
        replaced.map((claim) => claim.id),
        nowMs,
        actor,
        "replaced",
      );
      recordEnded(deps, released, { kind: "released" }, actor, nowMs);
    }
    const untilMs = nowMs + heldMs;
    const added = wanted.map((gpuIndex) =>
      state.claims.add({ host, gpuIndex, user: actor, fromMs: nowMs, untilMs, note, project }),
    );
    const already = slots.gpus === null ? [] : slots.gpus.filter((index) => heldGpus.has(index));
    const groups = groupClaims(added);
    recordClaimed(deps, groups, heldMs, request.alertId, nowMs, {
      replaces: replaced.map((claim) => claim.id),
      ...cutDetail(limit),
    });
    return {
      kind: "claimed",
      groups,
      durationMs: heldMs,
      ...(limit.kind === "cut" ? { cut: limit } : {}),
      models: [],
      alsoHeld: already.length > 0 ? { host, gpus: already } : null,
      replaced: groupClaims(replaced),
      busy: busyGpus(deps, groups, nowMs),
    };
  });
  finish(deps, request, outcome, ended, nowMs);
  return outcome;
}

function claimCount(
  deps: ClaimDeps,
  request: ClaimGpusRequest,
  target: { count: number; model: string | null },
  durationMs: number,
  note: string,
): ClaimGpusResult {
  const { state, clock } = deps;
  const { actor } = request;
  const nowMs = clock.now();
  const ended: Claim[] = [];
  const outcome = state.transaction((): ClaimGpusResult => {
    ended.push(...expireDue(deps, nowMs));
    const all = [...fleetGpusNow(deps, nowMs).values()].flat();
    let seats = all;
    let label: string[] = [];
    if (target.model !== null) {
      const models = [...new Set(all.flatMap((seat) => (seat.model === null ? [] : [seat.model])))];
      const matched = matchModels(target.model, models);
      if (matched.length === 0) {
        const shown = [...new Set(models.map(shortModel))].sort();
        return { kind: "invalid", problem: { kind: "no-model", model: target.model, models: shown } };
      }
      seats = all.filter((seat) => seat.model !== null && matched.includes(seat.model));
      label = [...new Set(matched.map(shortModel))].sort();
    }
    if (seats.length === 0) return { kind: "invalid", problem: { kind: "nothing-seen" } };
    seats = withoutReservedSeats(deps, actor, seats, nowMs);
    const active = state.claims.activeAt(nowMs);
    const pick = pickFreeGpus(seats, active, target.count);
    if (pick.kind === "short") {
      const seatKeys = new Set(seats.map((seat) => `${seat.host}:${seat.index}`));
      const holding = groupClaims(
        active.filter((claim) =>
          claim.gpuIndex === null
            ? seats.some((seat) => seat.host === claim.host)
            : seatKeys.has(`${claim.host}:${claim.gpuIndex}`),
        ),
      );
      return {
        kind: "short",
        free: pick.free,
        total: pick.total,
        count: target.count,
        models: label,
        holders: holding,
      };
    }
    const project = projectOf(deps, request);
    const quota = overQuota(deps, actor, project, target.count, nowMs);
    if (quota !== null) return quota;
    const limit = claimLimitOf(deps, actor, pick.picks, nowMs, nowMs + durationMs);
    if (limit.kind === "refused") return reservedNow(deps, actor, limit.window);
    const untilMs = limit.untilMs;
    const added = pick.picks.flatMap(({ host, gpus }) =>
      gpus.map((gpuIndex) =>
        state.claims.add({ host, gpuIndex, user: actor, fromMs: nowMs, untilMs, note, project }),
      ),
    );
    const heldMs = untilMs - nowMs;
    const groups = groupClaims(added);
    recordClaimed(deps, groups, heldMs, request.alertId, nowMs, {
      count: target.count,
      model: target.model,
      ...cutDetail(limit),
    });
    const models = [
      ...new Set(
        pick.picks.flatMap(({ host, gpus }) =>
          seats
            .filter((seat) => seat.host === host && gpus.includes(seat.index))
            .map((seat) => shortModel(seat.model)),
        ),
      ),
    ].sort();
    return {
      kind: "claimed",
      groups,
      durationMs: heldMs,
      ...(limit.kind === "cut" ? { cut: limit } : {}),
      models,
      alsoHeld: null,
      replaced: [],
      busy: busyGpus(deps, groups, nowMs),
    };
  });
  finish(deps, request, outcome, ended, nowMs);
  return outcome;
}

/** The project a claim counts for: the one asked for, else the actor's default project. */
function projectOf(deps: ClaimDeps, request: ClaimGpusRequest): string | null {
  if (request.project !== undefined) return request.project;
  return defaultProject(deps.config.projects, request.actor)?.name ?? null;
}

/**
 * The refusal when `askedGpus` more would take `project` past its `max_gpus` (audited), else
 * `null`. Runs inside the claim's transaction, so concurrent claims cannot both pass.
 */
export function overQuota(
  deps: ClaimDeps,
  actor: string,
  project: string | null,
  askedGpus: number,
  nowMs: number,
): Extract<ClaimGpusResult, { kind: "over-quota" }> | null {
  if (project === null) return null;
  const maxGpus = deps.config.projects[project]?.max_gpus;
  if (maxGpus === undefined) return null;
  const gpusOf = (host: string) => hostGpusNow(deps, host, nowMs).length;
  const held = gpusHeldBy(deps.state.claims.activeAt(nowMs), project, gpusOf);
  const quota = quotaExceeded(project, maxGpus, held, askedGpus);
  if (quota === null) return null;
  deps.state.audit.record({
    atMs: nowMs,
    actor,
    action: "claim-over-quota",
    host: null,
    detail: { ...quota },
  });
  return { kind: "over-quota", quota };
}

/** Someone else's reservation window holds (part of) the claim now: refused, audited. */
function reservedNow(deps: ClaimDeps, actor: string, window: ReservationWindow): ClaimGpusResult {
  deps.state.audit.record({
    atMs: deps.clock.now(),
    actor,
    action: "claim-reserved",
    host: window.reservation.host,
    detail: {
      reservationId: window.reservation.id,
      holder: window.reservation.user,
      untilMs: window.untilMs,
    },
  });
  return { kind: "reserved", window };
}

/** The audit detail of a claim cut short by a reservation. */
function cutDetail(limit: ClaimReservationLimit): Record<string, unknown> {
  if (limit.kind !== "cut") return {};
  return { cutForReservation: limit.window.reservation.id, cutToMs: limit.untilMs };
}

function recordClaimed(
  deps: ClaimDeps,
  groups: readonly ClaimGroup[],
  durationMs: number,
  alertId: number | undefined,
  nowMs: number,
  extra: Record<string, unknown>,
): void {
  for (const group of groups) {
    deps.state.audit.record({
      atMs: nowMs,
      actor: group.user,
      action: "claim",
      host: group.host,
      detail: {
        claimIds: group.claimIds,
        gpus: group.gpus,
        untilMs: group.untilMs,
        durationMs,
        note: group.note,
        alertId: alertId ?? null,
        ...extra,
      },
    });
  }
}

/** The claimed GPUs someone runs on right now without a claim, or `null`. */
function busyGpus(deps: ClaimDeps, groups: readonly ClaimGroup[], nowMs: number): BusyGpus | null {
  const busy: GpuNow[] = [];
  for (const group of groups) {
    for (const gpu of hostGpusNow(deps, group.host, nowMs)) {
      if (gpu.state === "busy" && (group.gpus === null || group.gpus.includes(gpu.index))) busy.push(gpu);
    }
  }
  if (busy.length === 0) return null;
  const users = [
    ...new Set(
      busy.flatMap((gpu) => gpu.reading?.processes.flatMap((p) => (p.user === null ? [] : [p.user])) ?? []),
    ),
  ].sort();
  const byHost = new Map<string, number[]>();
  for (const gpu of busy) byHost.set(gpu.host, [...(byHost.get(gpu.host) ?? []), gpu.index]);
  return { slots: [...byHost].map(([host, gpus]) => ({ host, gpus })), count: busy.length, users };
}

function finish(
  deps: ClaimDeps,
  request: ClaimGpusRequest,
  outcome: ClaimGpusResult,
  ended: readonly Claim[],
  nowMs: number,
): void {
  const hosts = new Set<string>();
  if (outcome.kind === "claimed") {
    for (const group of outcome.groups) {
      hosts.add(group.host);
      startForClaim(deps, group.host, request.actor, "claim");
      const open = deps.state.alerts.openFor(group.host, "idle");
      if (open === null && request.alertId === undefined) continue;
      deps.alerts.postInThread(group.host, deps.claimWords.claimedInThread(group, nowMs));
    }
  }
  if (outcome.kind !== "claimed" && ended.length === 0) return;
  afterClaimsChanged(deps, { ended, hosts, users: outcome.kind === "claimed" ? [request.actor] : [] }, nowMs);
}
