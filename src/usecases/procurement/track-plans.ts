import { localDayBounds, monthDays } from "../../checks/local-day.ts";
import { type PlanTracking, trackPlan } from "../../checks/plan-tracking.ts";
import type { GpuRecord } from "../../domain/metrics.ts";
import type { ProcurementRequest } from "../../domain/procurement-request.ts";
import type { Clock } from "../../shared/clock.ts";
import type { MetricsStore } from "../../store/metrics-types.ts";
import type { ProcurementStore } from "../../store/procurement-store.ts";

/** What the tracked plans are read from. */
export interface TrackPlansDeps {
  config: { team: { timezone: string } };
  clock: Clock;
  metrics: Pick<MetricsStore, "hosts" | "rollupTotals">;
  procurement: Pick<ProcurementStore, "approved">;
}

/** An approved request followed month by month. */
export interface TrackedPlan {
  request: ProcurementRequest;
  /** Its GPUs (`host:index`) once all are in the fleet; empty before. */
  gpus: string[];
  /** When the last of them was first seen; `null`: not all in the fleet yet. */
  inFleetSinceMs: number | null;
  tracking: PlanTracking;
}

/**
 * Every approved request's plan against the fleet. Its GPUs are the first `count` GPUs of its
 * model (the model's words in the GPU's model name) first seen after the approval; once all are
 * in the fleet, each complete plan month after that compares the plan's GPU-hours with their busy
 * GPU-hours (`trackPlan`). Two GPUs are never counted for two plans.
 */
export function readTrackedPlans(deps: TrackPlansDeps): TrackedPlan[] {
  const taken = new Set<string>();
  const gpus = deps.metrics.hosts().flatMap((host) => host.gpus.map((gpu) => ({ host: host.name, gpu })));
  gpus.sort((a, b) => a.gpu.firstSeenMs - b.gpu.firstSeenMs);
  const busyOf = monthBusy(deps);
  return deps.procurement.approved().map((request) => {
    const mine = gpus
      .filter(({ host, gpu }) => !taken.has(`${host}:${gpu.index}`) && isPlanGpu(request, gpu))
      .slice(0, request.count);
    if (mine.length < request.count) {
      return { request, gpus: [], inFleetSinceMs: null, tracking: trackPlan(request.months, new Map()) };
    }
    const keys = mine.map(({ host, gpu }) => `${host}:${gpu.index}`);
    for (const key of keys) taken.add(key);
    const sinceMs = Math.max(...mine.map(({ gpu }) => gpu.firstSeenMs));
    const actual = actualByMonth(deps, request, new Set(keys), sinceMs, busyOf);
    return { request, gpus: keys, inFleetSinceMs: sinceMs, tracking: trackPlan(request.months, actual) };
  });
}

function isPlanGpu(request: ProcurementRequest, gpu: GpuRecord): boolean {
  if (request.decidedAtMs === null || gpu.firstSeenMs < request.decidedAtMs || gpu.model === null)
    return false;
  const words = request.model
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  const model = gpu.model.toLowerCase();
  return words.length > 0 && words.every((word) => model.includes(word));
}

/** Busy GPU-hours of `keys` in each complete plan month that began after `sinceMs`. */
function actualByMonth(
  deps: TrackPlansDeps,
  request: ProcurementRequest,
  keys: ReadonlySet<string>,
  sinceMs: number,
  busyOf: (fromMs: number, toMs: number) => ReadonlyMap<string, number>,
): Map<string, number> {
  const zone = deps.config.team.timezone;
  const nowMs = deps.clock.now();
  const actual = new Map<string, number>();
  for (const { month } of request.months) {
    const { first, last } = monthDays(month);
    const fromMs = localDayBounds(first, zone).startMs;
    const toMs = localDayBounds(last, zone).endMs;
    if (fromMs < sinceMs || toMs > nowMs) continue;
    let busy = 0;
    for (const [key, minutes] of busyOf(fromMs, toMs)) if (keys.has(key)) busy += minutes / 60;
    actual.set(month, busy);
  }
  return actual;
}

/** Busy minutes per GPU (`host:index`) between two instants, each span's totals read once. */
function monthBusy(deps: TrackPlansDeps): (fromMs: number, toMs: number) => ReadonlyMap<string, number> {
  const read = new Map<string, Map<string, number>>();
  return (fromMs, toMs) => {
    const span = `${fromMs}-${toMs}`;
    let busy = read.get(span);
    if (busy === undefined) {
      busy = new Map();
      for (const row of deps.metrics.rollupTotals(fromMs, toMs)) {
        const key = `${row.host}:${row.index}`;
        busy.set(key, (busy.get(key) ?? 0) + row.busyMinutes);
      }
      read.set(span, busy);
    }
    return busy;
  };
}
