import type { BlockAction, ButtonAction, Middleware, SlackActionMiddlewareArgs } from "@slack/bolt";
import { joinQueue } from "../../../usecases/queue/queue-requests.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { parseActionValue, queueWaitValueSchema } from "../../ids.ts";
import { GPU_COMMAND } from "../../surface.ts";
import { joinQueueReply } from "../../views/queue/queue-messages.ts";
import type { Reply } from "../../views/reply-message.ts";
import { joinReplyWithEta } from "../commands/eta-replies.ts";
import { answerClaimClick, claimBadButton } from "./claim-answer.ts";

/** *Wait for it* on a conflict answer: the clicker joins the waiting list with the same request. */
export function queueWaitAction(
  deps: BotDeps,
): Middleware<SlackActionMiddlewareArgs<BlockAction<ButtonAction>>> {
  return async ({ ack, action, body, respond }) => {
    await ack();
    const tr = await deps.readers.lookUp(body.user.id);
    const parsed = parseActionValue(queueWaitValueSchema, action.value);
    let reply: Reply;
    if (parsed.ok) {
      const joined = joinQueue(deps, { actor: body.user.id, ...parsed.value });
      reply = joinReplyWithEta(deps, tr, joined, joinQueueReply(tr, joined, GPU_COMMAND));
    } else reply = claimBadButton(tr, parsed.problem);
    await answerClaimClick(deps, body, respond, reply);
  };
}
