import type { types } from "@slack/bolt";
import type { Translator } from "../../../messages/translator.ts";
import type { AlertDirectMessageView } from "../../../usecases/alerts/alert-words.ts";
import { emphasisBoundaries } from "../emphasis-boundaries.ts";
import { alertDuration, alertWhen, costOver, escapeMrkdwn, truncate } from "./alert-format.ts";
import type { SlackMessage } from "./alert-message.ts";

export type { AlertDirectMessageView };

/** The DM an owner or claimant gets just before the channel alert. */
export function alertDirectMessage(tr: Translator, view: AlertDirectMessageView): SlackMessage {
  const { host, nowMs } = view;
  const idleMs = nowMs - view.idleSinceMs;
  const burned = costOver(idleMs, view.costPerHour);
  const money = burned === null ? "" : tr.t("alert.soFar", { amount: tr.money(burned) });
  const since = alertWhen(tr, view.idleSinceMs, nowMs);
  const duration = alertDuration(tr, idleMs);
  const where = /^[CG][A-Z0-9]{2,}$/.test(view.channel) ? `<#${view.channel}>` : escapeMrkdwn(view.channel);
  const text = tr.t(view.role === "owner" ? "alert.direct.owner" : "alert.direct.claimant", {
    host: escapeMrkdwn(host),
    since,
    duration,
    money,
    where,
  });
  const blocks: types.KnownBlock[] = [
    { type: "section", text: { type: "mrkdwn", text: truncate(emphasisBoundaries(text), 3000) } },
  ];
  return { text: truncate(tr.t("alert.idle.text", { host, since, duration, money }), 3000), blocks };
}
