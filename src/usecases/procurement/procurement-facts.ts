import { addMonths, monthDays } from "../../checks/local-day.ts";
import { todayLocal } from "../ledger/ledger-report.ts";
import { type ProjectReportDeps, readProjectAllocation } from "../ledger/project-report.ts";

/** How many complete months before this one the request form shows. */
const FACT_MONTHS = 3;

/** One past month of a project's use, as the request form shows it. */
export interface ProjectMonthUse {
  month: string;
  busyGpuHours: number;
  claimedGpuHours: number;
  /** The cost of idle GPU-hours it held over its cost (`null`: it cost nothing). */
  idleShare: number | null;
  /** Hours its requests waited on the waiting list. */
  waitedHours: number;
}

/**
 * The project's last {@link FACT_MONTHS} complete months (oldest first) from the per-project
 * allocation: GPU-hours used and held, idle share, hours waited. `project` null: the unattributed
 * row. The evidence a request for more GPUs starts from.
 */
export function readProjectUse(deps: ProjectReportDeps, project: string | null): ProjectMonthUse[] {
  const thisMonth = todayLocal(deps).slice(0, 7);
  const months = Array.from({ length: FACT_MONTHS }, (_, i) => addMonths(thisMonth, i - FACT_MONTHS));
  return months.map((month) => {
    const { first, last } = monthDays(month);
    const row = readProjectAllocation(deps, first, last).rows.find((r) => r.project === project);
    return {
      month,
      busyGpuHours: row?.busyGpuHours ?? 0,
      claimedGpuHours: row?.claimedGpuHours ?? 0,
      idleShare: row === undefined || row.cost <= 0 ? null : row.idleCost / row.cost,
      waitedHours: row?.waitedHours ?? 0,
    };
  });
}
