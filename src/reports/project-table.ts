import type { ProjectAllocation } from "../checks/allocate-projects.ts";
import type { MessageId } from "../messages/catalog.ts";
import type { Translator } from "../messages/translator.ts";
import { toCsv } from "../shared/csv.ts";
import { alignedRows, fixed, percent } from "./ledger-table.ts";

/** What the per-project tables show (a `ProjectReport`). */
export interface ProjectTableInput {
  month: string;
  fromDay: string | null;
  toDay: string | null;
  currency: string;
  timezone: string;
  rows: readonly ProjectAllocation[];
  ledgerCost: number;
}

/** A project's name, or *unattributed*, in `tr`'s language. */
export function projectName(tr: Translator, project: string | null): string {
  return project ?? tr.t("money.unattributed");
}

/**
 * `gpu-warden report --by project`'s table, in `tr`'s language: per project GPU-hours claimed and
 * busy, the cost of what it used and of the idle GPUs it held, its share, hours waited; then the
 * total, which is the ledger's.
 */
export function projectTable(tr: Translator, report: ProjectTableInput): string {
  if (report.fromDay === null || report.toDay === null) {
    return `${tr.t("money.noDay", { month: report.month })}\n`;
  }
  const { currency } = report;
  const header = [
    tr.t("money.header.project"),
    tr.t("money.header.claimed"),
    tr.t("money.header.busy"),
    tr.t("money.header.usedCost", { currency }),
    tr.t("money.header.idleCost", { currency }),
    tr.t("money.header.cost", { currency }),
    tr.t("money.header.share"),
    tr.t("money.header.waited"),
  ];
  const cells = (name: string, row: Omit<ProjectAllocation, "project">) => [
    name,
    fixed(row.claimedGpuHours, 1),
    fixed(row.busyGpuHours, 1),
    fixed(row.usedCost, 2),
    fixed(row.idleCost, 2),
    fixed(row.cost, 2),
    percent(row.share),
    fixed(row.waitedHours, 1),
  ];
  const body = [
    header,
    ...report.rows.map((row) => cells(projectName(tr, row.project), row)),
    cells(tr.t("money.total"), totalOf(report.rows, report.ledgerCost)),
  ];
  const { month, fromDay, toDay, timezone: zone } = report;
  const out = [
    tr.t("money.title", { month, from: fromDay, to: toDay, zone, currency }),
    ...alignedRows(body),
    "",
    tr.t("money.note.unattributed"),
  ];
  return `${out.join("\n")}\n`;
}

/** The rows summed (`cost` is the ledger's total). */
export function totalOf(
  rows: readonly ProjectAllocation[],
  ledgerCost: number,
): Omit<ProjectAllocation, "project"> {
  const sum = (pick: (row: ProjectAllocation) => number) => rows.reduce((total, row) => total + pick(row), 0);
  return {
    claimedGpuHours: sum((row) => row.claimedGpuHours),
    busyGpuHours: sum((row) => row.busyGpuHours),
    usedCost: sum((row) => row.usedCost),
    idleCost: sum((row) => row.idleCost),
    cost: ledgerCost,
    share: ledgerCost > 0 ? 1 : null,
    waitedHours: sum((row) => row.waitedHours),
  };
}

export const PROJECT_CSV_COLUMNS = [
  "money.col.project",
  "money.col.claimedGpuHours",
  "money.col.busyGpuHours",
  "money.col.usedCost",
  "money.col.idleCost",
  "money.col.cost",
  "money.col.share",
  "money.col.waitedHours",
  "money.col.currency",
] as const satisfies readonly MessageId[];

/** One row per project (the unattributed one last) as CSV: hours to 3 decimals, money to 2, share to 4. */
export function projectCsv(tr: Translator, report: ProjectTableInput): string {
  return toCsv(
    PROJECT_CSV_COLUMNS.map((id) => tr.t(id)),
    report.rows.map((row) => [
      projectName(tr, row.project),
      fixed(row.claimedGpuHours, 3),
      fixed(row.busyGpuHours, 3),
      fixed(row.usedCost, 2),
      fixed(row.idleCost, 2),
      fixed(row.cost, 2),
      row.share === null ? null : fixed(row.share, 4),
      fixed(row.waitedHours, 3),
      report.currency,
    ]),
  );
}
