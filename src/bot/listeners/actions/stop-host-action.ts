import type { BlockAction, ButtonAction, Middleware, SlackActionMiddlewareArgs } from "@slack/bolt";
import { isAdmin } from "../../../usecases/authorise.ts";
import { beginStop, runStop } from "../../../usecases/stop-host.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { hostActionValueSchema, parseActionValue } from "../../ids.ts";
import { stopResultReply, stopStartedReply } from "../../views/reply-stop.ts";
import { badButtonReply, replyOptions } from "./reply-options.ts";

/**
 * *Stop this host* (the click already passed Slack's confirm dialog) and an admin's *Stop anyway*.
 * Acks first; the stop itself runs after the ack, the clicker sees its progress and outcome
 * ephemerally and the alert thread gets the record. Concurrent and repeated clicks end in one stop:
 * the use-case takes an exactly-once key before anything runs.
 */
export function stopHostAction(
  deps: BotDeps,
  force: boolean,
): Middleware<SlackActionMiddlewareArgs<BlockAction<ButtonAction>>> {
  return async ({ ack, action, body, respond }) => {
    await ack();
    const options = replyOptions(body);
    const actor = body.user.id;
    const tr = await deps.readers.lookUp(actor);
    const parsed = parseActionValue(hostActionValueSchema, action.value);
    if (!parsed.ok) {
      await respond({ ...badButtonReply(parsed.problem, tr), ...options });
      return;
    }
    const { host, alertId } = parsed.value;
    const shown = { canForce: isAdmin(actor, deps.config), alertId: alertId ?? null };
    const plan = beginStop(deps, {
      host,
      actor,
      alertId,
      force,
      reason: force ? "stop forced by an admin" : "Stop button", // words-ok: audit reason code
    });
    if (plan.kind === "refused") {
      await respond({ ...stopResultReply(tr, plan, shown), ...options });
      return;
    }
    // NOTE: the stop runs even when the progress reply fails: the key is taken and must be released.
    const [progress, outcome] = await Promise.allSettled([
      plan.dryRun ? Promise.resolve() : respond({ ...stopStartedReply(tr, plan), ...options }),
      runStop(deps, plan),
    ]);
    if (outcome.status === "rejected") throw outcome.reason;
    await respond({ ...stopResultReply(tr, outcome.value, shown), ...options });
    if (progress.status === "rejected") throw progress.reason;
  };
}
