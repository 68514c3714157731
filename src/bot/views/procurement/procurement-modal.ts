import type { types } from "@slack/bolt";
import { addMonths } from "../../../checks/local-day.ts";
import { PLAN_MIN_MONTHS, REQUEST_MAX_GPUS } from "../../../checks/procurement-plan.ts";
import { PROCUREMENT_KINDS } from "../../../domain/procurement-request.ts";
import type { Translator } from "../../../messages/translator.ts";
import type { ProjectMonthUse } from "../../../usecases/procurement/procurement-facts.ts";
import { PROCUREMENT_INPUTS, PROCUREMENT_VIEW_IDS, type ProcurementReasonMetadata } from "../../ids.ts";
import { escapeMrkdwn } from "../alerts/alert-format.ts";
import { context, section } from "../reply-message.ts";

/** The longest text a free-text field of the request takes. */
const MAX_FIELD_CHARS = 2_000;

/** What the request form shows: the project and its last months, and this month (`YYYY-MM`). */
export interface RequestFormFacts {
  project: string | null;
  use: readonly ProjectMonthUse[];
  thisMonth: string;
}

/**
 * What `/gpu request` opens at once, while it reads the months of use that {@link requestModal}
 * shows (Slack's `trigger_id` lasts 3 s; reading a large fleet's months may take longer).
 */
export function requestLoadingModal(tr: Translator): types.ModalView {
  return {
    type: "modal",
    callback_id: PROCUREMENT_VIEW_IDS.request,
    title: { type: "plain_text", text: tr.t("procurement.modal.title") },
    close: { type: "plain_text", text: tr.t("procurement.modal.close") },
    blocks: [section(tr.t("procurement.modal.loading", { months: PLAN_MIN_MONTHS }))],
  };
}

/**
 * `/gpu request`'s modal: the rule, the project's last months of use (GPU-hours used and held,
 * idle share, hours waited), then what, why and the plan. The plan's fields are optional for Slack
 * so that a request without one reaches the bot and is answered with the rule.
 */
export function requestModal(tr: Translator, facts: RequestFormFacts): types.ModalView {
  return {
    type: "modal",
    callback_id: PROCUREMENT_VIEW_IDS.request,
    private_metadata: JSON.stringify({ project: facts.project }),
    title: { type: "plain_text", text: tr.t("procurement.modal.title") },
    submit: { type: "plain_text", text: tr.t("procurement.modal.submit") },
    close: { type: "plain_text", text: tr.t("procurement.modal.close") },
    blocks: [
      section(tr.t("procurement.modal.rule", { months: PLAN_MIN_MONTHS })),
      factsBlock(tr, facts),
      textInput(tr, "model", { hint: "procurement.modal.modelHint", maxLength: 100 }),
      {
        type: "input",
        block_id: PROCUREMENT_INPUTS.count,
        label: { type: "plain_text", text: tr.t("procurement.modal.count") },
        element: {
          type: "number_input",
          action_id: "value",
          is_decimal_allowed: false,
          min_value: "1",
          max_value: String(REQUEST_MAX_GPUS),
        },
      },
      kindInput(tr),
      textInput(tr, "why", { multiline: true }),
      textInput(tr, "tasks", { multiline: true, optional: true, hint: "procurement.modal.tasksHint" }),
      hoursInput(tr, facts),
      textInput(tr, "acceptance", {
        multiline: true,
        optional: true,
        hint: "procurement.modal.acceptanceHint",
      }),
    ],
  };
}

function factsBlock(tr: Translator, facts: RequestFormFacts): types.KnownBlock {
  if (facts.project === null) return context(tr.t("procurement.modal.factsNone"));
  const lines = facts.use.map((m) =>
    tr.t("procurement.modal.factsMonth", {
      month: m.month,
      busy: Math.round(m.busyGpuHours),
      claimed: Math.round(m.claimedGpuHours),
      idle:
        m.idleShare === null ? tr.t("procurement.modal.noCost") : tr.t("common.pct", { ratio: m.idleShare }),
      waited: Math.round(m.waitedHours),
    }),
  );
  const title = tr.t("procurement.modal.factsTitle", {
    project: escapeMrkdwn(facts.project),
    months: facts.use.length,
  });
  return section([title, ...lines.map((line) => `• ${line}`)].join("\n"));
}

type TextField = "model" | "why" | "tasks" | "acceptance";

function textInput(
  tr: Translator,
  field: TextField,
  options: {
    multiline?: boolean;
    optional?: boolean;
    hint?: "procurement.modal.modelHint" | "procurement.modal.tasksHint" | "procurement.modal.acceptanceHint";
    maxLength?: number;
  },
): types.InputBlock {
  return {
    type: "input",
    block_id: PROCUREMENT_INPUTS[field],
    optional: options.optional === true,
    label: { type: "plain_text", text: tr.t(`procurement.modal.${field}`) },
    ...(options.hint === undefined
      ? {}
      : { hint: { type: "plain_text" as const, text: tr.t(options.hint) } }),
    element: {
      type: "plain_text_input",
      action_id: "value",
      multiline: options.multiline === true,
      max_length: options.maxLength ?? MAX_FIELD_CHARS,
    },
  };
}

function kindInput(tr: Translator): types.InputBlock {
  const options = PROCUREMENT_KINDS.map((kind) => ({
    text: { type: "plain_text" as const, text: tr.t(`procurement.kind.${kind}`) },
    value: kind,
  }));
  return {
    type: "input",
    block_id: PROCUREMENT_INPUTS.kind,
    label: { type: "plain_text", text: tr.t("procurement.modal.kind") },
    element: { type: "radio_buttons", action_id: "value", options, initial_option: options[0]! },
  };
}

/** The next {@link PLAN_MIN_MONTHS} months, each at the project's mean busy GPU-hours of the last months. */
function hoursInput(tr: Translator, facts: RequestFormFacts): types.InputBlock {
  const mean =
    facts.use.length === 0 ? 0 : facts.use.reduce((sum, m) => sum + m.busyGpuHours, 0) / facts.use.length;
  const initial = Array.from(
    { length: PLAN_MIN_MONTHS },
    (_, i) => `${addMonths(facts.thisMonth, i + 1)} ${Math.round(mean)}`,
  ).join("\n");
  return {
    type: "input",
    block_id: PROCUREMENT_INPUTS.hours,
    optional: true,
    label: { type: "plain_text", text: tr.t("procurement.modal.hours") },
    hint: { type: "plain_text", text: tr.t("procurement.modal.hoursHint", { months: PLAN_MIN_MONTHS }) },
    element: {
      type: "plain_text_input",
      action_id: "value",
      multiline: true,
      max_length: MAX_FIELD_CHARS,
      initial_value: initial,
    },
  };
}

/** *Reject…* / *Ask for more…*: the reason (required). */
export function reasonModal(tr: Translator, metadata: ProcurementReasonMetadata): types.ModalView {
  const reject = metadata.decision === "reject";
  return {
    type: "modal",
    callback_id: PROCUREMENT_VIEW_IDS.reason,
    private_metadata: JSON.stringify(metadata),
    title: {
      type: "plain_text",
      text: tr.t(reject ? "procurement.reason.rejectTitle" : "procurement.reason.moreTitle"),
    },
    submit: { type: "plain_text", text: tr.t("procurement.reason.submit") },
    close: { type: "plain_text", text: tr.t("procurement.reason.close") },
    blocks: [
      {
        type: "input",
        block_id: PROCUREMENT_INPUTS.reason,
        label: {
          type: "plain_text",
          text: tr.t(reject ? "procurement.reason.rejectLabel" : "procurement.reason.moreLabel", {
            id: metadata.request,
          }),
        },
        element: {
          type: "plain_text_input",
          action_id: "value",
          multiline: true,
          min_length: 1,
          max_length: 500,
        },
      },
    ],
  };
}
