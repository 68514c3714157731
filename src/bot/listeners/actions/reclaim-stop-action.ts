import type { BlockAction, ButtonAction, Middleware, SlackActionMiddlewareArgs } from "@slack/bolt";
import { decideReclaim } from "../../../usecases/warden/decide-reclaim.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { parseActionValue, reclaimValueSchema } from "../../ids.ts";
import { textReply } from "../../views/reply-message.ts";
import { reclaimDecidedMessage, reclaimRefusalText } from "../../views/warden/reclaim-messages.ts";
import { badButtonReply } from "./reply-options.ts";

/**
 * *Stop* on a reclaim decision (after Slack's confirm dialog): acks, stops the host through the
 * stop workflow, and replaces the decision message with the outcome; a refusal (not the warden,
 * already decided, the host turned busy) is shown to the clicker only.
 */
export function reclaimStopAction(
  deps: BotDeps,
): Middleware<SlackActionMiddlewareArgs<BlockAction<ButtonAction>>> {
  return async ({ ack, action, body, respond }) => {
    await ack();
    const parsed = parseActionValue(reclaimValueSchema, action.value);
    if (!parsed.ok) {
      await respond({
        ...badButtonReply(parsed.problem, await deps.readers.lookUp(body.user.id)),
        response_type: "ephemeral",
        replace_original: false,
      });
      return;
    }
    const result = await decideReclaim(deps, {
      caseId: parsed.value.case,
      actor: body.user.id,
      decision: { kind: "stop" },
    });
    const tr = await deps.readers.lookUp(body.user.id);
    if (result.kind === "decided") {
      await respond({
        ...reclaimDecidedMessage(tr, result.entry),
        replace_original: true,
      });
      return;
    }
    await respond({
      ...textReply(reclaimRefusalText(tr, result)),
      response_type: "ephemeral",
      replace_original: false,
    });
  };
}
