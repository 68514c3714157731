import type { BlockAction, ButtonAction, Middleware, SlackActionMiddlewareArgs } from "@slack/bolt";
import { joinWaitlist } from "../../../usecases/claims/claim-waitlist.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { parseActionValue, slotsValueSchema } from "../../ids.ts";
import { GPU_COMMAND } from "../../surface.ts";
import { waitlistReply } from "../../views/claims/claim-reply.ts";
import { answerClaimClick, claimBadButton } from "./claim-answer.ts";

/** *Notify me when free* on a conflict answer: the clicker joins the waitlist of the held GPUs. */
export function claimNotifyAction(
  deps: BotDeps,
): Middleware<SlackActionMiddlewareArgs<BlockAction<ButtonAction>>> {
  return async ({ ack, action, body, respond }) => {
    await ack();
    const tr = await deps.readers.lookUp(body.user.id);
    const parsed = parseActionValue(slotsValueSchema, action.value);
    const reply = parsed.ok
      ? waitlistReply(tr, joinWaitlist(deps, { actor: body.user.id, slots: parsed.value }), GPU_COMMAND)
      : claimBadButton(tr, parsed.problem);
    await answerClaimClick(deps, body, respond, reply);
  };
}
