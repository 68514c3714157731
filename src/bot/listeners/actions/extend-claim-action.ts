import type { BlockAction, ButtonAction, Middleware, SlackActionMiddlewareArgs } from "@slack/bolt";
import { HOUR_MS } from "../../../shared/clock.ts";
import { extendClaims } from "../../../usecases/claims/extend-claims.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { claimIdsValueSchema, parseActionValue } from "../../ids.ts";
import { GPU_COMMAND } from "../../surface.ts";
import { extendReply } from "../../views/claims/claim-reply.ts";
import { answerClaimClick, claimBadButton } from "./claim-answer.ts";

/** How much *Extend 4 h* adds. */
export const EXTEND_BUTTON_MS = 4 * HOUR_MS;

/** *Extend 4 h* (reminder DM, `/gpu mine`, the Home tab). */
export function extendClaimAction(
  deps: BotDeps,
): Middleware<SlackActionMiddlewareArgs<BlockAction<ButtonAction>>> {
  return async ({ ack, action, body, respond }) => {
    await ack();
    const tr = await deps.readers.lookUp(body.user.id);
    const parsed = parseActionValue(claimIdsValueSchema, action.value);
    const reply = parsed.ok
      ? extendReply(
          tr,
          extendClaims(deps, {
            actor: body.user.id,
            target: { kind: "ids", claimIds: parsed.value.claims },
            byMs: EXTEND_BUTTON_MS,
          }),
          deps.clock.now(),
          GPU_COMMAND,
        )
      : claimBadButton(tr, parsed.problem);
    await answerClaimClick(deps, body, respond, reply);
  };
}
