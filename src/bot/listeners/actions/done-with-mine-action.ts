import type { BlockAction, ButtonAction, Middleware, SlackActionMiddlewareArgs } from "@slack/bolt";
import { beginDoneWithMine } from "../../../usecases/power/done-with-mine.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { doneValueSchema, parseActionValue } from "../../ids.ts";
import { doneReplyWords } from "../../views/power/done-words.ts";
import { textReply } from "../../views/reply-message.ts";
import { answerStop } from "./answer-stop.ts";
import { badButtonReply, replyOptions } from "./reply-options.ts";

/**
 * *Done with mine* (the click already passed Slack's confirm dialog). Acks first. The presser is
 * answered alone: noted (and who the host still waits for; the thread says it too), refused, or,
 * when they were the last with work on the host, the stop's own answer while the stop runs as a
 * Stop click's does (its progress in the alert's thread).
 */
export function doneWithMineAction(
  deps: BotDeps,
): Middleware<SlackActionMiddlewareArgs<BlockAction<ButtonAction>>> {
  return async ({ ack, action, body, respond }) => {
    await ack();
    const options = replyOptions(body);
    const actor = body.user.id;
    const tr = await deps.readers.lookUp(actor);
    const parsed = parseActionValue(doneValueSchema, action.value);
    if (!parsed.ok) {
      await respond({ ...badButtonReply(parsed.problem, tr), ...options });
      return;
    }
    const { host, alertId } = parsed.value;
    const begun = beginDoneWithMine(deps, { host, actor, alertId });
    if (begun.kind === "noted" || begun.kind === "done-refused") {
      await respond({ ...textReply(doneReplyWords(tr, begun)), ...options });
      return;
    }
    await answerStop({ deps, tr, actor, alertId, begun, respond, options });
  };
}
