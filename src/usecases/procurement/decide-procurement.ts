import type { ProcurementRequest } from "../../domain/procurement-request.ts";
import { isAdmin } from "../authorise.ts";
import type { ProcurementWords } from "./procurement-words.ts";
import type { ProcurementDeps } from "./request-gpus.ts";

/** The warden's or an admin's answer to a request for more GPUs. */
export type ProcurementDecision =
  | { kind: "approve" }
  | { kind: "reject"; reason: string }
  /** Ask for more: what is missing (the request is closed; its requester sends a new one). */
  | { kind: "more"; question: string };

export type ProcurementRefusal =
  | { reason: "gone" }
  | { reason: "already-decided"; request: ProcurementRequest }
  /** Only the cost warden (`null`: none is set) or an admin may decide. */
  | { reason: "not-allowed"; warden: string | null }
  | { reason: "needs-reason" };

export type ProcurementDecisionResult =
  | { kind: "decided"; request: ProcurementRequest }
  | { kind: "refused"; refusal: ProcurementRefusal };

const STATE = { approve: "approved", reject: "rejected", more: "more-asked" } as const;

/**
 * Decides an open request, once: only the current cost warden or an admin; a request decided
 * before (a double click, a second decider, a click replayed after a restart) is refused with
 * what was decided. Reject and Ask for more need a reason. In one transaction: the decision is
 * stored, audited (`procurement-approve` / `-reject` / `-more`), posted in the request's thread
 * (`post`: its message) and the message loses its buttons.
 */
export function decideProcurement(
  deps: ProcurementDeps,
  input: {
    id: number;
    actor: string;
    decision: ProcurementDecision;
    post: { channel: string; ts: string } | null;
  },
  words: Pick<ProcurementWords, "decidedPost" | "decisionReply">,
): ProcurementDecisionResult {
  const refusal = checkMayDecide(deps, input.id, input.actor);
  if (refusal !== null) return { kind: "refused", refusal };
  const { decision } = input;
  const reason =
    decision.kind === "reject"
      ? decision.reason.trim()
      : decision.kind === "more"
        ? decision.question.trim()
        : null;
  if (reason === "") return { kind: "refused", refusal: { reason: "needs-reason" } };
  const atMs = deps.clock.now();
  const { procurement, audit } = deps.state;
  return deps.state.transaction((): ProcurementDecisionResult => {
    if (!procurement.decide(input.id, { state: STATE[decision.kind], actor: input.actor, atMs, reason })) {
      return {
        kind: "refused",
        refusal: { reason: "already-decided", request: procurement.byId(input.id)! },
      };
    }
    const request = procurement.byId(input.id)!;
    audit.record({
      atMs,
      actor: input.actor,
      action: `procurement-${decision.kind}`,
      host: null,
      detail: { request: request.id, requester: request.requester, project: request.project, reason },
    });
    const channel = input.post?.channel ?? deps.config.slack.channel;
    const reply = words.decisionReply(request);
    deps.notifier.send("chat.postMessage", {
      channel,
      text: reply.text,
      ...(input.post === null ? {} : { thread_ts: input.post.ts, reply_broadcast: false }),
    });
    if (input.post !== null) {
      const decided = words.decidedPost(request);
      deps.notifier.send("chat.update", { ...input.post, text: decided.text, blocks: decided.blocks ?? [] });
    }
    return { kind: "decided", request };
  });
}

/** Whether `actor` may decide request `id` now; `null` when they may. */
export function checkMayDecide(
  deps: Pick<ProcurementDeps, "state" | "warden" | "config" | "clock">,
  id: number,
  actor: string,
): ProcurementRefusal | null {
  const request = deps.state.procurement.byId(id);
  if (request === null) return { reason: "gone" };
  if (request.state !== "open") return { reason: "already-decided", request };
  const warden = deps.warden.current(deps.clock.now());
  if (actor !== warden && !isAdmin(actor, deps.config)) return { reason: "not-allowed", warden };
  return null;
}
