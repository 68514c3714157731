import type { BlockAction, ButtonAction, Middleware, SlackActionMiddlewareArgs } from "@slack/bolt";
import { claimGpus } from "../../../usecases/claims/claim-gpus.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { parseActionValue, slotsValueSchema } from "../../ids.ts";
import { GPU_COMMAND } from "../../surface.ts";
import { claimReply } from "../../views/claims/claim-reply.ts";
import { answerClaimClick, claimBadButton } from "./claim-answer.ts";

/** *Claim gpu-a:0* in the "free now" DM: the same claim as `/gpu claim gpu-a:0`, for the default time. */
export function claimSlotsAction(
  deps: BotDeps,
): Middleware<SlackActionMiddlewareArgs<BlockAction<ButtonAction>>> {
  return async ({ ack, action, body, respond }) => {
    await ack();
    const tr = await deps.readers.lookUp(body.user.id);
    const parsed = parseActionValue(slotsValueSchema, action.value);
    if (!parsed.ok) {
      await answerClaimClick(deps, body, respond, claimBadButton(tr, parsed.problem));
      return;
    }
    const target = { kind: "slots" as const, slots: parsed.value };
    const result = claimGpus(deps, { actor: body.user.id, target, durationMs: null });
    const asked = { target, durationMs: null, note: "" };
    await answerClaimClick(deps, body, respond, claimReply(tr, result, deps.clock.now(), GPU_COMMAND, asked));
  };
}
