import { MAX_REPORT_DAYS } from "../../usecases/ledger/ledger-report.ts";
import type { CommandProblem } from "./command-problem.ts";
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
export function parseReportArgs(
  args: readonly string[],
): { days: number; project?: { month: string | null } } | { problem: CommandProblem } {
  const [span, ...rest] = args;
  if (span?.toLowerCase() === "project") return parseProjectReport(rest);
  if (rest.length > 0)
    return { problem: { kind: "unexpected", extra: rest.join(" "), after: `report ${span ?? ""}` } };
  if (span === undefined) return { days: DEFAULT_REPORT_DAYS };
  const match = /^(\d{1,4})d?$/i.exec(span);
  const days = match === null ? Number.NaN : Number(match[1]);
  if (!(days >= 1 && days <= MAX_REPORT_DAYS)) {
    return { problem: { kind: "notDays", text: span, max: MAX_REPORT_DAYS } };
  }
  return { days };
}

/** `report project [YYYY-MM]`: the month, or what is wrong. */
function parseProjectReport(
  args: readonly string[],
): { days: number; project: { month: string | null } } | { problem: CommandProblem } {
  const [month, ...rest] = args;
  if (rest.length > 0) {
    return { problem: { kind: "unexpected", extra: rest.join(" "), after: `report project ${month}` } };
  }
  if (month !== undefined && !/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) {
    return { problem: { kind: "notMonth", text: month } };
  }
  return { days: DEFAULT_REPORT_DAYS, project: { month: month ?? null } };
}

/** `warden [roster | swap @user | skip]`: the action, or what is wrong. */
export function parseWardenArgs(args: readonly string[]): WardenAction | { problem: CommandProblem } {
  const [verb, ...rest] = args;
  if (verb === undefined) return { kind: "show" };
  switch (verb.toLowerCase()) {
    case "roster":
    case "skip":
      if (rest.length > 0)
        return { problem: { kind: "unexpected", extra: rest.join(" "), after: `warden ${verb}` } };
      return { kind: verb.toLowerCase() as "roster" | "skip" };
    case "swap": {
      const [who, ...extra] = rest;
      if (who === undefined) return { problem: { kind: "needs", command: "warden swap", needs: "person" } };
      if (extra.length > 0)
        return { problem: { kind: "unexpected", extra: extra.join(" "), after: "warden swap" } };
      const user = userIdOf(who);
      if (user === null) {
        return { problem: { kind: "unknownPerson", text: who } };
      }
      return { kind: "swap", user };
    }
    default:
      return { problem: { kind: "wardenVerb", verb } };
  }
}
