import type { BlockAction, ButtonAction, Middleware, SlackActionMiddlewareArgs } from "@slack/bolt";
import { HOUR_MS } from "../../../shared/clock.ts";
import { type KeepSpan, keepHost } from "../../../usecases/keep-host.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { type KeepChoice, keepActionValueSchema, parseActionValue } from "../../ids.ts";
import { textReply } from "../../views/reply-message.ts";
import { badButtonReply, replyOptions } from "./reply-options.ts";

const SPANS: Readonly<Record<KeepChoice, KeepSpan>> = {
  "1h": { kind: "for", ms: HOUR_MS },
  "4h": { kind: "for", ms: 4 * HOUR_MS },
  tomorrow: { kind: "tomorrow" },
};

/** *Keep 1 h* / *Keep 4 h* / *Keep until tomorrow*: snoozes the host; the answer is ephemeral. */
export function keepHostAction(
  deps: BotDeps,
): Middleware<SlackActionMiddlewareArgs<BlockAction<ButtonAction>>> {
  return async ({ ack, action, body, respond }) => {
    await ack();
    const options = replyOptions(body);
    const parsed = parseActionValue(keepActionValueSchema, action.value);
    if (!parsed.ok) {
      await respond({ ...badButtonReply(parsed.problem), ...options });
      return;
    }
    const { host, alertId, keep } = parsed.value;
    const result = keepHost(deps, { host, actor: body.user.id, span: SPANS[keep], alertId });
    await respond({ ...textReply(result.text), ...options });
  };
}
