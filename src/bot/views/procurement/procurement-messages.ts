import type { types } from "@slack/bolt";
import type { PlanProblem, ProcurementField } from "../../../checks/procurement-plan.ts";
import { REQUEST_MAX_GPUS } from "../../../checks/procurement-plan.ts";
import type { ProcurementRequest } from "../../../domain/procurement-request.ts";
import type { Translator } from "../../../messages/translator.ts";
import type { RenderedReply } from "../../../usecases/ports.ts";
import type { ProcurementRefusal } from "../../../usecases/procurement/decide-procurement.ts";
import type { ProcurementWords } from "../../../usecases/procurement/procurement-words.ts";
import { PROCUREMENT_ACTION_IDS, PROCUREMENT_INPUTS, procurementValue } from "../../ids.ts";
import { escapeMrkdwn } from "../alerts/alert-format.ts";
import { actions, button, clip, context, section } from "../reply-message.ts";

/** The request's and its decision's messages, in the team channel's language. */
export function procurementWords(tr: Translator): ProcurementWords {
  return {
    requestPost: (request, deciders) => requestPost(tr, request, deciders),
    decidedPost: (request) => decidedPost(tr, request),
    decisionReply: (request) => ({ text: decisionReply(tr, request) }),
  };
}

const mention = (user: string) => `<@${user}>`;
const quoted = (text: string) => escapeMrkdwn(clip(text, 1_000));

function what(tr: Translator, request: ProcurementRequest) {
  return {
    id: request.id,
    count: request.count,
    model: escapeMrkdwn(request.model),
    kind: tr.t(`procurement.kind.${request.kind}`),
    project: request.project === null ? tr.t("project.none") : escapeMrkdwn(request.project),
  };
}

function requestPost(
  tr: Translator,
  request: ProcurementRequest,
  deciders: { warden: string | null; admins: readonly string[] },
): RenderedReply {
  const admins = deciders.admins.filter((admin) => admin !== deciders.warden).map(mention);
  const text = tr.t("procurement.post.text", {
    ...what(tr, request),
    deciders: tr.t("procurement.post.deciders", {
      warden: deciders.warden === null ? "none" : mention(deciders.warden),
      admins: admins.join(" "),
    }),
    requester: mention(request.requester),
  });
  const tasks = request.tasks.map((task) => `• ${task.day} ${quoted(task.task)}`).join("\n");
  const months = request.months
    .map((m) => tr.t("procurement.post.month", { month: m.month, hours: m.gpuHours }))
    .reduce((first, second) => tr.t("procurement.list", { first, second }));
  const blocks: types.KnownBlock[] = [
    section(text),
    section(tr.t("procurement.post.why", { why: quoted(request.why) })),
    section(tr.t("procurement.post.tasks", { tasks })),
    section(tr.t("procurement.post.hours", { months })),
    section(tr.t("procurement.post.acceptance", { acceptance: quoted(request.acceptance) })),
    actions(decisionButtons(tr, request)),
    context(tr.t("procurement.post.request", { id: request.id })),
  ];
  return { text, blocks };
}

function decisionButtons(tr: Translator, request: ProcurementRequest): types.Button[] {
  const value = procurementValue(request.id);
  return [
    button({
      actionId: PROCUREMENT_ACTION_IDS.approve,
      text: tr.t("procurement.button.approve"),
      value,
      style: "primary",
      confirm: {
        title: tr.t("procurement.confirm.title", { id: request.id }),
        text: tr.t("procurement.confirm.text", what(tr, request)),
        confirm: tr.t("procurement.confirm.yes"),
        deny: tr.t("procurement.confirm.no"),
      },
    }),
    button({ actionId: PROCUREMENT_ACTION_IDS.reject, text: tr.t("procurement.button.reject"), value }),
    button({ actionId: PROCUREMENT_ACTION_IDS.more, text: tr.t("procurement.button.more"), value }),
  ];
}

function decidedPost(tr: Translator, request: ProcurementRequest): RenderedReply {
  const args = {
    ...what(tr, request),
    actor: mention(request.decidedBy ?? ""),
    reason: quoted(request.reason ?? ""),
  };
  const text =
    request.state === "approved"
      ? tr.t("procurement.decided.approved", args)
      : request.state === "rejected"
        ? tr.t("procurement.decided.rejected", args)
        : tr.t("procurement.decided.more", args);
  return { text, blocks: [section(text)] };
}

function decisionReply(tr: Translator, request: ProcurementRequest): string {
  const args = {
    requester: mention(request.requester),
    actor: mention(request.decidedBy ?? ""),
    reason: quoted(request.reason ?? ""),
  };
  if (request.state === "approved") return tr.t("procurement.reply.approved", args);
  if (request.state === "rejected") return tr.t("procurement.reply.rejected", args);
  return tr.t("procurement.reply.more", args);
}

/** Why a decision was not taken, for the clicker. */
export function procurementRefusalText(tr: Translator, refusal: ProcurementRefusal): string {
  switch (refusal.reason) {
    case "gone":
      return tr.t("procurement.refused.gone");
    case "needs-reason":
      return tr.t("procurement.refused.needsReason");
    case "not-allowed":
      return tr.t("procurement.refused.notAllowed", {
        warden: refusal.warden === null ? "none" : mention(refusal.warden),
      });
    case "already-decided":
      return tr.t("procurement.refused.decided", {
        id: refusal.request.id,
        state: decidedState(tr, refusal.request),
      });
  }
}

function decidedState(tr: Translator, request: ProcurementRequest): string {
  const actor = mention(request.decidedBy ?? "");
  if (request.state === "approved") return tr.t("procurement.state.approved", { actor });
  if (request.state === "rejected") return tr.t("procurement.state.rejected", { actor });
  return tr.t("procurement.state.more", { actor });
}

/** The form's problems as `response_action: "errors"` wants them: text by block id. */
export function formErrors(
  tr: Translator,
  problems: Partial<Record<ProcurementField, PlanProblem>>,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(problems).map(([field, problem]) => [
      PROCUREMENT_INPUTS[field as ProcurementField],
      problemText(tr, problem),
    ]),
  );
}

function problemText(tr: Translator, problem: PlanProblem): string {
  switch (problem.kind) {
    case "required":
      return tr.t("procurement.error.required");
    case "bad-count":
      return tr.t("procurement.error.count", { max: REQUEST_MAX_GPUS });
    case "no-plan":
      return tr.t("procurement.error.noPlan", { months: problem.minMonths });
    case "short-plan":
      return tr.t("procurement.error.shortPlan", { count: problem.months, months: problem.minMonths });
    case "bad-task-line":
      return tr.t("procurement.error.taskLine", { line: clip(problem.line, 100) });
    case "past-day":
      return tr.t("procurement.error.pastDay", { day: problem.day, today: problem.today });
    case "bad-hours-line":
      return tr.t("procurement.error.hoursLine", { line: clip(problem.line, 100) });
    case "past-month":
      return tr.t("procurement.error.pastMonth", { month: problem.month });
    case "negative-hours":
      return tr.t("procurement.error.negativeHours", { month: problem.month, hours: problem.gpuHours });
  }
}
