import type { Translator } from "../../../messages/translator.ts";
import type { JoinQueueResult } from "../../../usecases/queue/queue-requests.ts";
import { estimateQueue, usualFreeOf } from "../../../usecases/queue/read-queue-eta.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { withQueuedEstimate, withQueueEstimates, withUsualFree } from "../../views/queue/eta-words.ts";
import type { Reply } from "../../views/reply-message.ts";

/** `/gpu queue` with each waiting request's estimated time. */
export function queueReplyWithEta(
  deps: BotDeps,
  tr: Translator,
  reply: Reply,
  asker: string | null = null,
): Reply {
  const nowMs = deps.clock.now();
  const claims = deps.state.claims.activeAt(nowMs);
  const estimates = estimateQueue(deps, deps.state.queue.waiting(), nowMs, claims);
  return withQueueEstimates(tr, reply, estimates, asker);
}

/** The answer to joining the line with the place in line and the estimated time. */
export function joinReplyWithEta(
  deps: BotDeps,
  tr: Translator,
  result: JoinQueueResult,
  reply: Reply,
): Reply {
  if (result.kind !== "queued" && result.kind !== "already-waiting") return reply;
  const nowMs = deps.clock.now();
  const waiting = deps.state.queue.waiting();
  const upTo = waiting.findIndex((request) => request.id === result.request.id);
  if (upTo === -1) return reply;
  const claims = deps.state.claims.activeAt(nowMs);
  const estimate = estimateQueue(deps, waiting.slice(0, upTo + 1), nowMs, claims).at(-1);
  return estimate === undefined ? reply : withQueuedEstimate(tr, reply, estimate);
}

/** The fleet board with when each of the `busy` hosts is usually free. */
export function withUsualFreeHosts(
  deps: BotDeps,
  tr: Translator,
  reply: Reply,
  busy: readonly string[],
): Reply {
  if (busy.length === 0) return reply;
  return withUsualFree(tr, reply, usualFreeOf(deps, busy, deps.clock.now()));
}
