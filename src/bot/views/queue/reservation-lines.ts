import { slotsText } from "../../../checks/claim-target.ts";
import {
  type ClaimReservationLimit,
  localMinuteMs,
  type Reservation,
  type ReservationWindow,
} from "../../../checks/reservation-window.ts";
import type { Translator } from "../../../messages/translator.ts";
import { mention, slackEscape } from "../../../shared/slack-text.ts";
import { clockText } from "../../../shared/time.ts";
import type { IdleAlertView } from "../../../usecases/alerts/alert-words.ts";
import type { SlackMessage } from "../alerts/alert-message.ts";
import { context, LIMITS, type Reply, section } from "../reply-message.ts";

/** `gpu-a:0-3` of a reservation, escaped. */
export function reservedGpus(reservation: Pick<Reservation, "host" | "gpus">): string {
  return slackEscape(slotsText(reservation));
}

/** Local noon of `day` in the reader's team zone, for formatting that day. */
function dayMs(day: string, tr: Translator): number {
  return localMinuteMs(day, 12 * 60, tr.timeZone);
}

/** `weekday`, `weekend day`, `day`, or the weekdays' short names (`Mon, Wed`). */
export function everyWords(tr: Translator, weekdays: readonly number[]): string {
  const key = weekdays.join(",");
  if (key === "1,2,3,4,5") return tr.t("reserve.every.weekdays");
  if (key === "6,7") return tr.t("reserve.every.weekends");
  if (key === "1,2,3,4,5,6,7") return tr.t("reserve.every.daily");
  // 2026-01-05 is a Monday.
  return weekdays.map((weekday) => tr.date(dayMs(`2026-01-0${4 + weekday}`, tr), "weekday")).join(", ");
}

/** `on Thu, Dec 10, 09:00–18:00` or `every weekday, 09:00–18:00`. */
export function windowWords(tr: Translator, reservation: Reservation): string {
  const from = clockText(reservation.startMin);
  const to = clockText(reservation.endMin);
  if (reservation.day !== null) {
    return tr.t("reserve.window.once", { day: dayMs(reservation.day, tr), from, to });
  }
  return tr.t("reserve.window.weekly", { days: everyWords(tr, reservation.weekdays ?? []), from, to });
}

/** `now until 18:00` or `next Dec 10, 09:00`. */
export function whenWords(tr: Translator, window: ReservationWindow | null, nowMs: number): string {
  if (window === null) return "";
  return window.fromMs <= nowMs
    ? tr.t("reserve.window.now", { until: window.untilMs })
    : tr.t("reserve.window.next", { from: window.fromMs });
}

/** `@alice`, with the project when there is one: `@alice (vision)`. */
export function holderWords(reservation: Pick<Reservation, "user" | "project">): string {
  return reservation.project === null
    ? mention(reservation.user)
    : `${mention(reservation.user)} (${slackEscape(reservation.project)})`;
}

/** The status line of a host's reservation: reserved now until …, or reserved from … */
export function hostReservationWords(tr: Translator, window: ReservationWindow, nowMs: number): string {
  const who = holderWords(window.reservation);
  return window.fromMs <= nowMs
    ? tr.t("reserve.status.now", { who, until: window.untilMs })
    : tr.t("reserve.status.next", { who, from: window.fromMs });
}

/**
 * `/gpu status` with a *Reservations* section appended: each host reserved now or next (within a
 * week), in host order. Unchanged when there is none or no room left.
 */
export function withReservationStatus(
  tr: Translator,
  reply: Reply,
  windows: ReadonlyArray<ReservationWindow | null>,
  nowMs: number,
): Reply {
  const lines = windows
    .filter((window) => window !== null)
    .map(
      (window) =>
        `• *${reservedGpus(window.reservation)}*: ${hostReservationWords(tr, window, nowMs)} (#${window.reservation.id})`,
    );
  const blocks = reply.blocks ?? [];
  if (lines.length === 0 || blocks.length >= LIMITS.blocksPerMessage) return reply;
  return {
    ...reply,
    blocks: [...blocks, section(`*${tr.t("reserve.status.title")}*\n${lines.join("\n")}`)],
  };
}

/** The claim answer's line about a reservation: the claim was cut to end before a window. */
export function claimCutWords(
  tr: Translator,
  limit: Extract<ClaimReservationLimit, { kind: "cut" }>,
): string {
  const { reservation } = limit.window;
  return tr.t("reserve.claim.cut", {
    until: limit.untilMs,
    gpus: reservedGpus(reservation),
    who: holderWords(reservation),
    id: reservation.id,
  });
}

/** A claim refused: someone else's window is in force now. */
export function claimRefusedWords(tr: Translator, window: ReservationWindow): string {
  const { reservation } = window;
  return tr.t("reserve.claim.refused", {
    gpus: reservedGpus(reservation),
    who: holderWords(reservation),
    until: window.untilMs,
    id: reservation.id,
  });
}

/** The idle alert's line for a host reserved within the hour: `Reserved from 09:00 by @alice: not stopped automatically.` */
export function alertReservationWords(tr: Translator, window: ReservationWindow): string {
  return tr.t("reserve.alert.soon", { from: window.fromMs, who: holderWords(window.reservation) });
}

/** One line of a reservation: `#3 gpu-a:0-3: @alice on Thu, Dec 10, 09:00–18:00 · next Dec 10, 09:00 (demo)`. */
export function reservationLine(
  tr: Translator,
  item: { reservation: Reservation; window: ReservationWindow | null },
  nowMs: number,
): string {
  const { reservation, window } = item;
  const when = whenWords(tr, window, nowMs);
  const note = reservation.note === "" ? "" : ` (${slackEscape(reservation.note)})`;
  return `• #${reservation.id} *${reservedGpus(reservation)}*: ${holderWords(reservation)} ${windowWords(tr, reservation)}${when === "" ? "" : ` · ${when}`}${note}`;
}

/**
 * The idle alert with a line before its buttons when the host is reserved now or within the hour:
 * `⏳ Reserved from 09:00 by @alice: this host is not stopped automatically.`
 */
export function withAlertReservation(
  tr: Translator,
  message: SlackMessage,
  view: IdleAlertView,
): SlackMessage {
  const window = view.reservedSoon ?? null;
  if (window === null) return message;
  const line = context(`⏳ ${alertReservationWords(tr, window)}`);
  const blocks = [...message.blocks];
  const at = blocks.findIndex((block) => block.type === "actions");
  blocks.splice(at === -1 ? blocks.length : at, 0, line);
  return { ...message, blocks };
}

/** `text` with the sentence saying a reservation cut the claim, when one did. */
export function withCutWords(
  tr: Translator,
  text: string,
  cut: Extract<ClaimReservationLimit, { kind: "cut" }> | undefined,
): string {
  return cut === undefined ? text : `${text} ${claimCutWords(tr, cut)}`;
}

/** `text` with a sentence per reservation that kept an extension short. */
export function reservedExtendWords(
  tr: Translator,
  text: string,
  limits: ReadonlyArray<Exclude<ClaimReservationLimit, { kind: "free" }>>,
): string {
  const said = limits.map((limit) =>
    limit.kind === "cut" ? claimCutWords(tr, limit) : claimRefusedWords(tr, limit.window),
  );
  return [text, ...said].join(" ");
}
