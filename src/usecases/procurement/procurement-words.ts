import type { ProcurementRequest } from "../../domain/procurement-request.ts";
import type { RenderedReply } from "../ports.ts";

/** Turns a request for more GPUs and its decision into Slack messages (the bot's views implement it). */
export interface ProcurementWords {
  /** The team channel's post of a complete request, to the warden and the admins, with the decision buttons. */
  requestPost(
    request: ProcurementRequest,
    deciders: { warden: string | null; admins: readonly string[] },
  ): RenderedReply;
  /** The request's post once decided (its buttons gone). */
  decidedPost(request: ProcurementRequest): RenderedReply;
  /** The decision, in the request's thread. */
  decisionReply(request: ProcurementRequest): RenderedReply;
}
