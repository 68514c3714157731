import type { Claim } from "../../domain/claim.ts";
import type { QueueRequest } from "../../domain/queue-request.ts";
import type { ClaimDeps } from "../claims/claim-deps.ts";

/**
 * After claims were released (the *Release* button on a grant DM, `/gpu release`): each granted or
 * confirmed request none of whose claims is held any more ends as `released` (audited
 * `queue-release`), so it no longer awaits *Confirm* nor passes on later; open preemption asks on
 * those claims end too. Call inside the transaction that released them.
 */
export function endReleasedGrants(
  deps: ClaimDeps,
  released: readonly Claim[],
  actor: string,
  nowMs: number,
): QueueRequest[] {
  const { state } = deps;
  const ids = released.map((claim) => claim.id);
  const openAsks = state.queue.preempts.open().filter((ask) => ids.includes(ask.claimId));
  for (const ask of openAsks) {
    state.audit.record({
      atMs: nowMs,
      actor,
      action: "queue-preempt-made-room",
      host: released.find((claim) => claim.id === ask.claimId)?.host ?? null,
      detail: { preemptId: ask.id, requestId: ask.requestId, claimId: ask.claimId, holder: ask.holder },
    });
  }
  state.queue.preempts.close(
    openAsks.map((ask) => ask.id),
    "ended",
    nowMs,
  );
  const ended = state.queue.grantedWith(ids).filter((request) => {
    const claimIds = state.queue.grantsOf(request.id).map((grant) => grant.claimId);
    return state.claims.unreleased(claimIds).length === 0;
  });
  for (const request of ended) {
    if (!state.queue.move(request.id, request.state, "released", nowMs)) continue;
    state.audit.record({
      atMs: nowMs,
      actor,
      action: "queue-release",
      host: released[0]?.host ?? null,
      detail: { requestId: request.id, holder: request.user, was: request.state, claimIds: ids },
    });
  }
  return ended;
}
