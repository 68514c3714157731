import type { BlockAction, ButtonAction, Middleware, SlackActionMiddlewareArgs } from "@slack/bolt";
import { joinQueue } from "../../../usecases/queue-requests.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { parseActionValue, queueWaitValueSchema } from "../../ids.ts";
import { GPU_COMMAND } from "../../surface.ts";
import { joinQueueReply } from "../../views/queue-messages.ts";
import { joinReplyWithEta } from "../commands/eta-replies.ts";
import { answerClaimClick } from "./claim-answer.ts";
import { badButtonReply } from "./reply-options.ts";

/** *Wait for it* on a conflict answer: the clicker joins the waiting list with the same request. */
export function queueWaitAction(
  deps: BotDeps,
): Middleware<SlackActionMiddlewareArgs<BlockAction<ButtonAction>>> {
  return async ({ ack, action, body, respond }) => {
    await ack();
    const parsed = parseActionValue(queueWaitValueSchema, action.value);
    if (!parsed.ok) {
      await answerClaimClick(deps, body, respond, badButtonReply(parsed.problem));
      return;
    }
    const joined = joinQueue(deps, { actor: body.user.id, ...parsed.value });
    const reply = joinReplyWithEta(deps, body.user.id, joined, joinQueueReply(joined, GPU_COMMAND));
    await answerClaimClick(deps, body, respond, reply);
  };
}
