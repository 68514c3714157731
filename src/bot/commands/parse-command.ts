import { type GpuSlots, parseSlots } from "../../checks/claim-target.ts";
import { closest } from "../../shared/closest.ts";
import { formatDuration, parseDurationMs } from "../../shared/duration.ts";
import type { KeepSpan } from "../../usecases/alerts/keep-host.ts";
import type { ClaimTarget } from "../../usecases/claims/claim-gpus.ts";
import type { CommandProblem } from "./command-problem.ts";
import { commandNames } from "./command-table.ts";
import { plainPeople } from "./command-text.ts";
import { placementWords } from "./parse-placement.ts";
import { parseReportArgs, parseWardenArgs, type WardenAction } from "./parse-report-warden.ts";
import { parseReserveArgs, type ReserveAction } from "./parse-reserve.ts";

/** The longest note a claim takes. */
export const NOTE_MAX_CHARS = 200;
/** The most GPUs one `/gpu claim <n>` takes. */
export const CLAIM_COUNT_MAX = 256;

/** What `/gpu <text>` asks for; `invalid` says what was wrong and which command's form to show. */
export type ParsedCommand =
  | { kind: "help"; bare: boolean }
  | {
      kind: "status";
      host: string | null;
      /** `cluster=b`: the board of that cluster's hosts only. */
      cluster?: string;
    }
  | { kind: "keep"; host: string; span: KeepSpan; spanText: string }
  | { kind: "stop"; host: string }
  | { kind: "start"; host: string }
  | {
      kind: "claim";
      target: ClaimTarget;
      durationMs: number | null;
      note: string;
      /** `--wait`: join the waiting list when it cannot be claimed now. */
      wait?: true;
      /** `project=X`: wait for this project (one of the person's) instead of their default one. */
      project?: string;
      /** `gpus>=40g` and/or `--valley`: the cheapest GPUs with enough memory (see `parse-placement.ts`). */
      placement?: { floorMiB: number; valley: boolean };
    }
  | { kind: "queue"; cancel: boolean }
  | { kind: "reserve"; action: ReserveAction }
  | { kind: "release"; target: { kind: "default" } | { kind: "all" } | { kind: "slots"; slots: GpuSlots } }
  | { kind: "extend"; slots: GpuSlots; durationMs: number }
  | { kind: "mine" }
  /** `project`: `report project [YYYY-MM]`, the month split among projects (`null`: this month). */
  | { kind: "report"; days: number; project?: { month: string | null } }
  /** `heatmap [project=X]`: the hour-of-week heatmap, of one project's GPU time (`null`: the fleet). */
  | { kind: "heatmap"; project: string | null }
  | { kind: "warden"; action: WardenAction }
  /** `request [<project>]`: the form asking for more GPUs (`null`: the person's default project). */
  | { kind: "request"; project: string | null }
  | { kind: "invalid"; problem: CommandProblem; command: string | null };

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
      if (args[0]?.toLowerCase().startsWith("cluster=")) {
        return { kind: "status", host: null, cluster: args[0].slice("cluster=".length) };
      }
      return { kind: "status", host: args[0] ?? null };
    case "keep": {
      const [host, spanText, ...rest] = args;
      if (host === undefined)
        return invalid(name, { kind: "needs", command: name, needs: "hostAndDuration" });
      if (spanText === undefined && parseKeepSpan(host) !== null) {
        return invalid(name, { kind: "spanFirst", command: "keep", span: host });
      }
      if (spanText === undefined) return invalid(name, { kind: "needsDuration", command: name, typed: host });
      if (rest.length > 0) return tooMany(name, rest);
      const span = parseKeepSpan(spanText);
      if (span === null) {
        return invalid(name, { kind: "notDuration", text: spanText, tomorrow: true });
      }
      return { kind: "keep", host, span, spanText: describeSpan(span) };
    }
    case "stop":
    case "start": {
      const [host, ...rest] = args;
      if (host === undefined) return invalid(name, { kind: "needs", command: name, needs: "host" });
      if (rest.length > 0) return tooMany(name, rest);
      return { kind: name, host };
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
    case "reserve":
      return { kind: "reserve", action: parseReserveArgs(args) };
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
      if (what === undefined)
        return invalid(name, { kind: "needs", command: name, needs: "claimAndDuration" });
      if (rest.length === 0 && parseDurationMs(what) !== null) {
        return invalid(name, { kind: "spanFirst", command: "extend", span: what });
      }
      const slots = slotsOf(name, what);
      if ("kind" in slots) return slots;
      const words = rest[0]?.toLowerCase() === "for" ? rest.slice(1) : rest;
      const [spanText, ...extra] = words;
      if (spanText === undefined) return invalid(name, { kind: "needsDuration", command: name, typed: what });
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
      if ("problem" in report) return invalid(name, report.problem);
      const { days, project } = report;
      return project === undefined ? { kind: "report", days } : { kind: "report", days, project };
    }
    case "request":
      if (args.length > 1) return tooMany(name, args.slice(1));
      return { kind: "request", project: args[0]?.toLowerCase() ?? null };
    case "heatmap":
      return parseHeatmap(name, args);
    case "warden": {
      const action = parseWardenArgs(args);
      return "problem" in action ? invalid(name, action.problem) : { kind: "warden", action };
    }
    default: {
      const known = commandNames();
      const guess = closest(name, known);
      return { kind: "invalid", problem: { kind: "unknownCommand", typed: first, guess }, command: guess };
    }
  }
}

/** `heatmap [project=<name>]`. */
function parseHeatmap(name: string, args: string[]): ParsedCommand {
  const [what, ...rest] = args;
  if (rest.length > 0) return tooMany(name, rest);
  if (what === undefined) return { kind: "heatmap", project: null };
  const project = PROJECT_WORD.exec(what)?.[1];
  return project === undefined ? tooMany(name, [what]) : { kind: "heatmap", project };
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
function parseClaim(typed: readonly string[]): ParsedCommand {
  const { floorMiB, valley, rest: all } = placementWords(typed);
  const wait = all.slice(1).some((word) => WAIT_FLAG.test(word));
  const project = all.slice(1).flatMap((word) => PROJECT_WORD.exec(word)?.slice(1, 2) ?? [])[0];
  const words = all.filter((word, i) => i === 0 || !(WAIT_FLAG.test(word) || PROJECT_WORD.test(word)));
  const parsed = parseClaimWords(words);
  if (parsed.kind !== "claim") return parsed;
  const placed =
    floorMiB !== null || valley ? { ...parsed, placement: { floorMiB: floorMiB ?? 0, valley } } : parsed;
  if (placed.placement !== undefined && placed.target.kind !== "count") {
    return invalid("claim", { kind: "placementNeedsCount" });
  }
  return {
    ...placed,
    ...(wait ? { wait: true as const } : {}),
    ...(project === undefined ? {} : { project }),
  };
}

/** `project=X` on a claim. */
const PROJECT_WORD = /^project=(\S+)$/i;

function parseClaimWords(args: readonly string[]): ParsedCommand {
  const [what, ...rest] = args;
  if (what === undefined) {
    return invalid("claim", { kind: "needs", command: "claim", needs: "target" });
  }
  let target: ClaimTarget;
  let words = rest;
  if (/^\d+$/.test(what)) {
    const count = Number(what);
    if (count < 1 || count > CLAIM_COUNT_MAX) {
      return invalid("claim", { kind: "countRange", typed: what, max: CLAIM_COUNT_MAX });
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
    if (after === undefined) return invalid("claim", { kind: "forNeedsDuration" });
    durationMs = parseDurationMs(after);
    if (durationMs === null) return notDuration("claim", after);
    words = words.slice(2);
  } else if (next !== undefined && parseDurationMs(next) !== null) {
    durationMs = parseDurationMs(next);
    words = words.slice(1);
  }
  const note = plainPeople(words.join(" "));
  if (note.length > NOTE_MAX_CHARS) {
    return invalid("claim", { kind: "noteTooLong", length: note.length, max: NOTE_MAX_CHARS });
  }
  return { kind: "claim", target, durationMs, note };
}

/** `gpu-a` / `gpu-a:0-3` as slots, or what is wrong with it. */
function slotsOf(command: string, text: string): GpuSlots | Extract<ParsedCommand, { kind: "invalid" }> {
  const parsed = parseSlots(text);
  if (parsed.ok) return parsed.slots;
  if (parsed.problem === "host") {
    return invalid(command, { kind: "notHostName", text });
  }
  return invalid(command, { kind: "notGpuList", text, host: text.slice(0, text.indexOf(":")) });
}

function notDuration(command: string, text: string): Extract<ParsedCommand, { kind: "invalid" }> {
  return invalid(command, { kind: "notDuration", text, tomorrow: false });
}

function describeSpan(span: KeepSpan): string {
  return span.kind === "tomorrow" ? "tomorrow" : formatDuration(span.ms);
}

function invalid(command: string, problem: CommandProblem): Extract<ParsedCommand, { kind: "invalid" }> {
  return { kind: "invalid", problem, command };
}

function tooMany(command: string, extra: readonly string[]): ParsedCommand {
  return invalid(command, { kind: "unexpected", extra: extra.join(" "), after: command });
}
