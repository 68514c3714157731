import {
  type PlanMonth,
  type PlanTask,
  PROCUREMENT_KINDS,
  type ProcurementDraft,
  type ProcurementKind,
} from "../domain/procurement-request.ts";
import { isLocalDay } from "./local-day.ts";

/** The months a plan must cover, from this one on: the red line before buying. */
export const PLAN_MIN_MONTHS = 3;
/** The most GPUs one request asks for. */
export const REQUEST_MAX_GPUS = 10_000;

/** The fields of the request form, as typed (`null`: left empty). */
export interface ProcurementForm {
  model: string | null;
  count: string | null;
  kind: string | null;
  why: string | null;
  tasks: string | null;
  hours: string | null;
  acceptance: string | null;
}

export type ProcurementField = keyof ProcurementForm;

/** What is wrong with one field. `no-plan` and `short-plan` are answered with the rule. */
export type PlanProblem =
  | { kind: "required" }
  | { kind: "bad-count" }
  | { kind: "no-plan"; minMonths: number }
  | { kind: "short-plan"; minMonths: number; months: number }
  | { kind: "bad-task-line"; line: string }
  | { kind: "past-day"; day: string; today: string }
  | { kind: "bad-hours-line"; line: string }
  | { kind: "past-month"; month: string }
  | { kind: "negative-hours"; month: string; gpuHours: number };

export type ProcurementCheck =
  | { ok: true; draft: ProcurementDraft }
  | { ok: false; problems: Partial<Record<ProcurementField, PlanProblem>> };

/**
 * Checks a filled-in request against the red line: what (model, count, buy / rent / cloud) and why,
 * and a plan for at least {@link PLAN_MIN_MONTHS} months from `today`'s month on (tasks with days
 * not in the past, GPU-hours per month none negative, acceptance criteria). Each problem is
 * reported under its field; without tasks and acceptance criteria (the hours alone come pre-filled)
 * there is no plan: the one plan problem is `no-plan`, under `tasks`. Pure.
 */
export function checkProcurementForm(form: ProcurementForm, today: string): ProcurementCheck {
  const problems: Partial<Record<ProcurementField, PlanProblem>> = {};
  const text = (field: ProcurementField) => form[field]?.trim() ?? "";
  for (const field of ["model", "why"] as const)
    if (text(field) === "") problems[field] = { kind: "required" };
  const count = Number(text("count"));
  if (!/^\d+$/.test(text("count")) || count < 1 || count > REQUEST_MAX_GPUS) {
    problems.count = { kind: "bad-count" };
  }
  const kind = PROCUREMENT_KINDS.find((k) => k === text("kind"));
  if (kind === undefined) problems.kind = { kind: "required" };
  const plan = checkPlan(text("tasks"), text("hours"), text("acceptance"), today);
  Object.assign(problems, plan.problems);
  if (Object.keys(problems).length > 0 || kind === undefined) return { ok: false, problems };
  return {
    ok: true,
    draft: {
      model: text("model"),
      count,
      kind: kind satisfies ProcurementKind,
      why: text("why"),
      tasks: plan.tasks,
      months: plan.months,
      acceptance: text("acceptance"),
    },
  };
}

function checkPlan(
  tasksText: string,
  hoursText: string,
  acceptance: string,
  today: string,
): { tasks: PlanTask[]; months: PlanMonth[]; problems: Partial<Record<ProcurementField, PlanProblem>> } {
  if (tasksText === "" && acceptance === "") {
    return { tasks: [], months: [], problems: { tasks: { kind: "no-plan", minMonths: PLAN_MIN_MONTHS } } };
  }
  const problems: Partial<Record<ProcurementField, PlanProblem>> = {};
  const tasks = parseTasks(tasksText, today);
  if ("problem" in tasks) problems.tasks = tasks.problem;
  else if (tasks.length === 0) problems.tasks = { kind: "required" };
  const months = parseMonths(hoursText, today.slice(0, 7));
  if ("problem" in months) problems.hours = months.problem;
  else if (months.length < PLAN_MIN_MONTHS) {
    problems.hours = { kind: "short-plan", minMonths: PLAN_MIN_MONTHS, months: months.length };
  }
  if (acceptance === "") problems.acceptance = { kind: "required" };
  return {
    tasks: "problem" in tasks ? [] : tasks,
    months: "problem" in months ? [] : months,
    problems,
  };
}

/** One task a line: `2027-01-15 fine-tune the 70B model`. */
function parseTasks(text: string, today: string): PlanTask[] | { problem: PlanProblem } {
  const tasks: PlanTask[] = [];
  for (const line of lines(text)) {
    const match = /^(\d{4}-\d{2}-\d{2})[\s:–-]+(.+)$/.exec(line);
    if (match === null || !isLocalDay(match[1]!)) return { problem: { kind: "bad-task-line", line } };
    const day = match[1]!;
    if (day < today) return { problem: { kind: "past-day", day, today } };
    tasks.push({ day, task: match[2]!.trim() });
  }
  return tasks.sort((a, b) => a.day.localeCompare(b.day));
}

/** One month a line: `2027-01: 300` (GPU-hours; a trailing `h` is allowed). */
function parseMonths(text: string, thisMonth: string): PlanMonth[] | { problem: PlanProblem } {
  const byMonth = new Map<string, number>();
  for (const line of lines(text)) {
    const match = /^(\d{4}-(?:0[1-9]|1[0-2]))[\s:=]+(-?\d+(?:\.\d+)?)\s*(?:h|gpu-?h(?:ours)?)?$/i.exec(line);
    if (match === null) return { problem: { kind: "bad-hours-line", line } };
    const month = match[1]!;
    const gpuHours = Number(match[2]);
    if (gpuHours < 0) return { problem: { kind: "negative-hours", month, gpuHours } };
    if (month < thisMonth) return { problem: { kind: "past-month", month } };
    byMonth.set(month, (byMonth.get(month) ?? 0) + gpuHours);
  }
  return [...byMonth]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([month, gpuHours]) => ({ month, gpuHours }));
}

function lines(text: string): string[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
}
