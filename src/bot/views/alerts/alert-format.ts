import { addDays, localDayOf } from "../../../checks/local-day.ts";
import { formatMoney as formatMoneyIn } from "../../../messages/formatters.ts";
import type { Translator } from "../../../messages/translator.ts";
import { mention, slackEscape } from "../../../shared/slack-text.ts";
import { clockText, localParts } from "../../../shared/time.ts";

export { mention };
/** Escapes the three characters Slack's mrkdwn treats as control characters. */
export const escapeMrkdwn = slackEscape;

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** `€12.40` for `currency` `EUR`, in English (views with a translator use `tr.money`). */
export function formatMoney(amount: number, currency: string): string {
  return formatMoneyIn("en", amount, currency, { digits: 2 });
}

/** An alert's duration in the reader's words, in whole minutes rounded down (`2 h 5 min`). */
export function alertDuration(tr: Translator, ms: number): string {
  return tr.duration(Math.max(0, Math.floor(ms / MINUTE_MS)) * MINUTE_MS);
}

/**
 * {@link formatWhen} in the reader's language: `14:02` the same local day, `Mon 14:02` within the
 * week, `Jan 5 14:02` this year, `Jan 5, 2025 14:02` before.
 */
export function alertWhen(tr: Translator, ms: number, nowMs: number): string {
  const at = localParts(ms, tr.timeZone);
  const now = localParts(nowMs, tr.timeZone);
  if (at.year === now.year && at.month === now.month && at.day === now.day) return tr.date(ms, "time");
  if (Math.abs(nowMs - ms) < 6 * DAY_MS) return tr.t("alert.when.week", { at: ms });
  if (at.year === now.year) return tr.t("alert.when.year", { at: ms });
  return tr.t("alert.when.older", { at: ms });
}

/**
 * The *Keep until tomorrow* button's words: "Keep until tomorrow 09:00", or, when the keep runs to a
 * later working day (pressed on a Friday, at the weekend, before a holiday), the day it ends: "Keep
 * until Mon 09:00".
 */
export function keepTomorrowLabel(
  tr: Translator,
  keys: { tomorrow: KeepTomorrowKey; until: KeepUntilKey },
  view: { nowMs: number; keepUntilTomorrowAt: string; keepTomorrowUntilMs?: number | undefined },
): string {
  const untilMs = view.keepTomorrowUntilMs;
  const tomorrow = addDays(localDayOf(view.nowMs, tr.timeZone), 1);
  if (untilMs === undefined || localDayOf(untilMs, tr.timeZone) === tomorrow) {
    return tr.t(keys.tomorrow, { at: view.keepUntilTomorrowAt });
  }
  return tr.t(keys.until, { day: alertWhen(tr, untilMs, view.nowMs) });
}

type KeepTomorrowKey = "alert.button.keepTomorrow" | "autopilot.button.keepTomorrow";
type KeepUntilKey = "alert.button.keepUntil" | "autopilot.button.keepUntil";

/** `by <@U1>`, `automatically` for the bot itself (any non-user actor), `by someone` without one. */
export function byWords(tr: Translator, actor: string | null): string {
  if (actor === null) return tr.t("alert.by.someone");
  return isUser(actor) ? tr.t("alert.by.user", { user: mention(actor) }) : tr.t("alert.by.auto");
}

/** Whether `actor` is a Slack user id (not the bot). */
export function isUser(actor: string): boolean {
  return /^[UW][A-Z0-9]{2,}$/.test(actor);
}

/** What an hourly cost comes to over `ms`; `null` when the cost is unknown. */
export function costOver(ms: number, costPerHour: number | null): number | null {
  return costPerHour === null ? null : (costPerHour * Math.max(0, ms)) / (60 * MINUTE_MS);
}

/**
 * An instant in the team's zone, as short as it can be next to `nowMs`: `14:02` the same local day,
 * `Mon 14:02` within the week, `5 Jan 14:02` this year, `5 Jan 2025 14:02` before.
 */
export function formatWhen(ms: number, nowMs: number, zone: string): string {
  const at = localParts(ms, zone);
  const now = localParts(nowMs, zone);
  const time = clockText(at.hour * 60 + at.minute);
  if (at.year === now.year && at.month === now.month && at.day === now.day) return time;
  if (Math.abs(nowMs - ms) < 6 * DAY_MS) return `${at.weekday} ${time}`;
  if (at.year === now.year) return `${at.day} ${at.monthName} ${time}`;
  return `${at.day} ${at.monthName} ${at.year} ${time}`;
}

/** A user id as Slack shows it, or `automatically` for the bot itself (any non-user actor). */
export function actorText(actor: string | null): string {
  if (actor === null) return "someone";
  return /^[UW][A-Z0-9]{2,}$/.test(actor) ? mention(actor) : "automatically";
}

/** Inline code, safe for any process name. */
export function code(text: string): string {
  return `\`${escapeMrkdwn(text).replace(/`/g, "'")}\``;
}

/** At most `max` characters (code points), ending with `…` when cut. */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join("")}…`;
}

/** At most `max` characters (code points), cut in the middle: a command line keeps its script name. */
export function truncateMiddle(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const tail = Math.floor((max - 1) / 2);
  return `${chars.slice(0, max - 1 - tail).join("")}…${chars.slice(chars.length - tail).join("")}`;
}

/**
 * Joins `lines` with newlines within `maxChars`, ending with `and N more` (via `more`) when some do
 * not fit; a single over-long line is truncated.
 */
export function joinLines(
  lines: readonly string[],
  maxChars: number,
  more: (left: number) => string = (left) => `…and ${left} more`,
): string {
  const out: string[] = [];
  let used = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const left = lines.length - i - 1;
    const reserve = left > 0 ? more(left + 1).length + 1 : 0;
    const cost = line.length + (out.length > 0 ? 1 : 0);
    if (used + cost + reserve > maxChars) {
      if (out.length === 0) return truncate(line, maxChars);
      out.push(more(lines.length - i));
      return out.join("\n");
    }
    out.push(line);
    used += cost;
  }
  return out.join("\n");
}

/** `12.3 GiB`. */
export function formatGiB(mib: number): string {
  return `${(mib / 1024).toFixed(1)} GiB`;
}
