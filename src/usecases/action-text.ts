import { closest } from "../shared/closest.ts";
import { slackEscape } from "../shared/slack-text.ts";
import { clockText, type LocalParts, localParts } from "../shared/time.ts";

export { BOT_ACTOR, mention, slackEscape } from "../shared/slack-text.ts";

/**
 * An instant as people in the team's zone read it, relative to now: `14:02`, `tomorrow 09:00`,
 * `yesterday 17:30`, else `Thu 7 Jan 09:00`.
 */
export function localWhen(ms: number, nowMs: number, zone: string): string {
  const local = localParts(ms, zone);
  const dayOffset = dayNumberOf(local) - localDayNumber(nowMs, zone);
  const time = clockText(local);
  if (dayOffset === 0) return time;
  if (dayOffset === 1) return `tomorrow ${time}`;
  if (dayOffset === -1) return `yesterday ${time}`;
  return `${local.weekday} ${local.day} ${local.monthName} ${time}`;
}

/** Days since 1970-01-01 of the local calendar date of `ms` in `zone` (DST-proof: no offsets involved). */
export function localDayNumber(ms: number, zone: string): number {
  return dayNumberOf(localParts(ms, zone));
}

function dayNumberOf(parts: LocalParts): number {
  return Math.round(Date.UTC(parts.year, parts.month - 1, parts.day) / 86_400_000);
}

/** `a`, `a or b`, `a, b or c`. */
export function listWords(items: readonly string[], last: "or" | "and"): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} ${last} ${items.at(-1)}`;
}

/**
 * A host name nobody knows, and what to tell the person: the one host that starts with what was
 * typed (else the closest within two edits), none known yet, the known hosts when there are few, or
 * how many there are.
 */
export type UnknownHost = { host: string } & (
  | { kind: "suggest"; suggestion: string }
  | { kind: "none-seen" }
  | { kind: "list"; hosts: readonly string[] }
  | { kind: "many"; count: number }
);

/** What to tell a person who named `host`, which is not among `known`. */
export function unknownHost(host: string, known: readonly string[]): UnknownHost {
  const extending = known.filter((name) => name.toLowerCase().startsWith(host.toLowerCase()));
  const suggestion = extending.length === 1 ? extending[0]! : closest(host, known);
  if (suggestion !== null) return { host, kind: "suggest", suggestion };
  if (known.length === 0) return { host, kind: "none-seen" };
  if (known.length <= 10) return { host, kind: "list", hosts: known };
  return { host, kind: "many", count: known.length };
}

/**
 * `no host gpu-b; did you mean gpu-b1?` in English, for the use-cases that still answer in words
 * (the bot's views say it with `unknownHostWords`).
 */
export function unknownHostText(host: string, known: readonly string[]): string {
  const facts = unknownHost(host, known);
  const shown = slackEscape(host);
  switch (facts.kind) {
    case "suggest":
      return `no host ${shown}; did you mean ${facts.suggestion}?`;
    case "none-seen":
      return `no host ${shown}: the bot has not seen any host yet`;
    case "list":
      return `no host ${shown}; the hosts are ${listWords(facts.hosts, "and")}`;
    case "many":
      return `no host ${shown}; the status command lists the ${facts.count} hosts`;
    default:
      return facts satisfies never;
  }
}
