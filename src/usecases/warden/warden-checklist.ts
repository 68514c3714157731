import { monthDays, previousMonth } from "../../checks/local-day.ts";
import { type FleetStatusDeps, readFleetStatus } from "../fleet/read-fleet-status.ts";
import { readLedgerReport } from "../ledger/ledger-report.ts";
import type { LedgerDeps } from "../ledger/update-ledger.ts";

/** A host waiting for the cost warden's reclaim decision. */
export interface PendingReclaim {
  host: string;
  /** When it became pending reclaim. */
  sinceMs: number;
  /** When the decision is due (the end of the observation); `null` when it is due now. */
  decideByMs: number | null;
  /** Its 30-day mean utilisation when it became pending; `null` when unknown. */
  meanUtilPct: number | null;
}

/**
 * The reclaim workflow as the warden's checklist reads it. The summary side owns reclaims; this
 * port keeps the checklist independent of how they are stored.
 */
export interface ReclaimLookup {
  pending(atMs: number): PendingReclaim[];
}

/** What the new warden is asked to look at on the 1st. */
export interface WardenChecklist {
  month: string;
  warden: string;
  atMs: number;
  timezone: string;
  currency: string;
  /** Hosts in an idle episode now, longest idle first. */
  idleHosts: { host: string; idleSinceMs: number | null }[];
  /** Hosts without data now (unknown, or configured and never seen). */
  noData: { host: string; lastOkAtMs: number | null; problem: string | null }[];
  /** `null` when no reclaim workflow is wired in. */
  pendingReclaims: PendingReclaim[] | null;
  /** Last month's hosts with the highest idle cost (at most 5, idle cost above 0). */
  lastMonth: {
    month: string;
    top: { host: string; idleCost: number; idleGpuHours: number }[];
    /** Idle cost of the whole fleet; `null` when no host has a price. */
    totalIdleCost: number | null;
    /** Days of last month in the ledger (fewer when the bot was not running yet). */
    days: number;
  };
}

export interface WardenChecklistDeps extends FleetStatusDeps {
  costLedger: LedgerDeps;
  pendingReclaims: ReclaimLookup | null;
}

const TOP_IDLE_COST = 5;

/** The checklist for `warden`, the warden of `month`, at `atMs`. */
export function readWardenChecklist(
  deps: WardenChecklistDeps,
  warden: string,
  month: string,
  atMs: number,
): WardenChecklist {
  const fleet = readFleetStatus(deps);
  const last = previousMonth(month);
  const { first, last: lastDay } = monthDays(last);
  const ledger = readLedgerReport(deps.costLedger, { fromDay: first, toDay: lastDay });
  const days = new Set(ledger.rows.map((row) => row.day)).size;
  return {
    month,
    warden,
    atMs,
    timezone: deps.config.team.timezone,
    currency: deps.config.team.currency,
    idleHosts: fleet.hosts
      .filter((host) => host.status === "idle")
      .map((host) => ({ host: host.host, idleSinceMs: host.idleSinceMs }))
      .sort((a, b) => (a.idleSinceMs ?? atMs) - (b.idleSinceMs ?? atMs) || a.host.localeCompare(b.host)),
    noData: fleet.hosts
      .filter((host) => host.status === "unknown" || host.status === "never-seen")
      .map((host) => ({ host: host.host, lastOkAtMs: host.lastOkAtMs, problem: host.problem })),
    pendingReclaims: deps.pendingReclaims?.pending(atMs) ?? null,
    lastMonth: {
      month: last,
      top: ledger.hosts
        .filter((host) => (host.idleCost ?? 0) > 0)
        .slice(0, TOP_IDLE_COST)
        .map((host) => ({ host: host.host, idleCost: host.idleCost ?? 0, idleGpuHours: host.idleGpuHours })),
      totalIdleCost: ledger.total.idleCost,
      days,
    },
  };
}
