import type { BlockAction, ButtonAction, Middleware, SlackActionMiddlewareArgs } from "@slack/bolt";
import { deferPreempt } from "../../../usecases/queue/queue-preempt.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { parseActionValue, preemptIdsValueSchema } from "../../ids.ts";
import { deferPreemptReply } from "../../views/queue/preempt-messages.ts";
import { answerClaimClick } from "./claim-answer.ts";
import { badButtonReply } from "./reply-options.ts";

/** *I need 30 more minutes* on a request to make room: the release moves 30 minutes on, once. */
export function preemptDeferAction(
  deps: BotDeps,
): Middleware<SlackActionMiddlewareArgs<BlockAction<ButtonAction>>> {
  return async ({ ack, action, body, respond }) => {
    await ack();
    const parsed = parseActionValue(preemptIdsValueSchema, action.value);
    const at = { nowMs: deps.clock.now(), zone: deps.config.team.timezone };
    const tr = await deps.readers.lookUp(body.user.id);
    const reply = parsed.ok
      ? deferPreemptReply(
          tr,
          deferPreempt(deps, { actor: body.user.id, preemptIds: parsed.value.preempts }),
          at,
        )
      : badButtonReply(parsed.problem, tr);
    await answerClaimClick(deps, body, respond, reply);
  };
}
