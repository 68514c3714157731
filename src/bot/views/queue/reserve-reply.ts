import type { Reservation, ReservationWindow } from "../../../checks/reservation-window.ts";
import type { Translator } from "../../../messages/translator.ts";
import { mention, slackEscape } from "../../../shared/slack-text.ts";
import { clockText } from "../../../shared/time.ts";
import type { CancelReservationResult, ReserveResult } from "../../../usecases/queue/reservations.ts";
import type { ReserveProblem } from "../../commands/parse-reserve.ts";
import { context, type Reply, section, textReply } from "../reply-message.ts";
import {
  everyWords,
  holderWords,
  reservationLine,
  reservedGpus,
  whenWords,
  windowWords,
} from "./reservation-lines.ts";

/** The answer to `/gpu reserve <gpus> <when> <hours> [note]`. */
export function reserveReply(tr: Translator, result: ReserveResult, nowMs: number): Reply {
  switch (result.kind) {
    case "reserved": {
      const { reservation } = result;
      const common = {
        gpus: reservedGpus(reservation),
        from: clockText(reservation.startMin),
        to: clockText(reservation.endMin),
        zone: tr.timeZone,
        id: reservation.id,
        note: reservation.note === "" ? "" : ` (${slackEscape(reservation.note)})`,
      };
      return textReply(
        reservation.day !== null
          ? tr.t("reserve.made.once", { ...common, day: dayNoon(result.next, nowMs) })
          : tr.t("reserve.made.weekly", { ...common, days: everyWords(tr, reservation.weekdays ?? []) }),
      );
    }
    case "overlap": {
      const { holder, window } = result;
      const when =
        window === null
          ? windowWords(tr, holder)
          : `${windowWords(tr, holder)}, ${whenWords(tr, window, nowMs)}`;
      return textReply(
        tr.t("reserve.overlap", {
          gpus: reservedGpus(holder),
          who: holderWords(holder),
          window: when,
          id: holder.id,
        }),
      );
    }
    case "past":
      return textReply(tr.t("reserve.past", { until: result.untilMs }));
    case "not-member":
      return textReply(tr.t("reserve.notMember", { project: slackEscape(result.project) }));
    default:
      return result satisfies never;
  }
}

function dayNoon(window: ReservationWindow | null, nowMs: number): number {
  return window?.fromMs ?? nowMs;
}

/** The answer to `/gpu reserve cancel <id>`. */
export function reserveCancelReply(
  tr: Translator,
  result: CancelReservationResult,
  slashCommand: string,
): Reply {
  switch (result.kind) {
    case "cancelled": {
      const { reservation } = result;
      return textReply(
        tr.t("reserve.cancelled", {
          id: reservation.id,
          gpus: reservedGpus(reservation),
          window: windowWords(tr, reservation),
        }),
      );
    }
    case "not-found":
      return textReply(tr.t("reserve.notFound", { id: result.id, command: slashCommand }));
    case "not-yours":
      return textReply(
        tr.t("reserve.notYours", { id: result.reservation.id, who: mention(result.reservation.user) }),
      );
    case "config":
      return textReply(tr.t("reserve.fromConfig", { id: result.reservation.id }));
    default:
      return result satisfies never;
  }
}

/** `/gpu reserve list`: every reservation to come, soonest first. */
export function reserveListReply(
  tr: Translator,
  items: ReadonlyArray<{ reservation: Reservation; window: ReservationWindow | null }>,
  nowMs: number,
  slashCommand: string,
): Reply {
  if (items.length === 0) return textReply(tr.t("reserve.list.empty", { command: slashCommand }));
  const title = tr.t("reserve.list.title", { count: items.length });
  const lines = items.slice(0, 40).map((item) => reservationLine(tr, item, nowMs));
  const text = `*${title}*\n${lines.join("\n")}`;
  return {
    text: title,
    blocks: [section(text), context(tr.t("reserve.list.footer", { command: slashCommand }))],
  };
}

/** What was wrong with `/gpu reserve …`, then its right form. */
export function reserveProblemText(tr: Translator, problem: ReserveProblem): string {
  switch (problem.kind) {
    case "missing":
      return tr.t("reserve.problem.missing");
    case "slots":
      return tr.t("reserve.problem.slots", { text: shownWord(problem.text) });
    case "when":
      return tr.t("reserve.problem.when", { text: shownWord(problem.text) });
    case "hours":
      return tr.t("reserve.problem.hours", { text: shownWord(problem.text) });
    case "cancel-id":
      return tr.t("reserve.problem.cancelId");
    case "note-long":
      return tr.t("reserve.problem.noteLong", { length: problem.length });
    default:
      return problem satisfies never;
  }
}

function shownWord(word: string): string {
  const cut = word.length > 60 ? `${word.slice(0, 60)}…` : word;
  return cut.replaceAll("`", "'").replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}
