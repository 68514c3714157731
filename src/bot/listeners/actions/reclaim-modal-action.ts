import type { BlockAction, ButtonAction, Middleware, SlackActionMiddlewareArgs } from "@slack/bolt";
import { checkOpen } from "../../../usecases/warden/decide-reclaim.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { parseActionValue, reclaimValueSchema } from "../../ids.ts";
import { textReply } from "../../views/reply-message.ts";
import { reclaimRefusalText } from "../../views/warden/reclaim-messages.ts";
import { keepModal, lendModal } from "../../views/warden/reclaim-modals.ts";
import { badButtonReply } from "./reply-options.ts";

/**
 * *Lend to…* and *Keep…* on a reclaim decision: open the modal (who gets the host / why keep it)
 * for the warden or an admin while the case is open; anyone else is told who may decide.
 */
export function reclaimModalAction(
  deps: BotDeps,
  kind: "lend" | "keep",
): Middleware<SlackActionMiddlewareArgs<BlockAction<ButtonAction>>> {
  return async ({ ack, action, body, respond, client }) => {
    await ack();
    const tr = await deps.readers.lookUp(body.user.id);
    const parsed = parseActionValue(reclaimValueSchema, action.value);
    const entry = parsed.ok ? deps.reclaims.byId(parsed.value.case) : null;
    const closed = entry === null ? null : checkOpen(deps, entry, body.user.id);
    const refusal = !parsed.ok
      ? badButtonReply(parsed.problem, tr).text
      : entry === null
        ? tr.t("reclaim.refused.gone")
        : closed === null || closed.kind === "decided"
          ? undefined
          : reclaimRefusalText(tr, closed);
    if (refusal !== undefined || entry === null) {
      await respond({ ...textReply(refusal ?? ""), response_type: "ephemeral", replace_original: false });
      return;
    }
    const metadata = {
      case: entry.id,
      host: entry.host,
      channel: body.channel?.id ?? null,
      ts: body.message?.ts ?? null,
    };
    await client.views.open({
      trigger_id: body.trigger_id,
      view: kind === "lend" ? lendModal(tr, metadata) : keepModal(tr, metadata),
    });
  };
}
