import type { BlockAction, ButtonAction, Middleware, SlackActionMiddlewareArgs } from "@slack/bolt";
import { releaseClaims } from "../../../usecases/claims/release-claims.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { claimIdsValueSchema, parseActionValue } from "../../ids.ts";
import { GPU_COMMAND } from "../../surface.ts";
import { releaseReply } from "../../views/claims/claim-reply.ts";
import { answerClaimClick, claimBadButton } from "./claim-answer.ts";

/**
 * *Release* (reminder and nudge DMs, `/gpu mine`, the Home tab) and *Release it (force)* (the cost
 * warden's or an admin's conflict answer): the same release, so someone else's claim is released
 * only by the cost warden or an admin.
 */
export function releaseClaimAction(
  deps: BotDeps,
): Middleware<SlackActionMiddlewareArgs<BlockAction<ButtonAction>>> {
  return async ({ ack, action, body, respond }) => {
    await ack();
    const tr = await deps.readers.lookUp(body.user.id);
    const parsed = parseActionValue(claimIdsValueSchema, action.value);
    const reply = parsed.ok
      ? releaseReply(
          tr,
          releaseClaims(deps, {
            actor: body.user.id,
            target: { kind: "ids", claimIds: parsed.value.claims },
          }),
          deps.clock.now(),
          GPU_COMMAND,
        )
      : claimBadButton(tr, parsed.problem);
    await answerClaimClick(deps, body, respond, reply);
  };
}
