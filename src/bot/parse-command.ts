import { closest } from "../shared/closest.ts";
import { slackEscape } from "../usecases/action-text.ts";
import type { KeepSpan } from "../usecases/keep-host.ts";
import { COMMANDS } from "./command-table.ts";
import { formatDuration, parseDurationMs } from "./parse-duration.ts";

/** What `/gpu <text>` asks for; `invalid` says what was wrong and which command's form to show. */
export type ParsedCommand =
  | { kind: "help"; bare: boolean }
  | { kind: "status"; host: string | null }
  | { kind: "keep"; host: string; span: KeepSpan; spanText: string }
  | { kind: "stop"; host: string }
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
    default: {
      const known = COMMANDS.map((command) => command.name);
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

function describeSpan(span: KeepSpan): string {
  return span.kind === "tomorrow" ? "tomorrow" : formatDuration(span.ms);
}

function invalid(command: string, problem: string): ParsedCommand {
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
