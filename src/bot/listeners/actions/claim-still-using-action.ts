import type { BlockAction, ButtonAction, Middleware, SlackActionMiddlewareArgs } from "@slack/bolt";
import { claimStillUsing } from "../../../usecases/claim-still-using.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { claimIdsValueSchema, parseActionValue } from "../../ids.ts";
import { textReply } from "../../views/reply-message.ts";
import { answerClaimClick } from "./claim-answer.ts";
import { badButtonReply } from "./reply-options.ts";

/** *Still using it* on a claimed-but-idle nudge. */
export function claimStillUsingAction(
  deps: BotDeps,
): Middleware<SlackActionMiddlewareArgs<BlockAction<ButtonAction>>> {
  return async ({ ack, action, body, respond }) => {
    await ack();
    const parsed = parseActionValue(claimIdsValueSchema, action.value);
    const reply = parsed.ok
      ? textReply(claimStillUsing(deps, { actor: body.user.id, claimIds: parsed.value.claims }).text)
      : badButtonReply(parsed.problem);
    await answerClaimClick(deps, body, respond, reply);
  };
}
