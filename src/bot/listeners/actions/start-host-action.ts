import type { BlockAction, ButtonAction, Middleware, SlackActionMiddlewareArgs } from "@slack/bolt";
import { publishHome } from "../../../usecases/fleet/publish-home.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { hostActionValueSchema, parseActionValue } from "../../ids.ts";
import { gpuStart } from "../commands/gpu-start.ts";
import { badButtonReply, replyOptions } from "./reply-options.ts";

/**
 * *Start* on a stopped alert or in the Home tab: the same path as `/gpu start <host>`; the answer
 * as an ephemeral, or on top of the republished Home tab (which has no `response_url`).
 */
export function startHostAction(
  deps: BotDeps,
): Middleware<SlackActionMiddlewareArgs<BlockAction<ButtonAction>>> {
  return async ({ ack, action, body, respond }) => {
    await ack();
    const options = replyOptions(body);
    const tr = await deps.readers.lookUp(body.user.id);
    const parsed = parseActionValue(hostActionValueSchema, action.value);
    if (!parsed.ok) {
      await respond({ ...badButtonReply(parsed.problem, tr), ...options });
      return;
    }
    const reply = gpuStart(deps, tr, body.user.id, parsed.value.host, "button");
    if (body.container.type === "view") publishHome(deps, body.user.id, reply.text);
    else await respond({ ...reply, ...options });
  };
}
