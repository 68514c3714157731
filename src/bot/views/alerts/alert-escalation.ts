import type { Translator } from "../../../messages/translator.ts";
import type { AlertEscalationView } from "../../../usecases/alerts/alert-words.ts";
import { alertDuration, costOver, escapeMrkdwn, mention } from "./alert-format.ts";

export type { AlertEscalationView };

/** The thread reply that brings the cost warden in once an episode has lasted `escalate_after`. */
export function alertEscalationText(tr: Translator, view: AlertEscalationView): string {
  const idleMs = view.nowMs - view.idleSinceMs;
  const burned = costOver(idleMs, view.costPerHour);
  return tr.t("alert.escalation", {
    warden: mention(view.warden),
    host: escapeMrkdwn(view.host),
    duration: alertDuration(tr, idleMs),
    money: burned === null ? "" : tr.t("alert.escalation.money", { amount: tr.money(burned) }),
  });
}
