import { type GpuSlots, parseSlots } from "../checks/claim-target.ts";
import { closest } from "../shared/closest.ts";
import { formatDuration, parseDurationMs } from "../shared/duration.ts";
import { slackEscape } from "../usecases/action-text.ts";
import type { ClaimTarget } from "../usecases/claim-gpus.ts";
import type { KeepSpan } from "../usecases/keep-host.ts";
import { commandNames } from "./command-table.ts";
import { plainPeople } from "./command-text.ts";
import { placementWords } from "./parse-placement.ts";
import { parseReportArgs, parseWardenArgs, type WardenAction } from "./parse-report-warden.ts";

/** The longest note a claim takes. */
export const NOTE_MAX_CHARS = 200;
/** The most GPUs one `/gpu claim <n>` takes. */
export const CLAIM_COUNT_MAX = 256;

/** What `/gpu <text>` asks for; `invalid` says what was wrong and which command's form to show. */
export type ParsedCommand =
  | { kind: "help"; bare: boolean }
  | { kind: "status"; host: string | null }
  | { kind: "keep"; host: string; span: KeepSpan; spanText: string }
  | { kind: "stop"; host: string }
  | {
      kind: "claim";
      target: ClaimTarget;
      durationMs: number | null;
      note: string;
      /** `--wait`: join the waiting list when it cannot be claimed now. */
      wait?: true;
      /** `gpus>=40g` and/or `--valley`: the cheapest GPUs with enough memory (see `parse-placement.ts`). */
      placement?: { floorMiB: number; valley: boolean };
    }
  | { kind: "queue"; cancel: boolean }
  | { kind: "release"; target: { kind: "default" } | { kind: "all" } | { kind: "slots"; slots: GpuSlots } }
  | { kind: "extend"; slots: GpuSlots; durationMs: number }
  | { kind: "mine" }
  | { kind: "report"; days: number }
  | { kind: "warden"; action: WardenAction }
  | { kind: "invalid"; problem: string; command: string | null };

/** Parses the text after `/gpu`. Never throws: anything unusable is `invalid`. */
export function parseCommand(text: string): ParsedCommand {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const [first, ...args] = words;
  if (first === undefined) return { kind: "help", bare: true };
  const name = first.toLowerCase();
  switch (name) {
    case "help":
      return { kind: "help", bare: false };
    case "status":
      if (args.length > 1) return tooMany(name, args.slice(1));
      return { kind: "status", host: args[0] ?? null };
    case "keep": {
      const [host, spanText, ...rest] = args;
      if (host === undefined) return invalid(name, "`keep` needs a host and a duration.");
      if (spanText === undefined && parseKeepSpan(host) !== null) {
        return invalid(
          name,
          `\`keep ${shown(host)}\`: which host? Name it first: \`keep gpu-a ${shown(host)}\`.`,
        );
      }
      if (spanText === undefined) return invalid(name, `\`keep ${shown(host)}\` needs a duration.`);
      if (rest.length > 0) return tooMany(name, rest);
      const span = parseKeepSpan(spanText);
      if (span === null) {
        return invalid(name, `\`${shown(spanText)}\` is not a duration: use 30m, 4h, 2d or tomorrow.`);
      }
      return { kind: "keep", host, span, spanText: describeSpan(span) };
    }
    case "stop": {
      const [host, ...rest] = args;
      if (host === undefined) return invalid(name, "`stop` needs a host.");
      if (rest.length > 0) return tooMany(name, rest);
      return { kind: "stop", host };
    }
    case "claim":
      return parseClaim(args);
    case "queue": {
      const [what, ...rest] = args;
      if (what === undefined) return { kind: "queue", cancel: false };
      if (what.toLowerCase() !== "cancel") return tooMany(name, args);
      if (rest.length > 0) return tooMany(name, rest);
      return { kind: "queue", cancel: true };
    }
    case "release": {
      const [what, ...rest] = args;
      if (what === undefined) return { kind: "release", target: { kind: "default" } };
      if (rest.length > 0) return tooMany(name, rest);
      if (what.toLowerCase() === "all") return { kind: "release", target: { kind: "all" } };
      const slots = slotsOf(name, what);
      return "kind" in slots ? slots : { kind: "release", target: { kind: "slots", slots } };
    }
    case "extend": {
      const [what, ...rest] = args;
      if (what === undefined) return invalid(name, "`extend` needs a claim and a duration.");
      if (rest.length === 0 && parseDurationMs(what) !== null) {
        return invalid(
          name,
          `\`extend ${shown(what)}\`: which claim? Name its host first: \`extend gpu-a ${shown(what)}\` (or gpu-a:0).`,
        );
      }
      const slots = slotsOf(name, what);
      if ("kind" in slots) return slots;
      const words = rest[0]?.toLowerCase() === "for" ? rest.slice(1) : rest;
      const [spanText, ...extra] = words;
      if (spanText === undefined) return invalid(name, `\`extend ${shown(what)}\` needs a duration.`);
      const durationMs = parseDurationMs(spanText);
      if (durationMs === null) return notDuration(name, spanText);
      if (extra.length > 0) return tooMany(name, extra);
      return { kind: "extend", slots, durationMs };
    }
    case "mine":
      if (args.length > 0) return tooMany(name, args);
      return { kind: "mine" };
    case "report": {
      const report = parseReportArgs(args);
      return "problem" in report ? invalid(name, report.problem) : { kind: "report", days: report.days };
    }
    case "warden": {
      const action = parseWardenArgs(args);
      return "problem" in action ? invalid(name, action.problem) : { kind: "warden", action };
    }
    default: {
      const known = commandNames();
      const guess = closest(name, known);
      return {
        kind: "invalid",
        problem: `Unknown command \`${shown(first)}\`${guess === null ? "." : `; did you mean \`${guess}\`?`}`,
        command: guess,
      };
    }
  }
}

/** `4h`, `1h30m`, `2d` or `tomorrow`; `null` for anything else. */
export function parseKeepSpan(text: string): KeepSpan | null {
  if (text.toLowerCase() === "tomorrow") return { kind: "tomorrow" };
  const ms = parseDurationMs(text);
  return ms === null ? null : { kind: "for", ms };
}

/** `--wait`, also as Slack may autocorrect it (`—wait`, with an em dash). */
const WAIT_FLAG = /^(--|—|–)wait$/i;

/**
 * `claim <host>[:<gpus>] | <n> [<model>]`, then `[for <duration>]` (or a bare duration), then the
 * note; `--wait` anywhere after the target.
 */
function parseClaim(words: readonly string[]): ParsedCommand {
  const { floorMiB, valley, rest: all } = placementWords(words);
  const wait = all.slice(1).some((word) => WAIT_FLAG.test(word));
  const parsed = parseClaimWords(wait ? all.filter((word, i) => i === 0 || !WAIT_FLAG.test(word)) : all);
  if (parsed.kind !== "claim") return parsed;
  const placed =
    floorMiB !== null || valley ? { ...parsed, placement: { floorMiB: floorMiB ?? 0, valley } } : parsed;
  if (placed.placement !== undefined && placed.target.kind !== "count") {
    return invalid(
      "claim",
      "A memory floor (gpus>=40g) or --valley goes with a number of GPUs: `claim 2 gpus>=40g`.",
    );
  }
  return wait ? { ...placed, wait: true } : placed;
}

function parseClaimWords(args: readonly string[]): ParsedCommand {
  const [what, ...rest] = args;
  if (what === undefined) {
    return invalid("claim", "`claim` needs a host (gpu-a, gpu-a:0,1) or a number of GPUs (2, or 2 a100).");
  }
  let target: ClaimTarget;
  let words = rest;
  if (/^\d+$/.test(what)) {
    const count = Number(what);
    if (count < 1 || count > CLAIM_COUNT_MAX) {
      return invalid("claim", `\`${shown(what)}\` GPUs: claim between 1 and ${CLAIM_COUNT_MAX}.`);
    }
    const [model] = words;
    const isModel = model !== undefined && model.toLowerCase() !== "for" && parseDurationMs(model) === null;
    target = { kind: "count", count, model: isModel ? model : null };
    if (isModel) words = words.slice(1);
  } else {
    const slots = slotsOf("claim", what);
    if ("kind" in slots) return slots;
    target = { kind: "slots", slots };
  }
  let durationMs: number | null = null;
  const [next, after] = words;
  if (next?.toLowerCase() === "for") {
    if (after === undefined) return invalid("claim", "`for` needs a duration: 30m, 4h or 2d.");
    durationMs = parseDurationMs(after);
    if (durationMs === null) return notDuration("claim", after);
    words = words.slice(2);
  } else if (next !== undefined && parseDurationMs(next) !== null) {
    durationMs = parseDurationMs(next);
    words = words.slice(1);
  }
  const note = plainPeople(words.join(" "));
  if (note.length > NOTE_MAX_CHARS) {
    return invalid("claim", `The note is ${note.length} characters long; keep it to ${NOTE_MAX_CHARS}.`);
  }
  return { kind: "claim", target, durationMs, note };
}

/** `gpu-a` / `gpu-a:0-3` as slots, or what is wrong with it. */
function slotsOf(command: string, text: string): GpuSlots | Extract<ParsedCommand, { kind: "invalid" }> {
  const parsed = parseSlots(text);
  if (parsed.ok) return parsed.slots;
  if (parsed.problem === "host") {
    return invalid(command, `\`${shown(text)}\` is not a host name: letters, digits, '.', '_' or '-'.`);
  }
  const typed = text.slice(0, text.indexOf(":"));
  const host = typed.length <= 20 ? shown(typed) : "gpu-a";
  return invalid(
    command,
    `\`${shown(text)}\` is not a GPU list: use ${host}:0, ${host}:0,1 or ${host}:0-3 (GPUs 0 to 255), or ${host}:0.3 for MIG instance 3 of GPU 0.`,
  );
}

function notDuration(command: string, text: string): Extract<ParsedCommand, { kind: "invalid" }> {
  return invalid(command, `\`${shown(text)}\` is not a duration: use 30m, 4h or 2d.`);
}

function describeSpan(span: KeepSpan): string {
  return span.kind === "tomorrow" ? "tomorrow" : formatDuration(span.ms);
}

function invalid(command: string, problem: string): Extract<ParsedCommand, { kind: "invalid" }> {
  return { kind: "invalid", problem, command };
}

function tooMany(command: string, extra: readonly string[]): ParsedCommand {
  return invalid(command, `Unexpected \`${shown(extra.join(" "))}\` after \`${command}\`.`);
}

/** A word the user typed, safe inside backticks in a reply: escaped, no backticks, at most 60 chars. */
function shown(word: string): string {
  const cut = word.length > 60 ? `${word.slice(0, 60)}…` : word;
  return slackEscape(cut.replaceAll("`", "'"));
}
