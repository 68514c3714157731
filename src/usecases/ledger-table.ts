import type { LedgerDay } from "../domain/ledger-day.ts";
import { toCsv } from "../shared/csv.ts";
import type { LedgerReport, LedgerTotals } from "./ledger-report.ts";

/** The CSV columns, one row per host and local day. */
export const LEDGER_CSV_COLUMNS = [
  "day",
  "host",
  "hours",
  "on_hours",
  "gpus",
  "busy_gpu_hours",
  "idle_gpu_hours",
  "unknown_gpu_hours",
  "usage_rate",
  "energy_kwh",
  "cost",
  "idle_cost",
  "capital",
  "upkeep",
  "energy_cost",
  "rent",
  "currency",
] as const;

/**
 * The report's rows as CSV (RFC 4180, `\r\n`), one per host and local day: hours to 3 decimals,
 * energy to 3, money to 2, `usage_rate` as a fraction to 4; unknown values are empty.
 */
export function ledgerCsv(report: Pick<LedgerReport, "rows" | "currency">): string {
  return toCsv(
    LEDGER_CSV_COLUMNS,
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

/** The report as a table for a terminal: per host (highest idle cost first), the total, then per month. */
export function ledgerTable(report: LedgerReport): string {
  if (report.fromDay === null || report.toDay === null) {
    const asked = `${report.requested.fromDay} … ${report.requested.toDay} (${report.timezone})`;
    if (report.ledger !== null) {
      return `no ledger day in ${asked}: the ledger has ${report.ledger.first} … ${report.ledger.last}\n`;
    }
    return (
      `no complete day in the ledger for ${asked} yet: the bot writes it from the hourly rollups ` +
      "once a day is over\n"
    );
  }
  const header = [
    "host",
    "days",
    "hours on",
    "busy GPU-h",
    "idle GPU-h",
    "unknown GPU-h",
    "usage",
    "energy kWh",
    `cost ${report.currency}`,
    `idle cost ${report.currency}`,
  ];
  const line = (name: string, t: LedgerTotals) => [
    name,
    String(t.days),
    fixed(t.onHours, 1),
    fixed(t.busyGpuHours, 1),
    fixed(t.idleGpuHours, 1),
    fixed(t.unknownGpuHours, 1),
    percent(t.usageRate),
    t.energyKWh === null ? "—" : fixed(t.energyKWh, 1),
    t.cost === null ? "—" : fixed(t.cost, 2),
    t.idleCost === null ? "—" : fixed(t.idleCost, 2),
  ];
  const body = [header, ...report.hosts.map((h) => line(h.host, h)), line("total", report.total)];
  const widths = header.map((_, i) => Math.max(...body.map((cells) => cells[i]!.length)));
  const render = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join("  ")
      .trimEnd();
  const out = [
    `cost ledger ${report.fromDay} … ${report.toDay} (${report.timezone}), ${report.currency}`,
    ...body.map(render),
    "",
    "monthly real usage rate (busy GPU-hours / GPU-hours on):",
    ...report.months.map(
      (m) =>
        `  ${m.month}  ${percent(m.usageRate).padStart(5)}  (${fixed(m.busyGpuHours, 1)} of ` +
        `${fixed(m.busyGpuHours + m.idleGpuHours, 1)} GPU-hours on)`,
    ),
  ];
  if (report.total.unpricedDays > 0) {
    out.push(
      "",
      `— no price: set cost_per_hour or purchase_price under hosts.<name> (${report.total.unpricedDays} host-days)`,
    );
  }
  if (report.toDay < report.requested.toDay) {
    out.push("", `the ledger ends ${report.toDay}: later days are not complete yet`);
  }
  return `${out.join("\n")}\n`;
}

/** `77 %`; `—` when unknown. */
export function percent(rate: number | null): string {
  return rate === null ? "—" : `${Math.round(rate * 100)} %`;
}

function usageRateOf(row: LedgerDay): number | null {
  const on = row.busyGpuHours + row.idleGpuHours;
  return on > 0 ? row.busyGpuHours / on : null;
}

function fixed(value: number, decimals: number): string {
  const text = value.toFixed(decimals);
  return /^-0(\.0+)?$/.test(text) ? text.slice(1) : text;
}
