import { matchModels } from "../../checks/claim-model.ts";
import type { HeldClaim } from "../../checks/preempt-pick.ts";
import { pickPreemptions } from "../../checks/preempt-pick.ts";
import { defaultProject } from "../../checks/queue-project.ts";
import type { Claim } from "../../domain/claim.ts";
import type { Preempt } from "../../domain/preempt.ts";
import type { QueueRequest } from "../../domain/queue-request.ts";
import { MINUTE_MS } from "../../shared/clock.ts";
import type { ClaimDeps } from "../claims/claim-deps.ts";
import { fleetGpusNow } from "../claims/claim-seats.ts";
import { BOT_ACTOR } from "../power/action-text.ts";
import { queueSeatsFor } from "./queue-placement.ts";

/** How much longer *I need 30 more minutes* keeps a claim asked to make room (once per ask). */
export const PREEMPT_DEFER_MS = 30 * MINUTE_MS;

/** One holder asked to make room: their claims, for which request, released at `releaseAtMs`. */
export interface PreemptAsk {
  holder: string;
  holderProject: string | null;
  request: QueueRequest;
  claims: Claim[];
  preemptIds: number[];
  releaseAtMs: number;
}

/**
 * Preemption in the queue tick, first part, in one transaction: open asks whose claim ended already
 * close, those whose request stopped waiting close too and the holder is told they may keep it; asks past their grace release their claims (never a
 * process: a GPU still busy is granted once it goes idle), audited `queue-preempt-release`, the
 * holder told. Returns the released claims (the grant pass follows). All state is in the store, so
 * after a restart it goes on where it was, once.
 */
export function releaseDuePreempts(deps: ClaimDeps, nowMs: number): Claim[] {
  return deps.state.transaction(() => {
    closeStale(deps, nowMs);
    return releaseDue(deps, nowMs);
  });
}

/**
 * Preemption in the queue tick, after the grant pass: each waiting request that still does not fit
 * (and has not asked before: a request asks once) asks the running claims of lower-priority projects with `preempt: true` to make room within
 * `queue.preempt_grace_minutes` (audited `queue-preempt-ask`; the holder gets *Release now* /
 * *I need 30 more minutes*, the requester is told). One transaction.
 */
export function askPreemptions(deps: ClaimDeps, nowMs: number): PreemptAsk[] {
  return deps.state.transaction(() => askForRoom(deps, nowMs));
}

function closeStale(deps: ClaimDeps, nowMs: number): void {
  const { state } = deps;
  const voided = new Map<string, { request: QueueRequest; holder: string; claims: Claim[] }>();
  for (const ask of state.queue.preempts.open()) {
    const held = state.claims.unreleased([ask.claimId]).filter((claim) => claim.untilMs > nowMs);
    const request = state.queue.byId(ask.requestId);
    if (held.length > 0 && request?.state === "waiting") continue;
    const to = held.length > 0 ? "void" : "ended";
    if (state.queue.preempts.close([ask.id], to, nowMs).length === 0) continue;
    audit(deps, ask, held.length > 0 ? "queue-preempt-void" : "queue-preempt-made-room", BOT_ACTOR, nowMs);
    if (to === "ended" || request === null) continue;
    const key = `${ask.holder}:${request.id}`;
    const entry = voided.get(key) ?? { request, holder: ask.holder, claims: [] };
    entry.claims.push(...held);
    voided.set(key, entry);
  }
  for (const { request, holder, claims } of voided.values()) {
    const dm = deps.claimWords.preemptVoid(request, claims, { nowMs, zone: deps.config.team.timezone });
    deps.notifier.send("chat.postMessage", { channel: holder, text: dm.text, blocks: dm.blocks });
  }
}

function releaseDue(deps: ClaimDeps, nowMs: number): Claim[] {
  const { state } = deps;
  const byHolder = new Map<string, { request: QueueRequest; holder: string; claims: Claim[] }>();
  for (const ask of state.queue.preempts.dueBy(nowMs)) {
    if (state.queue.preempts.close([ask.id], "released", nowMs).length === 0) continue;
    audit(deps, ask, "queue-preempt-release", BOT_ACTOR, nowMs);
    const claims = state.claims.release([ask.claimId], nowMs, BOT_ACTOR, "forced");
    const request = state.queue.byId(ask.requestId);
    if (claims.length === 0 || request === null) continue;
    const key = `${ask.holder}:${request.id}`;
    const entry = byHolder.get(key) ?? { request, holder: ask.holder, claims: [] };
    entry.claims.push(...claims);
    byHolder.set(key, entry);
  }
  for (const { request, holder, claims } of byHolder.values()) {
    const dm = deps.claimWords.preemptReleased(request, claims, { nowMs, zone: deps.config.team.timezone });
    deps.notifier.send("chat.postMessage", { channel: holder, text: dm.text, blocks: dm.blocks });
  }
  return [...byHolder.values()].flatMap((entry) => entry.claims);
}

function askForRoom(deps: ClaimDeps, nowMs: number): PreemptAsk[] {
  const { state, config } = deps;
  const open = state.queue.preempts.open();
  if (!Object.values(config.projects).some((project) => project.preempt)) return [];
  const asking = state.queue.preempts.askedRequests();
  const asked = new Set(open.map((ask) => ask.claimId));
  const seats = [...fleetGpusNow(deps, nowMs).values()].flat();
  const fleetModels = [...new Set(seats.flatMap((seat) => (seat.model === null ? [] : [seat.model])))];
  const held: HeldClaim[] = state.claims.held().map((claim) => {
    const project = defaultProject(config.projects, claim.user);
    return { claim, priority: project?.priority ?? 0, preempt: project?.preempt ?? false };
  });
  const made: PreemptAsk[] = [];
  const placed = queueSeatsFor(deps, nowMs);
  for (const request of state.queue.waiting()) {
    if (asking.has(request.id)) continue;
    const { want } = request;
    const allowed = placed(want, seats);
    if (allowed === null) continue;
    const models = want.kind === "count" && want.model !== null ? matchModels(want.model, fleetModels) : null;
    const others = held.filter((entry) => entry.claim.user !== request.user);
    const claims = pickPreemptions(want, request.priority, allowed.seats, others, asked, models);
    if (claims === null) continue;
    for (const claim of claims) asked.add(claim.id);
    made.push(...ask(deps, request, claims, nowMs));
  }
  return made;
}

function ask(deps: ClaimDeps, request: QueueRequest, claims: readonly Claim[], nowMs: number): PreemptAsk[] {
  const { state, config } = deps;
  const releaseAtMs = nowMs + config.queue.preempt_grace_minutes * MINUTE_MS;
  const at = { nowMs, zone: config.team.timezone };
  const asks: PreemptAsk[] = [];
  for (const holder of [...new Set(claims.map((claim) => claim.user))]) {
    const theirs = claims.filter((claim) => claim.user === holder);
    const rows = theirs.map((claim) =>
      state.queue.preempts.ask({
        requestId: request.id,
        claimId: claim.id,
        holder,
        askedAtMs: nowMs,
        releaseAtMs,
      }),
    );
    for (const row of rows) audit(deps, row, "queue-preempt-ask", BOT_ACTOR, nowMs);
    const holderProject = defaultProject(config.projects, holder)?.name ?? null;
    const made: PreemptAsk = {
      holder,
      holderProject,
      request,
      claims: theirs,
      preemptIds: rows.map((row) => row.id),
      releaseAtMs,
    };
    const dm = deps.claimWords.preemptAsk(made, at);
    deps.notifier.send("chat.postMessage", { channel: holder, text: dm.text, blocks: dm.blocks });
    asks.push(made);
  }
  const told = deps.claimWords.preemptWaiting(request, asks, at);
  deps.notifier.send("chat.postMessage", { channel: request.user, text: told.text, blocks: told.blocks });
  return asks;
}

function audit(deps: ClaimDeps, ask: Preempt, action: string, actor: string, nowMs: number): void {
  const claim = deps.state.claims.unreleased([ask.claimId])[0];
  deps.state.audit.record({
    atMs: nowMs,
    actor,
    action,
    host: claim?.host ?? null,
    forced: action === "queue-preempt-release",
    detail: {
      preemptId: ask.id,
      requestId: ask.requestId,
      claimId: ask.claimId,
      holder: ask.holder,
      askedAtMs: ask.askedAtMs,
      releaseAtMs: ask.releaseAtMs,
    },
  });
}

export type DeferPreemptResult =
  | { kind: "deferred"; releaseAtMs: number; claims: Claim[] }
  /** The one extra grace was taken already. */
  | { kind: "already"; releaseAtMs: number }
  | { kind: "not-yours" }
  /** Released, made room, or the request stopped waiting. */
  | { kind: "gone" };

/** *I need 30 more minutes* on an ask: its release moves {@link PREEMPT_DEFER_MS} on, once. Audited. */
export function deferPreempt(
  deps: ClaimDeps,
  input: { actor: string; preemptIds: readonly number[] },
): DeferPreemptResult {
  const { state } = deps;
  const nowMs = deps.clock.now();
  return state.transaction((): DeferPreemptResult => {
    const asks = input.preemptIds.flatMap((id) => state.queue.preempts.byId(id) ?? []);
    const open = asks.filter((ask) => ask.state === "asked");
    if (open.length === 0) return { kind: "gone" };
    if (open.some((ask) => ask.holder !== input.actor)) return { kind: "not-yours" };
    const first = open[0] as Preempt;
    if (open.every((ask) => ask.deferred)) return { kind: "already", releaseAtMs: first.releaseAtMs };
    const releaseAtMs = Math.max(...open.map((ask) => ask.releaseAtMs)) + PREEMPT_DEFER_MS;
    const deferred = open.filter((ask) => state.queue.preempts.defer(ask.id, releaseAtMs));
    for (const ask of deferred) {
      audit(deps, { ...ask, releaseAtMs, deferred: true }, "queue-preempt-defer", input.actor, nowMs);
    }
    const claims = state.claims.unreleased(deferred.map((ask) => ask.claimId));
    return { kind: "deferred", releaseAtMs, claims };
  });
}
