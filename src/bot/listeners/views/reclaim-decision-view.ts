import type { Middleware, SlackViewMiddlewareArgs, ViewSubmitAction } from "@slack/bolt";
import { decideReclaim, type ReclaimDecision } from "../../../usecases/warden/decide-reclaim.ts";
import type { BotDeps } from "../../bot-deps.ts";
import { RECLAIM_INPUTS, reclaimViewMetadataSchema } from "../../ids.ts";
import { reclaimDecidedMessage, reclaimRefusalText } from "../../views/warden/reclaim-messages.ts";

/**
 * Submitting the lend or keep modal: the decision is made before the ack, so a problem (nothing
 * picked, no reason, already decided, not the warden) shows on the form; on success the modal
 * closes and the decision message loses its buttons.
 */
export function reclaimDecisionView(
  deps: BotDeps,
  kind: "lend" | "keep",
): Middleware<SlackViewMiddlewareArgs<ViewSubmitAction>> {
  return async ({ ack, view, body }) => {
    const tr = await deps.readers.lookUp(body.user.id);
    const firstBlock = kind === "lend" ? RECLAIM_INPUTS.person.block : RECLAIM_INPUTS.reason.block;
    let metadata: unknown;
    try {
      metadata = JSON.parse(view.private_metadata);
    } catch {
      metadata = null;
    }
    const parsed = reclaimViewMetadataSchema.safeParse(metadata);
    if (!parsed.success) {
      await ack({
        response_action: "errors",
        errors: { [firstBlock]: tr.t("reclaim.form.unreadable") },
      });
      return;
    }
    const values = view.state.values;
    const decision: ReclaimDecision =
      kind === "lend"
        ? {
            kind: "lend",
            owner: values[RECLAIM_INPUTS.person.block]?.[RECLAIM_INPUTS.person.action]?.selected_user ?? null,
            project: values[RECLAIM_INPUTS.project.block]?.[RECLAIM_INPUTS.project.action]?.value ?? null,
          }
        : {
            kind: "keep",
            reason: values[RECLAIM_INPUTS.reason.block]?.[RECLAIM_INPUTS.reason.action]?.value ?? "",
          };
    const result = await decideReclaim(deps, { caseId: parsed.data.case, actor: body.user.id, decision });
    if (result.kind !== "decided") {
      await ack({ response_action: "errors", errors: { [firstBlock]: reclaimRefusalText(tr, result) } });
      return;
    }
    await ack();
    const { channel, ts } = parsed.data;
    if (channel !== null && ts !== null) {
      const message = reclaimDecidedMessage(tr, result.entry);
      deps.notifier.send("chat.update", { channel, ts, text: message.text, blocks: message.blocks ?? [] });
    }
  };
}
