import type { types } from "@slack/bolt";
import { slotLabel } from "../../shared/gpu-slot.ts";
import type { LoginSession } from "../../sources/observation.ts";
import type { AlertGpu, IdleAlertView } from "../../usecases/alert-words.ts";
import { ACTION_IDS, claimValue, KEEP_ACTION_IDS, type KeepChoice, keepValue, stopValue } from "../ids.ts";
import {
  actorText,
  code,
  costOver,
  escapeMrkdwn,
  formatDuration,
  formatGiB,
  formatMoney,
  formatWhen,
  joinLines,
  mention,
  truncate,
  truncateMiddle,
} from "./alert-format.ts";
import { HELD_MIN_MIB, memoryAtRiskText } from "./memory-at-risk.ts";
import { sparkline } from "./sparkline.ts";
import { stopDoubtAlertNote } from "./stop-doubt.ts";

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
export function idleAlertMessage(view: IdleAlertView): SlackMessage {
  const { host, nowMs, timezone } = view;
  const idleMs = nowMs - view.idleSinceMs;
  const burned = costOver(idleMs, view.costPerHour);
  const since = formatWhen(view.idleSinceMs, nowMs, timezone);
  const money =
    burned === null || view.costPerHour === null
      ? ""
      : `, *${formatMoney(burned, view.currency)}* burned so far at ${formatMoney(view.costPerHour, view.currency)}/h`;
  const people = peopleLine(view.owners, view.claimants);
  const blocks: types.KnownBlock[] = [
    { type: "header", text: { type: "plain_text", text: truncate(`💤 ${host} is idle`, HEADER_MAX) } },
    {
      type: "section",
      text: {
        type: "mrkdwn",
        text: truncate(
          `*${escapeMrkdwn(host)}* has been idle since *${since}*: *${formatDuration(idleMs)}*${money}.\n${people}`,
          TEXT_MAX,
        ),
      },
    },
  ];
  if (view.gpus.length > 0) {
    blocks.push(section(gpuSection(view)));
    blocks.push(section(holdersSection(view.gpus)));
  }
  blocks.push(section(sessionsSection(view.sessions)));
  blocks.push({ type: "context", elements: notes(view).map((text) => ({ type: "mrkdwn", text })) });
  blocks.push(actions(view));
  const mentions = [...view.owners, ...view.claimants].map(mention).join(" ");
  const plainMoney = burned === null ? "" : `, ${formatMoney(burned, view.currency)} so far`;
  const text = `💤 ${host} is idle since ${since} (${formatDuration(idleMs)}${plainMoney})${mentions ? ` ${mentions}` : ""}`;
  return { text: truncate(text, TEXT_MAX), blocks };
}

function section(text: string): types.SectionBlock {
  return { type: "section", text: { type: "mrkdwn", text } };
}

function peopleLine(owners: readonly string[], claimants: readonly string[]): string {
  const parts: string[] = [];
  if (owners.length > 0)
    parts.push(`${owners.length === 1 ? "Owner" : "Owners"}: ${owners.map(mention).join(", ")}`);
  if (claimants.length > 0) parts.push(`Claimed by: ${claimants.map(mention).join(", ")}`);
  return parts.length === 0 ? "No owner or claimant on record." : parts.join(" · ");
}

function gpuSection(view: IdleAlertView): string {
  const columns = view.gpus[0]?.history.length ?? 0;
  const perMark = columns === 0 ? 0 : Math.round(view.historyMinutes / columns);
  const span =
    view.historyMinutes % 60 === 0
      ? `${view.historyMinutes / 60} h`
      : formatDuration(view.historyMinutes * 60_000);
  const title = `*GPU utilisation, last ${span}* (one mark per ${perMark} min, \`?\` = no data)`;
  const width = Math.max(...view.gpus.map((gpu) => slotLabel(gpu.index).length));
  const lines = view.gpus.map((gpu) => {
    const util = gpu.utilPct === null ? "  ? %" : `${String(Math.round(gpu.utilPct)).padStart(3)} %`;
    const memory =
      gpu.memUsedMiB === null
        ? "memory ?"
        : gpu.memTotalMiB === null
          ? formatGiB(gpu.memUsedMiB)
          : `${formatGiB(gpu.memUsedMiB)} of ${(gpu.memTotalMiB / 1024).toFixed(0)}`;
    return `GPU ${slotLabel(gpu.index).padStart(width)} ${sparkline(gpu.history)} ${util}  ${memory}`;
  });
  const fence = "```";
  const body = joinLines(
    lines,
    GPU_SECTION_MAX - title.length - 2 * fence.length - 3,
    (left) => `and ${left} more GPUs`,
  );
  return `${title}\n${fence}\n${body}\n${fence}`;
}

interface Holder {
  user: string | null;
  name: string;
  gpus: number[];
  memMiB: number | null;
}

function holdersSection(gpus: readonly AlertGpu[]): string {
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
  if (heldGpus === 0) return "*Memory held*: none.";
  const summary = `*Memory held*: ${formatGiB(heldMiB)} on ${heldGpus} of ${gpus.length} GPUs`;
  if (holders.size === 0) return `${summary}; the source lists no processes.`;
  const lines = [...holders.values()]
    .sort((a, b) => (b.memMiB ?? 0) - (a.memMiB ?? 0))
    .map((holder) => {
      const user = holder.user === null ? "unknown user" : escapeMrkdwn(holder.user);
      const where = `GPU ${holder.gpus
        .sort((a, b) => a - b)
        .map(slotLabel)
        .join(", ")}`;
      const memory = holder.memMiB === null ? "" : `, ${formatGiB(holder.memMiB)}`;
      return `• ${user}: ${code(truncateMiddle(holder.name, 80))} on ${where}${memory}`;
    });
  return `${summary}, by:\n${joinLines(lines, HOLDERS_MAX - summary.length - 6, (left) => `and ${left} more`)}`;
}

function sessionsSection(sessions: readonly LoginSession[] | null): string {
  if (sessions === null) return "*Sessions*: not visible to this source.";
  if (sessions.length === 0) return "*Sessions*: nobody logged in.";
  const lines = sessions.map((session) => {
    const from = session.from === null ? "" : ` from ${escapeMrkdwn(session.from)}`;
    const idle =
      session.idleMinutes === null
        ? "idle time unknown"
        : `idle ${formatDuration(session.idleMinutes * 60_000)}`;
    return `• ${escapeMrkdwn(session.user)} on ${escapeMrkdwn(session.line)}${from}, ${idle}`;
  });
  return `*Sessions* (none active):\n${joinLines(lines, SESSIONS_MAX, (left) => `and ${left} more`)}`;
}

function notes(view: IdleAlertView): string[] {
  const { nowMs, timezone } = view;
  const out: string[] = [];
  if (view.stopDoubt != null) {
    const { stoppedAtMs, earlierAlertAtMs, earlierAlertLink } = view.stopDoubt;
    out.push(
      stopDoubtAlertNote({
        host: view.host,
        stoppedAtMs,
        nowMs,
        timezone,
        alertOpenedAtMs: earlierAlertAtMs,
        link: earlierAlertLink,
      }),
    );
  }
  if (view.stopping !== null) out.push(`🛑 Stop requested ${byActor(view.stopping.actor)}: running…`);
  if (view.snooze !== null) {
    out.push(
      `⏸ Kept until *${formatWhen(view.snooze.untilMs, nowMs, timezone)}* by ${mention(view.snooze.byUser)}.`,
    );
  } else if (view.autoStopAtMs !== null) {
    out.push(`⏱ Stopping at *${formatWhen(view.autoStopAtMs, nowMs, timezone)}* unless someone keeps it.`);
  }
  if (view.escalatedTo !== null) out.push(`📣 Escalated to the cost warden ${mention(view.escalatedTo)}.`);
  if (view.dryRun) out.push("Dry run: *Stop* shows what would run, nothing more.");
  out.push(`Times in ${escapeMrkdwn(timezone)}.`);
  return out;
}

function byActor(actor: string): string {
  const text = actorText(actor);
  return text === "automatically" ? text : `by ${text}`;
}

function actions(view: IdleAlertView): types.ActionsBlock {
  const { host, alertId } = view;
  const keep = (choice: KeepChoice, label: string): types.Button => ({
    type: "button",
    action_id: KEEP_ACTION_IDS[choice],
    text: { type: "plain_text", text: truncate(label, BUTTON_TEXT_MAX) },
    value: keepValue(host, alertId, choice),
  });
  const dryRun = view.dryRun ? " This is a dry run: it shows what would run." : "";
  const checks = `The bot checks that ${escapeMrkdwn(host)} is still idle, then runs its stop action.${dryRun}`;
  const atRisk = memoryAtRiskText(view.gpus, CONFIRM_TEXT_MAX - 2 - Math.min(checks.length, 160));
  return {
    type: "actions",
    block_id: "idle_alert_actions",
    elements: [
      {
        type: "button",
        action_id: ACTION_IDS.stopHost,
        text: { type: "plain_text", text: "Stop this host" },
        style: "danger",
        value: stopValue(host, alertId),
        confirm: {
          title: { type: "plain_text", text: truncate(`Stop ${host}?`, CONFIRM_TITLE_MAX) },
          text: {
            type: "mrkdwn",
            text: truncate(atRisk === null ? checks : `${atRisk}\n\n${checks}`, CONFIRM_TEXT_MAX),
          },
          confirm: { type: "plain_text", text: "Stop it" },
          deny: { type: "plain_text", text: "Cancel" },
          style: "danger",
        },
      },
      keep("1h", "Keep 1 h"),
      keep("4h", "Keep 4 h"),
      keep("tomorrow", `Keep until tomorrow ${view.keepUntilTomorrowAt}`),
      {
        type: "button",
        action_id: ACTION_IDS.claimHost,
        text: { type: "plain_text", text: "Claim it" },
        value: claimValue(host, alertId),
      },
    ],
  };
}
