import {
  type Allocation,
  allocateProjects,
  type ClaimSpan,
  type GpuSpanUse,
  workloadLookup,
} from "../../checks/allocate-projects.ts";
import { daysFromTo, localDayBounds, monthDays } from "../../checks/local-day.ts";
import { type WorkloadHour, workloadProjectResolver } from "../../checks/workload-project.ts";
import type { Config } from "../../config/schema.ts";
import type { Claim } from "../../domain/claim.ts";
import type { QueueRequest } from "../../domain/queue-request.ts";
import { readLedgerReport } from "./ledger-report.ts";
import type { LedgerDeps } from "./update-ledger.ts";

/** What the per-project allocation reads besides the ledger. */
export interface ProjectReportDeps extends LedgerDeps {
  config: LedgerDeps["config"] & Pick<Config, "projects">;
  claims: { overlapping(fromMs: number, toMs: number): Claim[] };
  queue: { waitedBetween(fromMs: number, toMs: number): QueueRequest[] };
  workloads: { between(fromMs: number, toMs: number): WorkloadHour[] };
}

/** A calendar month (team time zone) split among projects; `fromDay`/`toDay` null: no complete day yet. */
export interface ProjectReport extends Allocation {
  month: string;
  fromDay: string | null;
  toDay: string | null;
  currency: string;
  timezone: string;
}

/** `YYYY-MM`: a calendar month. */
export function isMonth(text: string): boolean {
  return /^\d{4}-(0[1-9]|1[0-2])$/.test(text);
}

/**
 * `gpu-warden report --by project` and `/gpu report project`: the complete local days of `month`
 * (brought up to date in the ledger first) split among projects by {@link allocateProjects}.
 */
export function readProjectReport(deps: ProjectReportDeps, month: string): ProjectReport {
  const { first, last } = monthDays(month);
  return { month, ...readProjectAllocation(deps, first, last) };
}

/** {@link readProjectReport} over the complete local days of `[fromDay, toDay]`. */
export function readProjectAllocation(
  deps: ProjectReportDeps,
  fromDay: string,
  toDay: string,
): Omit<ProjectReport, "month"> {
  const ledger = readLedgerReport(deps, { fromDay, toDay });
  const base = {
    fromDay: ledger.fromDay,
    toDay: ledger.toDay,
    currency: ledger.currency,
    timezone: ledger.timezone,
  };
  const projects = Object.keys(deps.config.projects);
  if (ledger.fromDay === null || ledger.toDay === null) {
    return { ...base, ...allocateProjects({ ...NOTHING, projects }) };
  }
  const zone = deps.config.team.timezone;
  const fromMs = localDayBounds(ledger.fromDay, zone).startMs;
  const toMs = localDayBounds(ledger.toDay, zone).endMs;
  const nowMs = deps.clock.now();
  const gpuCounts = new Map(deps.metrics.hosts().map((host) => [host.name, host.gpus.length]));
  const resolve = workloadProjectResolver(deps.config.projects);
  const workloadProject = workloadLookup(
    deps.workloads.between(fromMs, toMs).map((hour) => ({ ...hour, project: resolve(hour) })),
  );
  const allocation = allocateProjects({
    fromMs,
    toMs,
    projects,
    ledger: ledger.rows,
    usage: gpuSpans(deps, ledger.fromDay, ledger.toDay),
    claims: deps.claims.overlapping(fromMs, toMs).map((claim) => claimSpan(claim, nowMs)),
    gpusOf: (host) => gpuCounts.get(host) ?? 0,
    workloadProject,
    waits: deps.queue.waitedBetween(fromMs, toMs).map((request) => ({
      project: request.project,
      fromMs: request.createdAtMs,
      toMs: request.grantedAtMs ?? request.endedAtMs ?? nowMs,
    })),
  });
  return { ...base, ...allocation };
}

const NOTHING = {
  fromMs: 0,
  toMs: 0,
  ledger: [],
  usage: [],
  claims: [],
  gpusOf: () => 0,
  workloadProject: () => null,
  waits: [],
};

/** A claim's span: from its start to its release (or its end, when still held: at most now). */
export function claimSpan(claim: Claim, nowMs: number): ClaimSpan {
  return {
    host: claim.host,
    gpuIndex: claim.gpuIndex,
    fromMs: claim.fromMs,
    toMs: claim.releasedAtMs ?? Math.min(claim.untilMs, nowMs),
    project: claim.project ?? null,
  };
}

/** Every GPU's rolled-up hours in the days, cut at local day bounds, one day at a time. */
function* gpuSpans(deps: LedgerDeps, fromDay: string, toDay: string): Generator<GpuSpanUse> {
  const zone = deps.config.team.timezone;
  for (const day of daysFromTo(fromDay, toDay)) {
    const { startMs, endMs } = localDayBounds(day, zone);
    for (const row of deps.metrics.rollupsBetween(startMs - (startMs % HOUR_MS), endMs)) {
      const fromMs = Math.max(row.hourMs, startMs);
      const toMs = Math.min(row.hourMs + HOUR_MS, endMs);
      if (toMs <= fromMs) continue;
      const share = (toMs - fromMs) / HOUR_MS;
      yield {
        day,
        host: row.host,
        index: row.index,
        fromMs,
        toMs,
        busyMinutes: row.busyMinutes * share,
        idleMinutes: row.idleMinutes * share,
      };
    }
  }
}

const HOUR_MS = 3_600_000;
