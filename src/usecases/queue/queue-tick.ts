import type { Claim } from "../../domain/claim.ts";
import type { QueueRequest } from "../../domain/queue-request.ts";
import type { ClaimDeps } from "../claims/claim-deps.ts";
import { afterClaimsChanged } from "../claims/claim-effects.ts";
import { BOT_ACTOR } from "../power/action-text.ts";
import { grantWaiting, type QueueGrantMade } from "./queue-grant-pass.ts";
import { askPreemptions, type PreemptAsk, releaseDuePreempts } from "./queue-preempt.ts";

/** What one {@link tickQueue} did. */
export interface QueueTickResult {
  /** Grants not confirmed in time, released and passed on. */
  passed: number;
  granted: QueueGrantMade[];
  /** Holders asked to make room for waiting requests of higher priority. */
  asked: PreemptAsk[];
}

/**
 * The waiting list's part of the claims job: grants not confirmed within `queue.confirm_minutes`
 * (an *Extend* of the granted claims counts as a confirmation) are released (audited `queue-pass`, the person told), then a grant pass gives what is free (GPUs
 * released, a host answering again, a busy GPU gone idle) to the next in line. Claims asked to make
 * room whose grace ran out are released before the pass; requests still waiting after it ask
 * lower-priority claims to make room (see `queue-preempt.ts`).
 */
export function tickQueue(deps: ClaimDeps, nowMs: number = deps.clock.now()): QueueTickResult {
  const { state } = deps;
  const ended: Claim[] = [];
  const passed = state.transaction(() => {
    const due = state.queue.unconfirmedBy(nowMs);
    let passed = 0;
    for (const request of due) {
      const claimIds = state.queue.grantsOf(request.id).map((grant) => grant.claimId);
      if (extended(deps, request, claimIds)) {
        state.queue.move(request.id, "granted", "confirmed", nowMs);
        state.audit.record({
          atMs: nowMs,
          actor: request.user,
          action: "queue-confirm",
          host: request.want.kind === "slots" ? request.want.host : null,
          detail: { requestId: request.id, claimIds, by: "extend" },
        });
        continue;
      }
      passed++;
      state.queue.move(request.id, "granted", "lapsed", nowMs);
      const released = state.claims.release(claimIds, nowMs, BOT_ACTOR, "released");
      ended.push(...released);
      state.audit.record({
        atMs: nowMs,
        actor: BOT_ACTOR,
        action: "queue-pass",
        host: released[0]?.host ?? null,
        detail: {
          requestId: request.id,
          holder: request.user,
          claimIds: released.map((claim) => claim.id),
          confirmByMs: request.confirmByMs,
        },
      });
      if (released.length === 0) continue;
      const dm = deps.claimWords.queueLapsed(request, released, { nowMs, zone: deps.config.team.timezone });
      deps.notifier.send("chat.postMessage", { channel: request.user, text: dm.text, blocks: dm.blocks });
    }
    return passed;
  });
  ended.push(...releaseDuePreempts(deps, nowMs));
  if (ended.length > 0) afterClaimsChanged(deps, { ended }, nowMs);
  const granted = grantWaiting(deps, nowMs);
  return { passed, granted, asked: askPreemptions(deps, nowMs) };
}

/** Whether the holder extended the granted claims (*Extend 4 h* on the grant DM): that confirms them. */
function extended(deps: ClaimDeps, request: QueueRequest, claimIds: readonly number[]): boolean {
  const grantedAtMs = request.grantedAtMs ?? 0;
  return deps.state.claims
    .unreleased(claimIds)
    .some((claim) => claim.untilMs > grantedAtMs + request.durationMs);
}
