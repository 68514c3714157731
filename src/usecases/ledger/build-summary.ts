import type { Cadence } from "../../checks/cadence.ts";
import type { Config } from "../../config/schema.ts";
import { shiftLocalDays } from "../../reports/local-days.ts";
import {
  buildSummaryModelPaced,
  type ContainerReport,
  type Period,
  previousSums,
  type ReclaimListing,
  type SummaryModel,
  type SummaryPricing,
} from "../../reports/summary-model.ts";
import { suspectSpans } from "../../reports/suspect-spans.ts";
import type { Logger } from "../../shared/logger.ts";
import type { ContainerSource } from "../../sources/summary-prometheus.ts";
import type { ClaimStore } from "../../store/claim-store.ts";
import type { MetricsStore } from "../../store/metrics-types.ts";
import type { ReclaimStore } from "../../store/reclaim-store.ts";
import type { SummaryStore } from "../../store/summary-store.ts";
import { SUSPECT_AUDIT, SUSPECT_ENDED_AUDIT } from "../alerts/suspect-notices.ts";
import { readClustersContainerUsage } from "./summary-containers.ts";
import { summaryPricing } from "./summary-pricing.ts";

/** What the summary reads. */
export interface SummaryDeps {
  config: Config;
  metrics: Pick<MetricsStore, "hosts">;
  /** Every hour before this instant is rolled up; `null` before the first rollup. */
  rolledUpToMs(): number | null;
  /** Rolls up the hours completed since the last rollup before the summary reads them. */
  rollUp?: (() => void) | undefined;
  summaries: SummaryStore;
  claims: Pick<ClaimStore, "overlapping">;
  reclaims: Pick<ReclaimStore, "allOpen">;
  /** For the container section: every Prometheus source that queries containers (none: the section is off). */
  prometheus: readonly ContainerSource[];
  logger: Logger;
  /** Default: {@link summaryPricing} of the config. */
  pricing?: SummaryPricing;
}

export const SUMMARY_DAYS = 14;

const ISO_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;

/** The summary's cadence from the config: every 14 days at `summary.time`, team time zone. */
export function summaryCadence(config: Pick<Config, "summary" | "team">): Cadence {
  return {
    weekday: ISO_WEEKDAYS.indexOf(config.summary.weekday) + 1,
    time: config.summary.time,
    startDate: config.summary.start_date,
    timezone: config.team.timezone,
    everyDays: SUMMARY_DAYS,
  };
}

/** The 14 local days before `slotMs` (the same local time of day at both ends). */
export function summaryPeriod(slotMs: number, timezone: string): Period {
  return { fromMs: shiftLocalDays(slotMs, -SUMMARY_DAYS, timezone), toMs: slotMs };
}

/**
 * The summary model of `period` (and the period before it, for the trend) from the rollups, the
 * claims, the audit, Prometheus and the open reclaim cases. A Prometheus that fails leaves the
 * container section saying so (with several clusters, beside the others' groups); the rest of the
 * summary does not depend on it. The container queries go out first and are answered while the
 * rollups are summed (that work pauses between hours for them).
 */
export async function buildSummary(deps: SummaryDeps, period: Period): Promise<SummaryModel> {
  const { config } = deps;
  const zone = config.team.timezone;
  deps.rollUp?.();
  const previous = summaryPeriod(period.fromMs, zone);
  const containers = containerReport(deps, period);
  const reclaim: ReclaimListing[] = deps.reclaims.allOpen().map((entry) => ({
    host: entry.host,
    state: entry.state === "due" ? "due" : "pending",
    sinceMs: entry.startedAtMs,
    untilMs: entry.state === "due" ? (entry.dueAtMs ?? entry.observeUntilMs) : entry.observeUntilMs,
    windowMeanPct: entry.windowMeanPct,
  }));
  const suspectAudit = deps.summaries.auditBetween([SUSPECT_AUDIT, SUSPECT_ENDED_AUDIT], 0, period.toMs);
  const pricing = deps.pricing ?? summaryPricing(config);
  // NOTE: summed first, so that the previous period's 80,000 per-GPU totals are garbage before the period's hours are read.
  const previousTotals = previousSums(
    await deps.summaries.gpuTotalsPaced(previous.fromMs, previous.toMs, nextTurn),
    previous,
    pricing,
  );
  const input = {
    period,
    previous,
    dataUntilMs: Math.min(period.toMs, deps.rolledUpToMs() ?? period.fromMs),
    timezone: zone,
    hosts: deps.metrics.hosts(),
    rollups: deps.summaries.hourRows(period.fromMs, period.toMs),
    previousTotals,
    claims: deps.claims.overlapping(period.fromMs, period.toMs),
    audit: deps.summaries.auditBetween(["stop", "keep"], period.fromMs, period.toMs),
    pricing,
    paidByTheHour: (host: string) => config.hosts[host]?.cost_per_hour !== undefined,
    reclaim,
    renewalBelowPct: config.reclaim.do_not_renew_below_pct,
  };
  const model = await buildSummaryModelPaced(input, containers, nextTurn);
  return { ...model, suspect: suspectSpans(suspectAudit, period, SUSPECT_AUDIT, SUSPECT_ENDED_AUDIT) };
}

/** Resolves on the event loop's next turn, after the I/O that is ready. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

async function containerReport(deps: SummaryDeps, period: Period): Promise<ContainerReport> {
  if (deps.prometheus.length === 0) return { status: "off" };
  const { groups, failures } = await readClustersContainerUsage(deps.prometheus, period);
  for (const failure of failures)
    deps.logger.warn(
      { cluster: failure.cluster },
      `summary: container usage not available: ${failure.message}`,
    );
  if (failures.length === deps.prometheus.length && failures.length === 1)
    return { status: "failed", message: failures[0]!.message };
  return failures.length === 0 ? { status: "ok", groups } : { status: "ok", groups, failures };
}
