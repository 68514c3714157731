import type { BlockAction, ButtonAction, Middleware, SlackActionMiddlewareArgs } from "@slack/bolt";
import { HOUR_MS } from "../../../shared/clock.ts";
import { type KeepSpan, keepHost } from "../../../usecases/alerts/keep-host.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { type KeepChoice, keepActionValueSchema, parseActionValue } from "../../ids.ts";
import { keepReplyText } from "../../views/power/reply-keep.ts";
import { textReply } from "../../views/reply-message.ts";
import { badButtonReply, replyOptions } from "./reply-options.ts";

const SPANS: Readonly<Record<KeepChoice, KeepSpan>> = {
  "1h": { kind: "for", ms: HOUR_MS },
  "4h": { kind: "for", ms: 4 * HOUR_MS },
  tomorrow: { kind: "tomorrow" },
};

/**
 * *Keep 1 h* / *Keep 4 h* / *Keep until tomorrow*: snoozes the host. On the alert, the alert and its
 * thread show the keep; a refusal, a keep already in place, or a keep clicked in an ephemeral (a
 * preview) is answered to the clicker alone.
 */
export function keepHostAction(
  deps: BotDeps,
): Middleware<SlackActionMiddlewareArgs<BlockAction<ButtonAction>>> {
  return async ({ ack, action, body, respond }) => {
    await ack();
    const options = replyOptions(body);
    const parsed = parseActionValue(keepActionValueSchema, action.value);
    if (!parsed.ok) {
      await respond({
        ...badButtonReply(parsed.problem, await deps.readers.lookUp(body.user.id)),
        ...options,
      });
      return;
    }
    const { host, alertId, keep } = parsed.value;
    const actor = body.user.id;
    const tr = await deps.readers.lookUp(actor);
    const result = keepHost(deps, { host, actor, span: SPANS[keep], alertId });
    // NOTE: a keep clicked on the alert shows there: the alert turns "kept" and its thread says by
    // whom and until when. An answer to the clicker alone would say it a third time.
    if (result.kind === "kept" && !result.already && !options.replace_original) return;
    await respond({ ...textReply(keepReplyText(tr, result, actor)), ...options });
  };
}
