import type { BlockAction, ButtonAction, Middleware, SlackActionMiddlewareArgs } from "@slack/bolt";
import { isAdmin } from "../../../usecases/authorise.ts";
import { beginStop, runStop } from "../../../usecases/power/stop-host.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { hostActionValueSchema, parseActionValue } from "../../ids.ts";
import { progressPlace } from "../../progress-place.ts";
import { stopBegunReply, stopResultReply } from "../../views/power/reply-stop.ts";
import { badButtonReply, replyOptions } from "./reply-options.ts";

/**
 * *Stop this host* (the click already passed Slack's confirm dialog) and an admin's *Stop anyway*.
 * Acks first. A refusal is answered to the clicker alone. A stop that goes ahead says its progress
 * and outcome once, in the alert's thread (the use-case posts there); the clicker gets one short
 * answer that points to it (replacing a `/gpu stop` preview or a *Stop anyway* offer). Concurrent
 * and repeated clicks end in one stop: the use-case takes an exactly-once key before anything runs.
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
    const plan = beginStop(deps, {
      host,
      actor,
      alertId,
      force,
      reason: force ? "stop forced by an admin" : "Stop button", // words-ok: audit reason code
    });
    if (plan.kind === "refused") {
      const shown = { canForce: isAdmin(actor, deps.config), alertId: alertId ?? null };
      await respond({ ...stopResultReply(tr, plan, shown), ...options });
      return;
    }
    // NOTE: the stop runs even when the answer fails: the key is taken and must be released.
    const [answer, outcome] = await Promise.allSettled([
      respond({ ...stopBegunReply(tr, plan, progressPlace(deps, host)), ...options }),
      runStop(deps, plan),
    ]);
    if (outcome.status === "rejected") throw outcome.reason;
    if (answer.status === "rejected") throw answer.reason;
  };
}
