import type { BlockAction, ButtonAction, Middleware, SlackActionMiddlewareArgs } from "@slack/bolt";
import { claimStillUsing } from "../../../usecases/claims/claim-still-using.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { claimIdsValueSchema, parseActionValue } from "../../ids.ts";
import { stillUsingReply } from "../../views/claims/claim-reply.ts";
import { answerClaimClick, claimBadButton } from "./claim-answer.ts";

/** *Still using it* on a claimed-but-idle nudge. */
export function claimStillUsingAction(
  deps: BotDeps,
): Middleware<SlackActionMiddlewareArgs<BlockAction<ButtonAction>>> {
  return async ({ ack, action, body, respond }) => {
    await ack();
    const tr = await deps.readers.lookUp(body.user.id);
    const parsed = parseActionValue(claimIdsValueSchema, action.value);
    const reply = parsed.ok
      ? stillUsingReply(
          tr,
          claimStillUsing(deps, { actor: body.user.id, claimIds: parsed.value.claims }),
          deps.clock.now(),
        )
      : claimBadButton(tr, parsed.problem);
    await answerClaimClick(deps, body, respond, reply);
  };
}
