import type { types } from "@slack/bolt";
import type { LoginSession } from "../../../domain/observation.ts";
import type { Translator } from "../../../messages/translator.ts";
import { slotLabel } from "../../../shared/gpu-slot.ts";
import type { AlertGpu, IdleAlertView } from "../../../usecases/alerts/alert-words.ts";
import { ACTION_IDS, claimValue, KEEP_ACTION_IDS, type KeepChoice, keepValue, stopValue } from "../../ids.ts";
import { emphasisBoundaries } from "../emphasis-boundaries.ts";
import { recentInputText } from "../power/recent-input-text.ts";
import { stopDoubtAlertNote } from "../power/stop-doubt.ts";
import {
  alertDuration,
  alertWhen,
  code,
  costOver,
  escapeMrkdwn,
  formatGiB,
  isUser,
  joinLines,
  keepTomorrowLabel,
  mention,
  truncate,
  truncateMiddle,
} from "./alert-format.ts";
import { HELD_MIN_MIB, memoryAtRiskText } from "./memory-at-risk.ts";
import { sparkline } from "./sparkline.ts";

export type { AlertGpu, IdleAlertView };

export interface SlackMessage {
  /** The notification and accessibility fallback. */
  text: string;
  blocks: types.KnownBlock[];
}

const HEADER_MAX = 150;
const GPU_SECTION_MAX = 2900;
const HOLDERS_MAX = 2000;
const SESSIONS_MAX = 1000;
const TEXT_MAX = 3000;
const CONFIRM_TITLE_MAX = 100;
const CONFIRM_TEXT_MAX = 300;
const BUTTON_TEXT_MAX = 75;

/** The open idle alert: evidence, people, countdowns and the buttons. */
export function idleAlertMessage(tr: Translator, view: IdleAlertView): SlackMessage {
  const { host, nowMs } = view;
  const idleMs = nowMs - view.idleSinceMs;
  const burned = costOver(idleMs, view.costPerHour);
  const since = alertWhen(tr, view.idleSinceMs, nowMs);
  const duration = alertDuration(tr, idleMs);
  const saves =
    view.savesPerHour == null ? "" : tr.t("alert.idle.saves", { saves: tr.money(view.savesPerHour) });
  const money =
    burned === null || view.costPerHour === null
      ? ""
      : tr.t("alert.idle.burned", { burned: tr.money(burned), rate: tr.money(view.costPerHour), saves });
  const people = peopleLine(tr, view.owners, view.claimants);
  const body = tr.t("alert.idle.body", { host: escapeMrkdwn(host), since, duration, money, people });
  const blocks: types.KnownBlock[] = [
    {
      type: "header",
      text: { type: "plain_text", text: truncate(tr.t("alert.idle.header", { host }), HEADER_MAX) },
    },
    { type: "section", text: { type: "mrkdwn", text: truncate(emphasisBoundaries(body), TEXT_MAX) } },
  ];
  if (view.gpus.length > 0) {
    blocks.push(section(gpuSection(tr, view)));
    blocks.push(section(holdersSection(tr, view.gpus)));
  }
  blocks.push(section(sessionsSection(tr, view.sessions)));
  blocks.push({
    type: "context",
    elements: notes(tr, view).map((text) => ({ type: "mrkdwn", text: emphasisBoundaries(text) })),
  });
  blocks.push(actions(tr, view));
  const mentions = [...view.owners, ...view.claimants].map(mention).join(" ");
  const plainMoney = burned === null ? "" : tr.t("alert.soFar", { amount: tr.money(burned) });
  const text = tr.t("alert.idle.text", { host, since, duration, money: plainMoney });
  return { text: truncate(mentions ? `${text} ${mentions}` : text, TEXT_MAX), blocks };
}

function section(text: string): types.SectionBlock {
  return { type: "section", text: { type: "mrkdwn", text: emphasisBoundaries(text) } };
}

function peopleLine(tr: Translator, owners: readonly string[], claimants: readonly string[]): string {
  const parts: string[] = [];
  if (owners.length > 0)
    parts.push(tr.t("alert.people.owners", { count: owners.length, names: owners.map(mention).join(", ") }));
  if (claimants.length > 0)
    parts.push(tr.t("alert.people.claimants", { names: claimants.map(mention).join(", ") }));
  return parts.length === 0 ? tr.t("alert.people.none") : parts.join(" · ");
}

function gpuSection(tr: Translator, view: IdleAlertView): string {
  const columns = view.gpus[0]?.history.length ?? 0;
  const perMark = columns === 0 ? 0 : Math.round(view.historyMinutes / columns);
  const span = tr.duration(view.historyMinutes * 60_000);
  const title = tr.t("alert.gpus.title", { span, minutes: perMark });
  const width = Math.max(...view.gpus.map((gpu) => slotLabel(gpu.index).length));
  const lines = view.gpus.map((gpu) => {
    const util = gpu.utilPct === null ? "  ? %" : `${String(Math.round(gpu.utilPct)).padStart(3)} %`;
    const memory =
      gpu.memUsedMiB === null
        ? tr.t("alert.gpus.memoryUnknown")
        : gpu.memTotalMiB === null
          ? formatGiB(gpu.memUsedMiB)
          : tr.t("alert.gpus.memory", {
              used: formatGiB(gpu.memUsedMiB),
              total: (gpu.memTotalMiB / 1024).toFixed(0),
            });
    return `GPU ${slotLabel(gpu.index).padStart(width)} ${sparkline(gpu.history)} ${util}  ${memory}`;
  });
  const fence = "```";
  const body = joinLines(lines, GPU_SECTION_MAX - title.length - 2 * fence.length - 3, (left) =>
    tr.t("alert.gpus.more", { count: left }),
  );
  return `${title}\n${fence}\n${body}\n${fence}`;
}

interface Holder {
  user: string | null;
  name: string;
  gpus: number[];
  memMiB: number | null;
}

function holdersSection(tr: Translator, gpus: readonly AlertGpu[]): string {
  const holders = new Map<string, Holder>();
  let heldMiB = 0;
  let heldGpus = 0;
  for (const gpu of gpus) {
    const held = gpu.processes.length > 0 || (gpu.memUsedMiB ?? 0) >= HELD_MIN_MIB;
    if (held) {
      heldGpus++;
      heldMiB += gpu.memUsedMiB ?? 0;
    }
    for (const process of gpu.processes) {
      const key = `${process.user ?? ""}\u0000${process.name}`;
      let holder = holders.get(key);
      if (holder === undefined) {
        holder = { user: process.user, name: process.name, gpus: [], memMiB: null };
        holders.set(key, holder);
      }
      if (!holder.gpus.includes(gpu.index)) holder.gpus.push(gpu.index);
      if (process.usedMemoryMiB !== null) holder.memMiB = (holder.memMiB ?? 0) + process.usedMemoryMiB;
    }
  }
  if (heldGpus === 0) return tr.t("alert.holders.none");
  const summary = tr.t("alert.holders.summary", {
    memory: formatGiB(heldMiB),
    held: heldGpus,
    total: gpus.length,
  });
  if (holders.size === 0) return tr.t("alert.holders.noProcesses", { summary });
  const lines = [...holders.values()]
    .sort((a, b) => (b.memMiB ?? 0) - (a.memMiB ?? 0))
    .map((holder) =>
      tr.t("alert.holders.line", {
        user: holder.user === null ? tr.t("alert.holders.unknownUser") : escapeMrkdwn(holder.user),
        process: code(truncateMiddle(holder.name, 80)),
        gpus: holder.gpus
          .sort((a, b) => a - b)
          .map(slotLabel)
          .join(", "),
        memory:
          holder.memMiB === null ? "" : tr.t("alert.holders.memory", { memory: formatGiB(holder.memMiB) }),
      }),
    );
  const more = (left: number) => tr.t("alert.more", { count: left });
  const head = tr.t("alert.holders.by", { summary });
  return `${head}\n${joinLines(lines, HOLDERS_MAX - summary.length - 6, more)}`;
}

function sessionsSection(tr: Translator, sessions: readonly LoginSession[] | null): string {
  if (sessions === null) return tr.t("alert.sessions.hidden");
  if (sessions.length === 0) return tr.t("alert.sessions.none");
  const lines = sessions.map((session) =>
    tr.t("alert.sessions.line", {
      user: escapeMrkdwn(session.user),
      line: escapeMrkdwn(session.line),
      from: session.from === null ? "" : tr.t("alert.sessions.from", { from: escapeMrkdwn(session.from) }),
      idle:
        session.idleMinutes === null
          ? tr.t("alert.sessions.idleUnknown")
          : tr.t("alert.sessions.idle", { duration: tr.duration(session.idleMinutes * 60_000) }),
    }),
  );
  const more = (left: number) => tr.t("alert.more", { count: left });
  return `${tr.t("alert.sessions.title")}\n${joinLines(lines, SESSIONS_MAX, more)}`;
}

function notes(tr: Translator, view: IdleAlertView): string[] {
  const { nowMs } = view;
  const out: string[] = [];
  if (view.stopDoubt != null) {
    const { stoppedAtMs, earlierAlertAtMs, earlierAlertLink } = view.stopDoubt;
    out.push(
      stopDoubtAlertNote(tr, {
        host: view.host,
        stoppedAtMs,
        nowMs,
        alertOpenedAtMs: earlierAlertAtMs,
        link: earlierAlertLink,
      }),
    );
  }
  if (view.stopping !== null) {
    const actor = view.stopping.actor;
    out.push(
      isUser(actor)
        ? tr.t("alert.note.stoppingBy", { user: mention(actor) })
        : tr.t("alert.note.stoppingAuto"),
    );
  }
  if (view.snooze !== null) {
    const until = alertWhen(tr, view.snooze.untilMs, nowMs);
    out.push(tr.t("alert.note.kept", { until, user: mention(view.snooze.byUser) }));
  } else if (view.autoStopAtMs !== null) {
    out.push(tr.t("alert.note.autoStop", { at: alertWhen(tr, view.autoStopAtMs, nowMs) }));
  }
  if (view.escalatedTo !== null) out.push(tr.t("alert.note.escalated", { user: mention(view.escalatedTo) }));
  if (view.dryRun) out.push(tr.t("alert.note.dryRun"));
  out.push(tr.t("alert.zone", { zone: escapeMrkdwn(tr.timeZone) }));
  return out;
}

function actions(tr: Translator, view: IdleAlertView): types.ActionsBlock {
  const { host, alertId } = view;
  const keep = (choice: KeepChoice, label: string): types.Button => ({
    type: "button",
    action_id: KEEP_ACTION_IDS[choice],
    text: { type: "plain_text", text: truncate(label, BUTTON_TEXT_MAX) },
    value: keepValue(host, alertId, choice),
  });
  const checks = tr.t(view.dryRun ? "alert.confirm.checksDryRun" : "alert.confirm.checks", {
    host: escapeMrkdwn(host),
  });
  const warnings = confirmWarnings(tr, view, CONFIRM_TEXT_MAX - 2 - Math.min(checks.length, 160));
  return {
    type: "actions",
    block_id: "idle_alert_actions",
    elements: [
      {
        type: "button",
        action_id: ACTION_IDS.stopHost,
        text: { type: "plain_text", text: tr.t("alert.button.stop") },
        style: "danger",
        value: stopValue(host, alertId),
        confirm: {
          title: {
            type: "plain_text",
            text: truncate(tr.t("alert.confirm.title", { host }), CONFIRM_TITLE_MAX),
          },
          text: {
            type: "mrkdwn",
            text: truncate(
              emphasisBoundaries(warnings === null ? checks : `${warnings}\n\n${checks}`),
              CONFIRM_TEXT_MAX,
            ),
          },
          confirm: { type: "plain_text", text: tr.t("alert.confirm.yes") },
          deny: { type: "plain_text", text: tr.t("alert.confirm.no") },
          style: "danger",
        },
      },
      keep("1h", tr.t("alert.button.keep1h")),
      keep("4h", tr.t("alert.button.keep4h")),
      keep(
        "tomorrow",
        keepTomorrowLabel(
          tr,
          { tomorrow: "alert.button.keepTomorrow", until: "alert.button.keepUntil" },
          view,
        ),
      ),
      {
        type: "button",
        action_id: ACTION_IDS.claimHost,
        text: { type: "plain_text", text: tr.t("alert.button.claim") },
        value: claimValue(host, alertId),
      },
      ...((view.sharedBy ?? 0) >= 2 ? [doneMineButton(tr, view)] : []),
    ],
  };
}

/** *Done with mine*, offered when several people's work holds the host. */
function doneMineButton(tr: Translator, view: IdleAlertView): types.Button {
  const host = escapeMrkdwn(view.host);
  return {
    type: "button",
    action_id: ACTION_IDS.doneWithMine,
    text: { type: "plain_text", text: truncate(tr.t("alert.button.doneMine"), BUTTON_TEXT_MAX) },
    value: stopValue(view.host, view.alertId),
    confirm: {
      title: {
        type: "plain_text",
        text: truncate(tr.t("alert.confirmDone.title", { host: view.host }), CONFIRM_TITLE_MAX),
      },
      text: {
        type: "mrkdwn",
        text: truncate(emphasisBoundaries(tr.t("alert.confirmDone.text", { host })), CONFIRM_TEXT_MAX),
      },
      confirm: { type: "plain_text", text: tr.t("alert.confirmDone.yes") },
      deny: { type: "plain_text", text: tr.t("alert.confirm.no") },
    },
  };
}

/** Who typed there recently, then what memory a stop loses: within `maxChars`, or `null` when neither. */
function confirmWarnings(tr: Translator, view: IdleAlertView, maxChars: number): string | null {
  const recent = recentInputText(tr, view.host, view.recentInput ?? [], Math.floor((maxChars * 2) / 3));
  const left = recent === null ? maxChars : maxChars - Array.from(recent).length - 1;
  const atRisk = memoryAtRiskText(tr, view.gpus, left);
  const lines = [recent, atRisk].filter((line) => line !== null);
  return lines.length === 0 ? null : lines.join("\n");
}
