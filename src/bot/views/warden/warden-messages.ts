import type { types } from "@slack/bolt";
import type { Translator } from "../../../messages/translator.ts";
import type { WardenChange, WardenRefusal } from "../../../usecases/warden/rotate-warden.ts";
import type { WardenChecklist } from "../../../usecases/warden/warden-checklist.ts";
import type { WardenAnnouncementFacts } from "../../../usecases/warden/warden-words.ts";
import { escapeMrkdwn, mention, truncate } from "../alerts/alert-format.ts";
import type { SlackMessage } from "../alerts/alert-message.ts";
import { context, type Reply, section, textReply } from "../reply-message.ts";

const LIST_MAX = 10;

/** `April 2026` / `2026年4月` of `2026-04`. */
export function monthName(tr: Translator, month: string): string {
  const [year, number] = month.split("-");
  return tr.t("warden.month", { year: year ?? month, month: String(Number(number)) });
}

/** The channel post on the 1st: who the cost warden is this month, and who is next. */
export function wardenAnnouncement(tr: Translator, input: WardenAnnouncementFacts): SlackMessage {
  const parts = [
    `🧭 ${tr.t("warden.announcement", { warden: mention(input.warden), month: `*${monthName(tr, input.month)}*` })}`,
  ];
  if (input.next?.user != null) {
    const month = monthName(tr, input.next.month);
    parts.push(tr.t("warden.announcement.next", { user: mention(input.next.user), month }));
  }
  parts.push(tr.t("warden.announcement.duty"));
  if (input.late) parts.push(`_${tr.t("warden.announcement.late")}_`);
  const text = parts.join(" ");
  return {
    text: truncate(text, 3000),
    blocks: [section(text), context(tr.t("warden.announcement.hint"))],
  };
}

/** The DM to the new warden: what to look at first. */
export function wardenChecklistMessage(tr: Translator, checklist: WardenChecklist): SlackMessage {
  const { atMs, timezone } = checklist;
  const when = (ms: number) =>
    tr.date(ms, "dayYear") === tr.date(atMs, "dayYear")
      ? tr.date(ms, "time")
      : tr.t("summary.when", { at: ms });
  const bold = (host: string) => `*${escapeMrkdwn(host)}*`;
  const idle = listed(
    tr,
    checklist.idleHosts.map((h) =>
      h.idleSinceMs === null
        ? bold(h.host)
        : tr.t("warden.checklist.idleSince", { host: bold(h.host), since: when(h.idleSinceMs) }),
    ),
    tr.t("warden.checklist.idleNone"),
  );
  const reclaims =
    checklist.pendingReclaims === null
      ? tr.t("warden.checklist.reclaimOff")
      : listed(
          tr,
          checklist.pendingReclaims.map((r) => {
            const facts = {
              host: bold(r.host),
              since: when(r.sinceMs),
              due:
                r.decideByMs === null
                  ? tr.t("warden.checklist.decideNow")
                  : tr.t("warden.checklist.decideBy", { at: when(r.decideByMs) }),
            };
            return r.meanUtilPct === null
              ? tr.t("warden.checklist.reclaim", facts)
              : tr.t("warden.checklist.reclaimUtil", { ...facts, util: `${Math.round(r.meanUtilPct)} %` });
          }),
          tr.t("warden.checklist.none"),
        );
  const { lastMonth } = checklist;
  const top = listed(
    tr,
    lastMonth.top.map((h) =>
      tr.t("warden.checklist.topLine", {
        host: bold(h.host),
        cost: tr.money(h.idleCost),
        hours: h.idleGpuHours.toFixed(1),
      }),
    ),
    tr.t(lastMonth.totalIdleCost === null ? "warden.checklist.noPrice" : "warden.checklist.noIdleCost"),
  );
  const total =
    lastMonth.totalIdleCost === null || lastMonth.top.length === 0
      ? ""
      : `\n${tr.t("warden.checklist.total", { cost: tr.money(lastMonth.totalIdleCost), days: lastMonth.days })}`;
  const noData = listed(
    tr,
    checklist.noData.map((h) => {
      const since =
        h.lastOkAtMs === null
          ? tr.t("warden.checklist.neverSeen", { host: bold(h.host) })
          : tr.t("warden.checklist.noDataSince", { host: bold(h.host), at: when(h.lastOkAtMs) });
      return `${since}${h.problem === null ? "" : ` (${escapeMrkdwn(truncate(h.problem, 120))})`}`;
    }),
    tr.t("warden.checklist.none"),
  );
  const month = monthName(tr, checklist.month);
  const title = `🧭 ${tr.t("warden.checklist.title", { month })}`;
  const count = (n: number | string) => ` (${n})`;
  const blocks: types.KnownBlock[] = [
    { type: "header", text: { type: "plain_text", text: truncate(title, 150) } },
    section(tr.t("warden.checklist.intro")),
    section(`*${tr.t("warden.checklist.idle")}*${count(checklist.idleHosts.length)}\n${idle}`),
    section(
      `*${tr.t("warden.checklist.reclaims")}*${count(checklist.pendingReclaims?.length ?? "—")}\n${reclaims}`,
    ),
    section(`*${tr.t("warden.checklist.top", { month: monthName(tr, lastMonth.month) })}*\n${top}${total}`),
    section(`*${tr.t("warden.checklist.noData")}*${count(checklist.noData.length)}\n${noData}`),
    context(tr.t("warden.checklist.footer", { zone: escapeMrkdwn(timezone) })),
  ];
  const summary = `🧭 ${tr.t("warden.checklist.text", {
    month,
    idle: checklist.idleHosts.length,
    reclaims: checklist.pendingReclaims?.length ?? 0,
    noData: checklist.noData.length,
  })}`;
  return { text: truncate(summary, 3000), blocks };
}

/** `/gpu warden`: this month's warden and the next. */
export function wardenStatusReply(
  tr: Translator,
  input: {
    current: { month: string; user: string | null };
    next: { month: string; user: string | null };
  },
): Reply {
  if (input.current.user === null) return textReply(tr.t("warden.noRoster"));
  const next =
    input.next.user === null
      ? ""
      : ` ${tr.t("warden.announcement.next", { user: mention(input.next.user), month: monthName(tr, input.next.month) })}`;
  return textReply(
    `🧭 ${tr.t("warden.status", { month: monthName(tr, input.current.month), user: mention(input.current.user) })}${next}`,
  );
}

/** `/gpu warden roster`: the roster in order and the coming months, swaps and skips marked. */
export function wardenRosterReply(
  tr: Translator,
  input: {
    roster: readonly string[];
    upcoming: readonly { month: string; user: string | null; changed: boolean }[];
  },
): Reply {
  if (input.roster.length === 0) return textReply(tr.t("warden.noRoster"));
  const months = input.upcoming.map(
    (turn) =>
      `• ${monthName(tr, turn.month)}: ${turn.user === null ? "—" : mention(turn.user)}${turn.changed ? ` _${tr.t("warden.roster.changed")}_` : ""}`,
  );
  const text =
    `*${tr.t("warden.roster.order")}* ${input.roster.map(mention).join(" → ")}\n` +
    `*${tr.t("warden.roster.coming")}*\n${months.join("\n")}`;
  return {
    text: truncate(tr.t("warden.roster.text", { count: input.roster.length }), 3000),
    blocks: [section(text)],
  };
}

/** The channel post after a swap or a skip. */
export function wardenChangeAnnouncement(tr: Translator, change: WardenChange, actor: string): SlackMessage {
  const month = monthName(tr, change.month);
  const from = mention(change.from);
  const why =
    change.kind === "skip"
      ? tr.t("warden.change.skip", { from })
      : actor === change.from
        ? tr.t("warden.change.handedOver", { actor: mention(actor) })
        : actor === change.to
          ? tr.t("warden.change.tookOver", { actor: mention(actor), from })
          : tr.t("warden.change.swapped", { actor: mention(actor), from });
  const text =
    `🔁 ${tr.t("warden.change.announcement", { to: mention(change.to), month: `*${month}*`, why })}` +
    laterTurn(tr, change);
  return { text: truncate(text, 3000), blocks: [section(text)] };
}

/** The ephemeral answer to whoever swapped or skipped. */
export function wardenChangeReply(tr: Translator, change: WardenChange): Reply {
  return textReply(
    `${tr.t("warden.change.done", { to: mention(change.to), month: monthName(tr, change.month) })}` +
      `${laterTurn(tr, change)} ${tr.t("warden.change.doneAfter")}`,
  );
}

/** Why a swap or skip was refused. */
export function wardenRefusalReply(tr: Translator, refusal: WardenRefusal): Reply {
  switch (refusal.reason) {
    case "no-roster":
      return textReply(tr.t("warden.noRoster"));
    case "not-allowed":
      return textReply(
        refusal.admins.length === 0
          ? tr.t("warden.refused.notAllowed", { warden: mention(refusal.warden), kind: refusal.kind })
          : tr.t("warden.refused.notAllowedAdmins", {
              warden: mention(refusal.warden),
              admins: refusal.admins.map(mention).join(", "),
              kind: refusal.kind,
            }),
      );
    case "already-warden":
      return textReply(tr.t("warden.refused.alreadyWarden", { kind: refusal.kind }));
    case "nobody-else":
      return textReply(tr.t("warden.refused.nobodyElse", { kind: refusal.kind }));
    default:
      return refusal satisfies never;
  }
}

function laterTurn(tr: Translator, change: WardenChange): string {
  return change.laterTurn === null
    ? ""
    : ` ${tr.t("warden.change.later", { user: mention(change.laterTurn.user), month: monthName(tr, change.laterTurn.month) })}`;
}

function listed(tr: Translator, items: readonly string[], none: string): string {
  if (items.length === 0) return none;
  const shown = items.slice(0, LIST_MAX).map((item) => `• ${item}`);
  if (items.length > LIST_MAX) shown.push(tr.t("warden.more", { count: items.length - LIST_MAX }));
  return shown.join("\n");
}
