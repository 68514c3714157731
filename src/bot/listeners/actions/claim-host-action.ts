import type { BlockAction, ButtonAction, Middleware, SlackActionMiddlewareArgs } from "@slack/bolt";
import { claimHost } from "../../../usecases/claims/claim-host.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { hostActionValueSchema, parseActionValue } from "../../ids.ts";
import { GPU_COMMAND } from "../../surface.ts";
import { claimReply } from "../../views/claims/claim-reply.ts";
import { claimBadButton } from "./claim-answer.ts";
import { replyOptions } from "./reply-options.ts";

/** *Claim it* on an alert: the clicker claims the whole host for the default time; the answer is ephemeral. */
export function claimHostAction(
  deps: BotDeps,
): Middleware<SlackActionMiddlewareArgs<BlockAction<ButtonAction>>> {
  return async ({ ack, action, body, respond }) => {
    await ack();
    const options = replyOptions(body);
    const tr = await deps.readers.lookUp(body.user.id);
    const parsed = parseActionValue(hostActionValueSchema, action.value);
    if (!parsed.ok) {
      await respond({ ...claimBadButton(tr, parsed.problem), ...options });
      return;
    }
    const { host, alertId } = parsed.value;
    const result = claimHost(deps, { host, actor: body.user.id, alertId });
    const asked = {
      target: { kind: "slots" as const, slots: { host, gpus: null } },
      durationMs: null,
      note: "",
    };
    await respond({ ...claimReply(tr, result, deps.clock.now(), GPU_COMMAND, asked), ...options });
  };
}
