import type { types } from "@slack/bolt";
import { dayjs } from "../../shared/time.ts";
import type { WardenChange } from "../../usecases/rotate-warden.ts";
import type { WardenChecklist } from "../../usecases/warden-checklist.ts";
import type { WardenAnnouncementFacts } from "../../usecases/warden-words.ts";
import { escapeMrkdwn, formatMoney, formatWhen, mention, truncate } from "./alert-format.ts";
import type { SlackMessage } from "./alert-message.ts";
import { context, type Reply, section, textReply } from "./reply-message.ts";

const LIST_MAX = 10;

/** `April 2026` of `2026-04`. */
export function monthName(month: string): string {
  return dayjs(`${month}-01T00:00:00Z`).utc().format("MMMM YYYY");
}

/** The channel post on the 1st: who the cost warden is this month, and who is next. */
export function wardenAnnouncement(input: WardenAnnouncementFacts): SlackMessage {
  const next =
    input.next?.user == null ? "" : ` Next: ${mention(input.next.user)} (${monthName(input.next.month)}).`;
  const late = input.late ? " _(Announced late: the bot was not running on the 1st.)_" : "";
  const text =
    `🧭 ${mention(input.warden)} is the cost warden for *${monthName(input.month)}*.${next} ` +
    `Idle-machine escalations and reclaim decisions go to the warden this month.${late}`;
  return {
    text: truncate(text, 3000),
    blocks: [section(text), context("`/gpu warden` shows the roster; `/gpu warden skip` if you are away.")],
  };
}

/** The DM to the new warden: what to look at first. */
export function wardenChecklistMessage(checklist: WardenChecklist): SlackMessage {
  const { atMs, timezone, currency } = checklist;
  const when = (ms: number) => formatWhen(ms, atMs, timezone);
  const idle = listed(
    checklist.idleHosts.map(
      (h) =>
        `*${escapeMrkdwn(h.host)}*${h.idleSinceMs === null ? "" : ` — idle since ${when(h.idleSinceMs)}`}`,
    ),
    "None right now.",
  );
  const reclaims =
    checklist.pendingReclaims === null
      ? "The reclaim workflow is not set up."
      : listed(
          checklist.pendingReclaims.map((r) => {
            const util = r.meanUtilPct === null ? "" : `, ${Math.round(r.meanUtilPct)} % mean utilisation`;
            const due = r.decideByMs === null ? "decision due now" : `decide by ${when(r.decideByMs)}`;
            return `*${escapeMrkdwn(r.host)}* — pending since ${when(r.sinceMs)}${util}; ${due}`;
          }),
          "None.",
        );
  const { lastMonth } = checklist;
  const top = listed(
    lastMonth.top.map(
      (h) =>
        `*${escapeMrkdwn(h.host)}* — ${formatMoney(h.idleCost, currency)} (${h.idleGpuHours.toFixed(1)} idle GPU-hours)`,
    ),
    lastMonth.totalIdleCost === null
      ? "No host has a price: set `cost_per_hour` or `purchase_price` under `hosts.<name>`."
      : "No idle cost.",
  );
  const total =
    lastMonth.totalIdleCost === null || lastMonth.top.length === 0
      ? ""
      : `\nFleet idle cost: ${formatMoney(lastMonth.totalIdleCost, currency)} over ${lastMonth.days} day(s) in the ledger.`;
  const noData = listed(
    checklist.noData.map((h) => {
      const since = h.lastOkAtMs === null ? "never seen" : `no data since ${when(h.lastOkAtMs)}`;
      return `*${escapeMrkdwn(h.host)}* — ${since}${h.problem === null ? "" : ` (${escapeMrkdwn(truncate(h.problem, 120))})`}`;
    }),
    "None.",
  );
  const title = `🧭 You are the cost warden for ${monthName(checklist.month)}`;
  const blocks: types.KnownBlock[] = [
    { type: "header", text: { type: "plain_text", text: truncate(title, 150) } },
    section("This month the idle-machine escalations and reclaim decisions come to you. Your checklist:"),
    section(`*1. Idle hosts now* (${checklist.idleHosts.length})\n${idle}`),
    section(`*2. Pending reclaim decisions* (${checklist.pendingReclaims?.length ?? "—"})\n${reclaims}`),
    section(`*3. Top idle cost in ${monthName(lastMonth.month)}*\n${top}${total}`),
    section(`*4. Hosts with no data* (${checklist.noData.length})\n${noData}`),
    context(
      `\`/gpu status\` for the fleet, \`/gpu report 30d\` for the ledger, \`/gpu warden skip\` if you are away. Times in ${escapeMrkdwn(timezone)}.`,
    ),
  ];
  const summary =
    `${title}: ${checklist.idleHosts.length} idle host(s) now, ` +
    `${checklist.pendingReclaims?.length ?? 0} pending reclaim decision(s), ${checklist.noData.length} host(s) without data.`;
  return { text: truncate(summary, 3000), blocks };
}

/** `/gpu warden`: this month's warden and the next. */
export function wardenStatusReply(input: {
  current: { month: string; user: string | null };
  next: { month: string; user: string | null };
}): Reply {
  if (input.current.user === null) {
    return textReply(
      "There is no cost warden roster: add Slack user ids under `warden.roster` in the config.",
    );
  }
  const next =
    input.next.user === null ? "" : ` Next: ${mention(input.next.user)} (${monthName(input.next.month)}).`;
  return textReply(
    `🧭 Cost warden for ${monthName(input.current.month)}: ${mention(input.current.user)}.${next}`,
  );
}

/** `/gpu warden roster`: the roster in order and the coming months, swaps and skips marked. */
export function wardenRosterReply(input: {
  roster: readonly string[];
  upcoming: readonly { month: string; user: string | null; changed: boolean }[];
}): Reply {
  if (input.roster.length === 0) {
    return textReply(
      "There is no cost warden roster: add Slack user ids under `warden.roster` in the config.",
    );
  }
  const months = input.upcoming.map(
    (turn) =>
      `• ${monthName(turn.month)}: ${turn.user === null ? "—" : mention(turn.user)}${turn.changed ? " _(swapped or skipped)_" : ""}`,
  );
  const text = `*Roster, in order:* ${input.roster.map(mention).join(" → ")}\n*Coming months:*\n${months.join("\n")}`;
  return {
    text: truncate(`Cost warden roster: ${input.roster.length} people`, 3000),
    blocks: [section(text)],
  };
}

/** The channel post after a swap or a skip. */
export function wardenChangeAnnouncement(change: WardenChange, actor: string): SlackMessage {
  const month = monthName(change.month);
  const why =
    change.kind === "skip"
      ? `${mention(change.from)} is away this month`
      : actor === change.from
        ? `${mention(actor)} handed over their turn`
        : actor === change.to
          ? `${mention(actor)} took over ${mention(change.from)}'s turn`
          : `${mention(actor)} swapped ${mention(change.from)}'s turn`;
  const later =
    change.laterTurn === null
      ? ""
      : ` ${mention(change.laterTurn.user)} takes ${monthName(change.laterTurn.month)} instead.`;
  const text = `🔁 ${mention(change.to)} is the cost warden for *${month}* (${why}).${later}`;
  return { text: truncate(text, 3000), blocks: [section(text)] };
}

/** The ephemeral answer to whoever swapped or skipped. */
export function wardenChangeReply(change: WardenChange): Reply {
  const later =
    change.laterTurn === null
      ? ""
      : ` ${mention(change.laterTurn.user)} takes ${monthName(change.laterTurn.month)} instead.`;
  return textReply(
    `Done: ${mention(change.to)} is the cost warden for ${monthName(change.month)}.${later} ` +
      "The channel is told, and the new warden gets the checklist.",
  );
}

function listed(items: readonly string[], none: string): string {
  if (items.length === 0) return none;
  const shown = items.slice(0, LIST_MAX).map((item) => `• ${item}`);
  if (items.length > LIST_MAX) shown.push(`…and ${items.length - LIST_MAX} more`);
  return shown.join("\n");
}
