import type { BlockAction, ButtonAction, Middleware, SlackActionMiddlewareArgs } from "@slack/bolt";
import { beginStop } from "../../../usecases/power/stop-host.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { hostActionValueSchema, parseActionValue } from "../../ids.ts";
import { answerStop } from "./answer-stop.ts";
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
    await answerStop({ deps, tr, actor, alertId: alertId ?? null, begun: plan, respond, options });
  };
}
