import type { BlockAction, ButtonAction, Middleware, SlackActionMiddlewareArgs } from "@slack/bolt";
import { stopAllMine } from "../../../usecases/stop-all-mine.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { digestValueSchema, parseActionValue } from "../../ids.ts";
import { stopAllMineText } from "../../views/storm-digest-message.ts";
import { badButtonReply, replyOptions } from "./reply-options.ts";

/**
 * *Stop all mine* in a storm's owner DM (the click already passed Slack's confirm dialog): each of
 * the clicker's hosts in the digest goes through the stop use-case on its own (authorised,
 * re-checked, run once, audited); the clicker sees what was stopped and what was not.
 */
export function stopAllMineAction(
  deps: BotDeps,
): Middleware<SlackActionMiddlewareArgs<BlockAction<ButtonAction>>> {
  return async ({ ack, action, body, respond }) => {
    await ack();
    const options = replyOptions(body);
    const tr = await deps.readers.lookUp(body.user.id);
    const parsed = parseActionValue(digestValueSchema, action.value);
    if (!parsed.ok) {
      await respond({ ...badButtonReply(parsed.problem, tr), ...options });
      return;
    }
    const outcome = await stopAllMine(deps, parsed.value.digest, body.user.id);
    await respond({ text: stopAllMineText(tr, outcome), ...options, replace_original: false });
  };
}
