import type { BlockAction, ButtonAction, Middleware, SlackActionMiddlewareArgs } from "@slack/bolt";
import { joinWaitlist } from "../../../usecases/claim-waitlist.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { parseActionValue, slotsValueSchema } from "../../ids.ts";
import { textReply } from "../../views/reply-message.ts";
import { answerClaimClick } from "./claim-answer.ts";
import { badButtonReply } from "./reply-options.ts";

/** *Notify me when free* on a conflict answer: the clicker joins the waitlist of the held GPUs. */
export function claimNotifyAction(
  deps: BotDeps,
): Middleware<SlackActionMiddlewareArgs<BlockAction<ButtonAction>>> {
  return async ({ ack, action, body, respond }) => {
    await ack();
    const parsed = parseActionValue(slotsValueSchema, action.value);
    const reply = parsed.ok
      ? textReply(joinWaitlist(deps, { actor: body.user.id, slots: parsed.value }).text)
      : badButtonReply(parsed.problem);
    await answerClaimClick(deps, body, respond, reply);
  };
}
