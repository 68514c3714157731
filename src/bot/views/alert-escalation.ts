import type { AlertEscalationView } from "../../usecases/alert-words.ts";
import { costOver, escapeMrkdwn, formatDuration, formatMoney, mention } from "./alert-format.ts";

export type { AlertEscalationView };

/** The thread reply that brings the cost warden in once an episode has lasted `escalate_after`. */
export function alertEscalationText(view: AlertEscalationView): string {
  const idleMs = view.nowMs - view.idleSinceMs;
  const burned = costOver(idleMs, view.costPerHour);
  const money = burned === null ? "" : ` (${formatMoney(burned, view.currency)} so far)`;
  return `📣 ${mention(view.warden)} *${escapeMrkdwn(view.host)}* has been idle for ${formatDuration(idleMs)}${money}. As cost warden, please stop it or keep it.`;
}
