import type { PlanMonth } from "../domain/procurement-request.ts";
import { addMonths } from "./local-day.ts";

/** Below this share of its planned GPU-hours, a tracked plan's month falls short. */
export const PLAN_SHORT_RATIO = 0.5;
/** A plan short this many months in a row is flagged in the summary. */
export const PLAN_SHORT_MONTHS = 2;

/** One compared month of an approved plan. */
export interface PlanMonthUse {
  month: string;
  plannedGpuHours: number;
  actualGpuHours: number;
  /** `actual < PLAN_SHORT_RATIO × planned`. */
  short: boolean;
}

export interface PlanTracking {
  months: PlanMonthUse[];
  /** The latest {@link PLAN_SHORT_MONTHS} compared months are consecutive and all short. */
  flagged: boolean;
}

/**
 * Compares an approved plan's GPU-hours with the actual ones, month by month: only the plan's
 * months that are complete and in which its hosts were in the fleet (`actualByMonth` has them).
 * Pure.
 */
export function trackPlan(
  planned: readonly PlanMonth[],
  actualByMonth: ReadonlyMap<string, number>,
): PlanTracking {
  const months: PlanMonthUse[] = [];
  for (const { month, gpuHours } of planned) {
    const actual = actualByMonth.get(month);
    if (actual === undefined) continue;
    months.push({
      month,
      plannedGpuHours: gpuHours,
      actualGpuHours: actual,
      short: actual < PLAN_SHORT_RATIO * gpuHours,
    });
  }
  const latest = months.slice(-PLAN_SHORT_MONTHS);
  const consecutive = latest.every((m, i) => i === 0 || addMonths(latest[i - 1]!.month, 1) === m.month);
  const flagged = latest.length === PLAN_SHORT_MONTHS && consecutive && latest.every((m) => m.short);
  return { months, flagged };
}
