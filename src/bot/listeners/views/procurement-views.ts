import type { Middleware, SlackViewMiddlewareArgs, ViewStateValue, ViewSubmitAction } from "@slack/bolt";
import type { ProcurementField, ProcurementForm } from "../../../checks/procurement-plan.ts";
import { decideProcurement } from "../../../usecases/procurement/decide-procurement.ts";
import { submitProcurementRequest } from "../../../usecases/procurement/request-gpus.ts";
import type { BotDeps } from "../../bot-deps.ts";
import {
  PROCUREMENT_INPUTS,
  procurementFormMetadataSchema,
  procurementReasonMetadataSchema,
} from "../../ids.ts";
import {
  formErrors,
  procurementRefusalText,
  procurementWords,
} from "../../views/procurement/procurement-messages.ts";

type ViewListener = Middleware<SlackViewMiddlewareArgs<ViewSubmitAction>>;

function metadataOf(view: { private_metadata: string }): unknown {
  try {
    return JSON.parse(view.private_metadata);
  } catch {
    return null;
  }
}

function typed(values: Record<string, Record<string, ViewStateValue>>, block: string): string | null {
  const value = values[block]?.value;
  return value?.selected_option?.value ?? value?.value ?? null;
}

/**
 * The request form submitted: problems go back under their fields (`response_action: "errors"`;
 * no plan: the rule); a complete request is stored and posted to the warden and the admins, and the
 * form closes.
 */
export function procurementRequestView(deps: BotDeps): ViewListener {
  return async ({ ack, view, body }) => {
    const tr = await deps.readers.lookUp(body.user.id);
    const metadata = procurementFormMetadataSchema.safeParse(metadataOf(view));
    if (!metadata.success) {
      await ack({
        response_action: "errors",
        errors: { [PROCUREMENT_INPUTS.model]: tr.t("procurement.error.unreadable") },
      });
      return;
    }
    const fields = Object.keys(PROCUREMENT_INPUTS).filter((f) => f !== "reason") as ProcurementField[];
    const form = Object.fromEntries(
      fields.map((field) => [field, typed(view.state.values, PROCUREMENT_INPUTS[field])]),
    ) as unknown as ProcurementForm;
    const result = submitProcurementRequest(
      deps,
      { requester: body.user.id, project: metadata.data.project, form },
      procurementWords(deps.readers.channel),
    );
    if (result.kind === "refused") {
      await ack({ response_action: "errors", errors: formErrors(tr, result.problems) });
      return;
    }
    await ack();
  };
}

/** The reason modal submitted: reject or ask for more, decided once; a refusal shows on the form. */
export function procurementReasonView(deps: BotDeps): ViewListener {
  return async ({ ack, view, body }) => {
    const tr = await deps.readers.lookUp(body.user.id);
    const metadata = procurementReasonMetadataSchema.safeParse(metadataOf(view));
    const block = PROCUREMENT_INPUTS.reason;
    if (!metadata.success) {
      await ack({ response_action: "errors", errors: { [block]: tr.t("procurement.error.unreadable") } });
      return;
    }
    const { request, decision, channel, ts } = metadata.data;
    const reason = typed(view.state.values, block) ?? "";
    const result = decideProcurement(
      deps,
      {
        id: request,
        actor: body.user.id,
        decision: decision === "reject" ? { kind: "reject", reason } : { kind: "more", question: reason },
        post: channel === null || ts === null ? null : { channel, ts },
      },
      procurementWords(deps.readers.channel),
    );
    if (result.kind === "refused") {
      await ack({
        response_action: "errors",
        errors: { [block]: procurementRefusalText(tr, result.refusal) },
      });
      return;
    }
    await ack();
  };
}
