import type { BlockAction, ButtonAction, Middleware, SlackActionMiddlewareArgs } from "@slack/bolt";
import { confirmGrant } from "../../../usecases/queue/queue-requests.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { parseActionValue, queueRequestValueSchema } from "../../ids.ts";
import { confirmGrantReply } from "../../views/queue/queue-messages.ts";
import { answerClaimClick, claimBadButton } from "./claim-answer.ts";

/** *Confirm* on a grant DM: the granted GPUs stay the clicker's; the DM is replaced by the answer. */
export function queueConfirmAction(
  deps: BotDeps,
): Middleware<SlackActionMiddlewareArgs<BlockAction<ButtonAction>>> {
  return async ({ ack, action, body, respond }) => {
    await ack();
    const tr = await deps.readers.lookUp(body.user.id);
    const parsed = parseActionValue(queueRequestValueSchema, action.value);
    const at = { nowMs: deps.clock.now(), zone: deps.config.team.timezone };
    const reply = parsed.ok
      ? confirmGrantReply(
          tr,
          confirmGrant(deps, { actor: body.user.id, requestId: parsed.value.request }),
          at,
        )
      : claimBadButton(tr, parsed.problem);
    await answerClaimClick(deps, body, respond, reply);
  };
}
