import type { BlockAction, ButtonAction, Middleware, SlackActionMiddlewareArgs } from "@slack/bolt";
import { beginStopAllMine, runStopAllMine } from "../../../usecases/power/stop-all-mine.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { digestValueSchema, parseActionValue } from "../../ids.ts";
import { progressPlace } from "../../progress-place.ts";
import { stopAllMineText } from "../../views/alerts/storm-digest-message.ts";
import { badButtonReply, replyOptions } from "./reply-options.ts";

/**
 * *Stop all mine* in a storm's owner DM (the click already passed Slack's confirm dialog): each of
 * the clicker's hosts in the digest goes through the stop use-case on its own (authorised,
 * re-checked, run once, audited). The clicker is told at once which hosts are being stopped, each
 * linked to its alert's thread where its progress is said, and which are not; then the stops run.
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
    const begun = beginStopAllMine(deps, parsed.value.digest, body.user.id);
    const linkOf = (host: string) => {
      const place = progressPlace(deps, host);
      return place.kind === "thread" ? place.link : null;
    };
    // NOTE: the stops run even when the answer fails: their keys are taken and must be released.
    const [answer, outcome] = await Promise.allSettled([
      respond({ text: stopAllMineText(tr, begun.view, linkOf), ...options, replace_original: false }),
      runStopAllMine(deps, begun.plans),
    ]);
    if (outcome.status === "rejected") throw outcome.reason;
    if (answer.status === "rejected") throw answer.reason;
  };
}
