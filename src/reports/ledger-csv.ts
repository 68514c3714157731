import type { LedgerDay } from "../domain/ledger-day.ts";
import type { LedgerReport } from "../domain/ledger-report.ts";
import type { MessageId } from "../messages/catalog.ts";
import type { Translator } from "../messages/translator.ts";
import { toCsv } from "../shared/csv.ts";
import { fixed } from "./ledger-table.ts";

/** The CSV columns' ids, one row per host and local day. */
export const LEDGER_CSV_COLUMNS = [
  "ledger.col.day",
  "ledger.col.host",
  "ledger.col.hours",
  "ledger.col.onHours",
  "ledger.col.gpus",
  "ledger.col.busyGpuHours",
  "ledger.col.idleGpuHours",
  "ledger.col.unknownGpuHours",
  "ledger.col.usageRate",
  "ledger.col.energyKwh",
  "ledger.col.cost",
  "ledger.col.idleCost",
  "ledger.col.capital",
  "ledger.col.upkeep",
  "ledger.col.energyCost",
  "ledger.col.rent",
  "ledger.col.currency",
] as const satisfies readonly MessageId[];

/**
 * The report's rows as CSV (RFC 4180, `\r\n`), one per host and local day, headers in `tr`'s
 * language: hours to 3 decimals, energy to 3, money to 2, `usage_rate` as a fraction to 4; unknown
 * values are empty.
 */
export function ledgerCsv(tr: Translator, report: Pick<LedgerReport, "rows" | "currency">): string {
  return toCsv(
    LEDGER_CSV_COLUMNS.map((id) => tr.t(id)),
    report.rows.map((row) => {
      const rate = usageRateOf(row);
      return [
        row.day,
        row.host,
        fixed(row.hours, 3),
        fixed(row.onHours, 3),
        row.gpus,
        fixed(row.busyGpuHours, 3),
        fixed(row.idleGpuHours, 3),
        fixed(row.unknownGpuHours, 3),
        rate === null ? null : fixed(rate, 4),
        row.energyKWh === null ? null : fixed(row.energyKWh, 3),
        row.cost === null ? null : fixed(row.cost, 2),
        row.idleCost === null ? null : fixed(row.idleCost, 2),
        fixed(row.capital, 2),
        fixed(row.upkeep, 2),
        fixed(row.energyCost, 2),
        fixed(row.rent, 2),
        report.currency,
      ];
    }),
  );
}

function usageRateOf(row: LedgerDay): number | null {
  const on = row.busyGpuHours + row.idleGpuHours;
  return on > 0 ? row.busyGpuHours / on : null;
}
