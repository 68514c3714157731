import { usageRate } from "../../checks/cost-hour-usage.ts";
import { addDays, daysBetween, isLocalDay, localDayOf, monthOfDay } from "../../checks/local-day.ts";
import type { LedgerDay } from "../../domain/ledger-day.ts";
import type { LedgerReport, LedgerTotals, ReportRangeProblem } from "../../domain/ledger-report.ts";
import { completeDays, type LedgerDeps, updateLedger } from "./update-ledger.ts";

/** A bad `--since` / `--until`: {@link ReportRangeError.problem} says what, as data. */
export class ReportRangeError extends Error {
  override name = "ReportRangeError";
  constructor(readonly problem: ReportRangeProblem) {
    super(problem.kind);
  }
}

/** The longest range a report covers (rollups are kept at least 400 days). */
export const MAX_REPORT_DAYS = 400;

/**
 * Checks a range of local days as typed (`YYYY-MM-DD`, `until` included and defaulting to the
 * last complete day, yesterday). Throws {@link ReportRangeError}.
 */
export function reportRange(
  since: string,
  until: string | undefined,
  todayLocal: string,
): { fromDay: string; toDay: string } {
  if (!isLocalDay(since)) throw new ReportRangeError({ kind: "notADate", option: "--since", typed: since });
  if (until !== undefined && !isLocalDay(until)) {
    throw new ReportRangeError({ kind: "notADate", option: "--until", typed: until });
  }
  if (since >= todayLocal) throw new ReportRangeError({ kind: "notComplete", since });
  const toDay = until ?? addDays(todayLocal, -1);
  if (toDay < since) throw new ReportRangeError({ kind: "backwards", since, until: toDay });
  if (daysBetween(since, toDay) + 1 > MAX_REPORT_DAYS) {
    throw new ReportRangeError({ kind: "tooLong", since, until: toDay, maxDays: MAX_REPORT_DAYS });
  }
  return { fromDay: since, toDay };
}

/** The last `days` complete local days (ending yesterday). */
export function lastDaysRange(days: number, todayLocal: string): { fromDay: string; toDay: string } {
  return { fromDay: addDays(todayLocal, -days), toDay: addDays(todayLocal, -1) };
}

/** Today's local day in the team zone. */
export function todayLocal(deps: Pick<LedgerDeps, "clock" | "config">): string {
  return localDayOf(deps.clock.now(), deps.config.team.timezone);
}

/**
 * The ledger over `[fromDay, toDay]`, first bringing those days up to date (missing or stale days
 * are computed from the rollups). Days not complete yet are left out (`toDay` says where it ends).
 */
export function readLedgerReport(deps: LedgerDeps, range: { fromDay: string; toDay: string }): LedgerReport {
  deps.rollUp?.();
  updateLedger(deps, range);
  const complete = completeDays(deps);
  const fromDay =
    complete === null || range.fromDay > complete.last ? null : maxDay(range.fromDay, complete.first);
  const lastDay = complete === null || fromDay === null ? null : minDay(range.toDay, complete.last);
  // NOTE: a range that ends before the ledger starts has no day: never a backwards range.
  const toDay = lastDay !== null && fromDay !== null && lastDay >= fromDay ? lastDay : null;
  const rows = fromDay === null || toDay === null ? [] : deps.ledger.between(fromDay, toDay);
  return {
    fromDay: toDay === null ? null : fromDay,
    toDay,
    requested: range,
    ledger: complete,
    readings: readingsOf(deps),
    timezone: deps.config.team.timezone,
    currency: deps.config.team.currency,
    hosts: grouped(rows, (row) => row.host)
      .map(([host, group]) => ({ host, ...totalsOf(group) }))
      .sort((a, b) => (b.idleCost ?? -1) - (a.idleCost ?? -1) || a.host.localeCompare(b.host)),
    months: grouped(rows, (row) => monthOfDay(row.day))
      .map(([month, group]) => ({ month, ...totalsOf(group) }))
      .sort((a, b) => a.month.localeCompare(b.month)),
    total: totalsOf(rows),
    rows,
  };
}

/** Sums ledger rows. */
export function totalsOf(rows: readonly LedgerDay[]): LedgerTotals {
  const totals: LedgerTotals = {
    days: rows.length,
    onHours: 0,
    busyGpuHours: 0,
    idleGpuHours: 0,
    unknownGpuHours: 0,
    usageRate: null,
    energyKWh: null,
    cost: null,
    idleCost: null,
    idleSaving: null,
    unpricedDays: 0,
  };
  for (const row of rows) {
    totals.onHours += row.onHours;
    totals.busyGpuHours += row.busyGpuHours;
    totals.idleGpuHours += row.idleGpuHours;
    totals.unknownGpuHours += row.unknownGpuHours;
    if (row.energyKWh !== null) totals.energyKWh = (totals.energyKWh ?? 0) + row.energyKWh;
    if (row.cost === null) totals.unpricedDays++;
    else totals.cost = (totals.cost ?? 0) + row.cost;
    if (row.idleCost !== null) totals.idleCost = (totals.idleCost ?? 0) + row.idleCost;
    if (row.idleSaving != null) totals.idleSaving = (totals.idleSaving ?? 0) + row.idleSaving;
  }
  totals.usageRate = usageRate(totals.busyGpuHours, totals.idleGpuHours);
  return totals;
}

function grouped<K>(rows: readonly LedgerDay[], key: (row: LedgerDay) => K): [K, LedgerDay[]][] {
  const groups = new Map<K, LedgerDay[]>();
  for (const row of rows) {
    const k = key(row);
    const group = groups.get(k);
    if (group === undefined) groups.set(k, [row]);
    else group.push(row);
  }
  return [...groups];
}

function readingsOf(deps: LedgerDeps): LedgerReport["readings"] {
  const first = Math.min(...deps.metrics.hosts().map((host) => host.firstSeenMs));
  return Number.isFinite(first) ? { fromMs: first, toMs: deps.clock.now() } : null;
}

function maxDay(a: string, b: string): string {
  return a > b ? a : b;
}

function minDay(a: string, b: string): string {
  return a < b ? a : b;
}
