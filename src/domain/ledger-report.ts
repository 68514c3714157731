import type { LedgerDay } from "./ledger-day.ts";

/** Sums of ledger rows (one host, one month, or everything). */
export interface LedgerTotals {
  /** Host-days. */
  days: number;
  onHours: number;
  busyGpuHours: number;
  idleGpuHours: number;
  unknownGpuHours: number;
  /** Busy GPU-hours over GPU-hours on (busy + idle); `null` when never on. */
  usageRate: number | null;
  energyKWh: number | null;
  /** Over the priced rows; `null` when none is priced. */
  cost: number | null;
  idleCost: number | null;
  /** The part of `idleCost` stops would have saved; `null` when no row says. */
  idleSaving: number | null;
  /** Rows without a price (their cost is not in `cost`). */
  unpricedDays: number;
}

/** The cost ledger over a range of complete local days. */
export interface LedgerReport {
  /** The complete local days covered, both included; `null` when none is complete. */
  fromDay: string | null;
  toDay: string | null;
  /** What was asked for. */
  requested: { fromDay: string; toDay: string };
  /** The complete days the ledger holds at all (`null`: none yet), to say where to look instead. */
  ledger: { first: string; last: string } | null;
  timezone: string;
  currency: string;
  /** Per host, by idle cost (highest first), then name. */
  hosts: ({ host: string } & LedgerTotals)[];
  /** The real usage rate per calendar month (local), oldest first. */
  months: ({ month: string } & LedgerTotals)[];
  total: LedgerTotals;
  /** Every row, by day then host (the CSV). */
  rows: LedgerDay[];
}

/** What is wrong with a typed `--since` / `--until`: the CLI says it, and what to type instead. */
export type ReportRangeProblem =
  | { kind: "notADate"; option: "--since" | "--until"; typed: string }
  | { kind: "notComplete"; since: string }
  | { kind: "backwards"; since: string; until: string }
  | { kind: "tooLong"; since: string; until: string; maxDays: number };
