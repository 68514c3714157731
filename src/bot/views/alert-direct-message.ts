import type { types } from "@slack/bolt";
import type { AlertDirectMessageView } from "../../usecases/alert-words.ts";
import { costOver, escapeMrkdwn, formatDuration, formatMoney, formatWhen, truncate } from "./alert-format.ts";
import type { SlackMessage } from "./alert-message.ts";

export type { AlertDirectMessageView };

/** The DM an owner or claimant gets just before the channel alert. */
export function alertDirectMessage(view: AlertDirectMessageView): SlackMessage {
  const { host, nowMs, timezone } = view;
  const idleMs = nowMs - view.idleSinceMs;
  const burned = costOver(idleMs, view.costPerHour);
  const money = burned === null ? "" : `, ${formatMoney(burned, view.currency)} so far`;
  const since = formatWhen(view.idleSinceMs, nowMs, timezone);
  const where = /^[CG][A-Z0-9]{2,}$/.test(view.channel) ? `<#${view.channel}>` : escapeMrkdwn(view.channel);
  const why = view.role === "owner" ? "You own it" : "You have a claim on it";
  const text = `💤 *${escapeMrkdwn(host)}* is idle since *${since}* (${formatDuration(idleMs)}${money}). ${why}: stop it, keep it or claim it from the alert in ${where}.`;
  const blocks: types.KnownBlock[] = [
    { type: "section", text: { type: "mrkdwn", text: truncate(text, 3000) } },
  ];
  return {
    text: truncate(`💤 ${host} is idle since ${since} (${formatDuration(idleMs)}${money})`, 3000),
    blocks,
  };
}
