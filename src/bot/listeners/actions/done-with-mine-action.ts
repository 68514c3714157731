import type { BlockAction, ButtonAction, Middleware, SlackActionMiddlewareArgs } from "@slack/bolt";
import { isAdmin } from "../../../usecases/authorise.ts";
import { beginDoneWithMine } from "../../../usecases/power/done-with-mine.ts";
import { runStop } from "../../../usecases/power/stop-host.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { doneValueSchema, parseActionValue } from "../../ids.ts";
import { progressPlace } from "../../progress-place.ts";
import { doneReplyWords } from "../../views/power/done-words.ts";
import { stopBegunReply, stopResultReply } from "../../views/power/reply-stop.ts";
import { textReply } from "../../views/reply-message.ts";
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
    if (begun.kind === "refused") {
      const shown = { canForce: isAdmin(actor, deps.config), alertId };
      await respond({ ...stopResultReply(tr, begun, shown), ...options });
      return;
    }
    // NOTE: the stop runs even when the answer fails: the key is taken and must be released.
    const [answer, outcome] = await Promise.allSettled([
      respond({ ...stopBegunReply(tr, begun, progressPlace(deps, host)), ...options }),
      runStop(deps, begun),
    ]);
    if (outcome.status === "rejected") throw outcome.reason;
    if (answer.status === "rejected") throw answer.reason;
  };
}
