import type { BlockAction, ButtonAction, Middleware, SlackActionMiddlewareArgs } from "@slack/bolt";
import { checkMayDecide, decideProcurement } from "../../../usecases/procurement/decide-procurement.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { parseActionValue, procurementValueSchema } from "../../ids.ts";
import { procurementRefusalText, procurementWords } from "../../views/procurement/procurement-messages.ts";
import { reasonModal } from "../../views/procurement/procurement-modal.ts";
import { textReply } from "../../views/reply-message.ts";
import { badButtonReply } from "./reply-options.ts";

type ButtonListener = Middleware<SlackActionMiddlewareArgs<BlockAction<ButtonAction>>>;

/**
 * *Approve* on a request for more GPUs (after Slack's confirm dialog): decided at once, in the
 * request's thread; a refusal (not the warden or an admin, decided already) goes to the clicker only.
 */
export function procurementApproveAction(deps: BotDeps): ButtonListener {
  return async ({ ack, action, body, respond }) => {
    await ack();
    const tr = await deps.readers.lookUp(body.user.id);
    const parsed = parseActionValue(procurementValueSchema, action.value);
    if (!parsed.ok) {
      await respond({
        ...badButtonReply(parsed.problem, tr),
        response_type: "ephemeral",
        replace_original: false,
      });
      return;
    }
    const channel = body.channel?.id;
    const ts = body.message?.ts;
    const result = decideProcurement(
      deps,
      {
        id: parsed.value.request,
        actor: body.user.id,
        decision: { kind: "approve" },
        post: channel === undefined || ts === undefined ? null : { channel, ts },
      },
      procurementWords(deps.readers.channel),
    );
    if (result.kind === "decided") return;
    await respond({
      ...textReply(procurementRefusalText(tr, result.refusal)),
      response_type: "ephemeral",
      replace_original: false,
    });
  };
}

/** *Reject…* and *Ask for more…*: the reason modal, for the warden or an admin while the request is open. */
export function procurementReasonAction(deps: BotDeps, decision: "reject" | "more"): ButtonListener {
  return async ({ ack, action, body, respond, client }) => {
    await ack();
    const tr = await deps.readers.lookUp(body.user.id);
    const parsed = parseActionValue(procurementValueSchema, action.value);
    const refusal = parsed.ok ? checkMayDecide(deps, parsed.value.request, body.user.id) : null;
    if (!parsed.ok || refusal !== null) {
      const text = parsed.ok ? procurementRefusalText(tr, refusal!) : badButtonReply(parsed.problem, tr).text;
      await respond({ ...textReply(text), response_type: "ephemeral", replace_original: false });
      return;
    }
    await client.views.open({
      trigger_id: body.trigger_id,
      view: reasonModal(tr, {
        request: parsed.value.request,
        decision,
        channel: body.channel?.id ?? null,
        ts: body.message?.ts ?? null,
      }),
    });
  };
}
