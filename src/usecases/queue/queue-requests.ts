import type { QuotaExceeded } from "../../checks/project-quota.ts";
import { placeInLine } from "../../checks/queue-competes.ts";
import { defaultProject, type NamedProject, priorityOf } from "../../checks/queue-project.ts";
import type { Claim } from "../../domain/claim.ts";
import type { QueueRequest, QueueWant } from "../../domain/queue-request.ts";
import { type ClaimDeps, claimRulesOf } from "../claims/claim-deps.ts";
import { type ClaimGpusResult, type ClaimTarget, claimGpus } from "../claims/claim-gpus.ts";
import { fleetGpusNow } from "../claims/claim-seats.ts";
import { grantWaiting } from "./queue-grant-pass.ts";

/** A request to wait for: what, for how long (`null`: `claims.default_hours`), with what note. */
export interface WaitRequest {
  actor: string;
  want: QueueWant;
  durationMs: number | null;
  note: string;
  /** The project it waits for (its priority orders the line); absent: the actor's default project. */
  project?: NamedProject | null;
}

export type JoinQueueResult =
  /** In line at `position` (1 is next). */
  | { kind: "queued"; request: QueueRequest; position: number }
  /** The same request of the actor's was already in line. */
  | { kind: "already-waiting"; request: QueueRequest; position: number }
  /** Granted at once (the GPUs were free): the grant DM is on its way. */
  | { kind: "granted"; request: QueueRequest; claims: Claim[] }
  | { kind: "too-long"; maxMs: number; durationMs: number };

/** The claim target of a waiting-list want, and back. */
export function targetOf(want: QueueWant): ClaimTarget {
  return want.kind === "count"
    ? { kind: "count", count: want.count, model: want.model }
    : { kind: "slots", slots: { host: want.host, gpus: want.gpus } };
}

export function wantOf(target: ClaimTarget): QueueWant {
  return target.kind === "count"
    ? { kind: "count", count: target.count, model: target.model }
    : { kind: "slots", host: target.slots.host, gpus: target.slots.gpus };
}

/**
 * Puts a request in line (audited `queue-join`), then runs a grant pass, so a request whose GPUs
 * are free now is granted at once. One waiting request per person and want.
 */
export function joinQueue(deps: ClaimDeps, wait: WaitRequest): JoinQueueResult {
  const { state } = deps;
  const nowMs = deps.clock.now();
  const rules = claimRulesOf(deps.config);
  const durationMs = wait.durationMs ?? rules.defaultMs;
  if (durationMs > rules.maxMs) return { kind: "too-long", maxMs: rules.maxMs, durationMs };
  const key = JSON.stringify(wait.want);
  const joined = state.transaction((): JoinQueueResult => {
    const waiting = state.queue.waiting();
    const same = waiting.findIndex(
      (request) => request.user === wait.actor && JSON.stringify(request.want) === key,
    );
    if (same !== -1) {
      const request = waiting[same] as QueueRequest;
      return { kind: "already-waiting", request, position: placeOf(deps, request, waiting, nowMs) };
    }
    const project =
      wait.project === undefined ? defaultProject(deps.config.projects, wait.actor) : wait.project;
    const request = state.queue.add({
      project: project?.name ?? null,
      priority: priorityOf(project),
      user: wait.actor,
      want: wait.want,
      durationMs,
      note: wait.note,
      createdAtMs: nowMs,
    });
    const position = waiting.filter((ahead) => ahead.priority >= request.priority).length + 1;
    state.audit.record({
      atMs: nowMs,
      actor: wait.actor,
      action: "queue-join",
      host: wait.want.kind === "slots" ? wait.want.host : null,
      detail: {
        requestId: request.id,
        want: wait.want,
        durationMs,
        note: wait.note,
        position,
        project: request.project,
        priority: request.priority,
      },
    });
    return { kind: "queued", request, position };
  });
  if (joined.kind !== "queued") return joined;
  const grant = grantWaiting(deps, nowMs).find((made) => made.request.id === joined.request.id);
  if (grant !== undefined) return { kind: "granted", request: joined.request, claims: grant.claims };
  return { ...joined, position: placeOf(deps, joined.request, state.queue.waiting(), nowMs) };
}

/** `request`'s place among the waiting requests ahead of it that could take the same GPUs. */
function placeOf(
  deps: ClaimDeps,
  request: QueueRequest,
  waiting: readonly QueueRequest[],
  nowMs: number,
): number {
  const index = waiting.findIndex((other) => other.id === request.id);
  const ahead = waiting.slice(0, index === -1 ? waiting.length : index).map((other) => other.want);
  return placeInLine(request.want, ahead, [...fleetGpusNow(deps, nowMs).values()].flat());
}

export type ClaimOrWaitResult =
  | { kind: "claim"; result: ClaimGpusResult }
  /** `quota`: it waits because its project holds as many GPUs as it may. */
  | { kind: "wait"; result: JoinQueueResult; quota?: QuotaExceeded };

/**
 * `/gpu claim … --wait`: claims now when it can; when someone holds the GPUs or too few are free,
 * joins the waiting list instead.
 */
export function claimOrWait(
  deps: ClaimDeps,
  request: {
    actor: string;
    target: ClaimTarget;
    durationMs: number | null;
    note: string;
    project?: NamedProject | null;
  },
): ClaimOrWaitResult {
  const { actor, target, durationMs, note, project } = request;
  const asked = project === undefined ? {} : { project: project?.name ?? null };
  const result = claimGpus(deps, { actor, target, durationMs, note, ...asked });
  const quota = result.kind === "over-quota" ? { quota: result.quota } : {};
  if (result.kind !== "held" && result.kind !== "short" && result.kind !== "over-quota") {
    return { kind: "claim", result };
  }
  const wait: WaitRequest = { actor, want: wantOf(target), durationMs, note };
  const joined = joinQueue(deps, project === undefined ? wait : { ...wait, project });
  return { kind: "wait", result: joined, ...quota };
}

export type ConfirmGrantResult =
  | { kind: "confirmed"; request: QueueRequest; claims: Claim[] }
  | { kind: "not-yours" }
  /** Confirmed before, passed on, cancelled, or its claims ended. */
  | { kind: "gone"; request: QueueRequest | null };

/** *Confirm* on a grant DM: the granted claims stay the person's until their end. Audited. */
export function confirmGrant(
  deps: ClaimDeps,
  input: { actor: string; requestId: number },
): ConfirmGrantResult {
  const { state } = deps;
  const nowMs = deps.clock.now();
  return state.transaction((): ConfirmGrantResult => {
    const request = state.queue.byId(input.requestId);
    if (request === null) return { kind: "gone", request: null };
    if (request.user !== input.actor) return { kind: "not-yours" };
    const claims = state.claims
      .unreleased(state.queue.grantsOf(request.id).map((grant) => grant.claimId))
      .filter((claim) => claim.untilMs > nowMs);
    if (claims.length === 0 || !state.queue.move(request.id, "granted", "confirmed", nowMs)) {
      return { kind: "gone", request };
    }
    state.audit.record({
      atMs: nowMs,
      actor: input.actor,
      action: "queue-confirm",
      host: claims[0]?.host ?? null,
      detail: { requestId: request.id, claimIds: claims.map((claim) => claim.id) },
    });
    return { kind: "confirmed", request, claims };
  });
}

/** `/gpu queue cancel`: takes the actor's waiting requests out of line. Audited, one entry each. */
export function cancelQueued(deps: ClaimDeps, actor: string): QueueRequest[] {
  const { state } = deps;
  const nowMs = deps.clock.now();
  return state.transaction(() => {
    const mine = state.queue.waiting().filter((request) => request.user === actor);
    const cancelled = mine.filter((request) => state.queue.move(request.id, "waiting", "cancelled", nowMs));
    for (const request of cancelled) {
      state.audit.record({
        atMs: nowMs,
        actor,
        action: "queue-cancel",
        host: request.want.kind === "slots" ? request.want.host : null,
        detail: { requestId: request.id, want: request.want, waitedMs: nowMs - request.createdAtMs },
      });
    }
    return cancelled;
  });
}

/** The line as `/gpu queue` shows it: waiting requests in order, and grants awaiting *Confirm*. */
export interface QueueView {
  waiting: Array<{ request: QueueRequest; position: number }>;
  awaitingConfirm: QueueRequest[];
}

export function readQueue(deps: ClaimDeps): QueueView {
  const { queue } = deps.state;
  return {
    waiting: queue.waiting().map((request, i) => ({ request, position: i + 1 })),
    awaitingConfirm: queue.unconfirmedBy(Number.MAX_SAFE_INTEGER),
  };
}
