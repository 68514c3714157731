import type { types } from "@slack/bolt";
import type { AutopilotPlan, StaleHolder } from "../../../checks/autopilot-plan.ts";
import type { Translator } from "../../../messages/translator.ts";
import type {
  AutopilotKeepEndedView,
  AutopilotStopView,
  AutopilotWarningView,
} from "../../../usecases/alerts/alert-words.ts";
import { ACTION_IDS, KEEP_ACTION_IDS, keepValue, stopValue } from "../../ids.ts";
import {
  alertDuration,
  alertWhen,
  escapeMrkdwn,
  formatGiB,
  keepTomorrowLabel,
  mention,
  truncate,
} from "../alerts/alert-format.ts";
import type { SlackMessage } from "../alerts/alert-message.ts";

const LEFT_MAX = 3;

/**
 * The autopilot's warning DM: an empty host ("nothing on it for 30 min; it stops at 02:10 unless you
 * keep it", *Keep*), or a stale session (names the processes, their owners and the memory they hold;
 * *Keep until tomorrow* / *Stop now*).
 */
export function autopilotWarningMessage(tr: Translator, view: AutopilotWarningView): SlackMessage {
  const { plan, nowMs } = view;
  const host = escapeMrkdwn(plan.host);
  const at = alertWhen(tr, plan.stopAtMs, nowMs);
  const keepTomorrow = keepButton(
    plan,
    plan.evidence.class === "empty"
      ? tr.t("autopilot.button.keep")
      : keepTomorrowLabel(
          tr,
          { tomorrow: "autopilot.button.keepTomorrow", until: "autopilot.button.keepUntil" },
          view,
        ),
  );
  let text: string;
  let body: string;
  const elements: types.Button[] = [keepTomorrow];
  if (plan.evidence.class === "empty") {
    const duration = alertDuration(tr, nowMs - plan.evidence.emptySinceMs);
    body = tr.t("autopilot.empty.warning", { host, duration, at });
    const claimants = plan.evidence.outlivedClaims ?? [];
    if (claimants.length > 0) {
      body = `${body}\n${tr.t("autopilot.empty.claims", { claimants: claimants.map(mention).join(", "), host })}`;
    }
    text = tr.t("autopilot.empty.text", { host: plan.host, duration, at });
  } else {
    const left = leftWords(tr, plan);
    const duration = alertDuration(tr, nowMs - plan.evidence.idleSinceMs);
    const hook = view.preStop ? tr.t("autopilot.stale.hook") : "";
    body = tr.t("autopilot.stale.warning", { host, left, duration, at, hook });
    text = tr.t("autopilot.stale.text", { host: plan.host, left, duration, at });
    elements.push({
      type: "button",
      action_id: ACTION_IDS.stopHost,
      style: "danger",
      text: { type: "plain_text", text: tr.t("autopilot.button.stopNow") },
      value: stopValue(plan.host, plan.alertId),
    });
  }
  if (view.dryRun) body = `${body}\n${tr.t("autopilot.dryRun")}`;
  return {
    text: truncate(text, 3000),
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: truncate(body, 3000) } },
      { type: "actions", block_id: "autopilot_actions", elements },
    ],
  };
}

/** What the alert's thread is told as the autopilot stops the host: the evidence it acted on. */
export function autopilotStoppingText(tr: Translator, view: AutopilotStopView): string {
  const { plan, nowMs } = view;
  const host = escapeMrkdwn(plan.host);
  if (plan.evidence.class === "empty") {
    const sinceMs = plan.evidence.emptySinceMs;
    const since = alertWhen(tr, sinceMs, nowMs);
    const duration = alertDuration(tr, nowMs - sinceMs);
    const claimants = plan.evidence.outlivedClaims ?? [];
    if (claimants.length === 0) return tr.t("autopilot.stopping.empty", { host, since, duration });
    return tr.t("autopilot.stopping.emptyClaimed", {
      host,
      since,
      duration,
      claimants: claimants.map(mention).join(", "),
    });
  }
  const sinceMs = plan.evidence.idleSinceMs;
  return tr.t("autopilot.stopping.stale", {
    host,
    since: alertWhen(tr, sinceMs, nowMs),
    duration: alertDuration(tr, nowMs - sinceMs),
    left: leftWords(tr, plan),
  });
}

/** To whoever kept the host: their Keep ended, nothing having been on the host since. */
export function autopilotKeepEndedText(tr: Translator, view: AutopilotKeepEndedView): string {
  const { nowMs } = view;
  return tr.t("autopilot.keepEnded", {
    host: escapeMrkdwn(view.host),
    until: alertWhen(tr, view.keptUntilMs, nowMs),
    since: alertWhen(tr, view.emptySinceMs, nowMs),
  });
}

function keepButton(plan: AutopilotPlan, label: string): types.Button {
  return {
    type: "button",
    action_id: KEEP_ACTION_IDS.tomorrow,
    text: { type: "plain_text", text: truncate(label, 75) },
    value: keepValue(plan.host, plan.alertId, "tomorrow"),
  };
}

/** `python (pid 4242) of alice, holding 20.0 GiB; a login of alice on pts/0`. */
function leftWords(tr: Translator, plan: AutopilotPlan): string {
  if (plan.evidence.class !== "stale") return "";
  const holders = plan.evidence.holders.map((holder) => holderWords(tr, holder));
  const sessions = plan.evidence.sessions.map((session) =>
    tr.t("autopilot.session", { user: escapeMrkdwn(session.user), line: escapeMrkdwn(session.line) }),
  );
  const all = [...holders, ...sessions];
  if (all.length === 0) return tr.t("autopilot.memoryOnly");
  const shown = all.slice(0, LEFT_MAX);
  if (all.length > LEFT_MAX) shown.push(tr.t("alert.more", { count: all.length - LEFT_MAX }));
  return shown.reduce((first, rest) => tr.t("autopilot.list", { first, rest }));
}

function holderWords(tr: Translator, holder: StaleHolder): string {
  const user = holder.user === null ? tr.t("autopilot.holder.unknownUser") : escapeMrkdwn(holder.user);
  const memory = holder.memMiB === null ? tr.t("autopilot.holder.unknownMemory") : formatGiB(holder.memMiB);
  const name = escapeMrkdwn(holder.name);
  return holder.pid === null
    ? tr.t("autopilot.holder.noPid", { name, user, memory })
    : tr.t("autopilot.holder", { name, pid: holder.pid, user, memory });
}
