import { MAX_REPORT_DAYS } from "../usecases/ledger-report.ts";
import { userIdOf } from "./command-text.ts";

/** `/gpu report` covers this many days when none is given. */
export const DEFAULT_REPORT_DAYS = 7;

/** What `/gpu warden …` asks for. */
export type WardenAction =
  | { kind: "show" }
  | { kind: "roster" }
  | { kind: "swap"; user: string }
  | { kind: "skip" };

/** `report [<days>d]`: the number of days, or what is wrong. */
export function parseReportArgs(args: readonly string[]): { days: number } | { problem: string } {
  const [span, ...rest] = args;
  if (rest.length > 0)
    return { problem: `Unexpected \`${shown(rest.join(" "))}\` after \`report ${shown(span ?? "")}\`.` };
  if (span === undefined) return { days: DEFAULT_REPORT_DAYS };
  const match = /^(\d{1,4})d?$/i.exec(span);
  const days = match === null ? Number.NaN : Number(match[1]);
  if (!(days >= 1 && days <= MAX_REPORT_DAYS)) {
    return {
      problem: `\`${shown(span)}\` is not a number of days: use 1d to ${MAX_REPORT_DAYS}d, e.g. 30d.`,
    };
  }
  return { days };
}

/** `warden [roster | swap @user | skip]`: the action, or what is wrong. */
export function parseWardenArgs(args: readonly string[]): WardenAction | { problem: string } {
  const [verb, ...rest] = args;
  if (verb === undefined) return { kind: "show" };
  switch (verb.toLowerCase()) {
    case "roster":
    case "skip":
      if (rest.length > 0)
        return { problem: `Unexpected \`${shown(rest.join(" "))}\` after \`warden ${verb}\`.` };
      return { kind: verb.toLowerCase() as "roster" | "skip" };
    case "swap": {
      const [who, ...extra] = rest;
      if (who === undefined)
        return { problem: "`warden swap` needs the person who takes this month: @someone." };
      if (extra.length > 0)
        return { problem: `Unexpected \`${shown(extra.join(" "))}\` after \`warden swap\`.` };
      const user = userIdOf(who);
      if (user === null) {
        return {
          problem:
            `I cannot tell who \`${shown(who)}\` is: mention them (\`@name\`, picked from Slack's list) or give ` +
            "their member ID (profile → ⋮ → Copy member ID), e.g. `U024BE7LH`.",
        };
      }
      return { kind: "swap", user };
    }
    default:
      return {
        problem: `\`warden ${shown(verb)}\`: use \`warden\`, \`warden roster\`, \`warden swap @user\` or \`warden skip\`.`,
      };
  }
}

function shown(word: string): string {
  const cut = word.length > 60 ? `${word.slice(0, 60)}…` : word;
  return cut.replaceAll("`", "'").replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}
