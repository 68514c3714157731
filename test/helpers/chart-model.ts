import { localDayStarts } from "../../src/reports/local-days.ts";
import type { HostRow, SummaryModel } from "../../src/reports/summary-model.ts";
import { dayjs } from "../../src/shared/time.ts";

export interface ChartModelOptions {
  currency?: string;
  timezone?: string;
  /** Hosts, named `gpu-01`… unless `names` says otherwise. */
  hosts?: number;
  names?: readonly string[];
  /** No price anywhere: idle GPU-hours only. */
  unpriced?: boolean;
  /** No idle time at all. */
  empty?: boolean;
}

/** 14 days from Fri 20 Nov 2026 00:00 in the zone. */
export const CHART_PERIOD_FROM = "2026-11-20";

/**
 * A summary model for drawing charts: hosts with a steady, deterministic (seeded) idle pattern per
 * day — a few large idle hosts, many small ones, more idle at weekends. Only what a chart reads is
 * filled in realistically; the lists it does not read are empty.
 */
export function chartModel(options: ChartModelOptions = {}): SummaryModel {
  const timezone = options.timezone ?? "Europe/Berlin";
  const currency = options.currency ?? "EUR";
  const count = options.names?.length ?? options.hosts ?? 14;
  const period = {
    fromMs: dayjs.tz(CHART_PERIOD_FROM, timezone).valueOf(),
    toMs: dayjs.tz(CHART_PERIOD_FROM, timezone).add(14, "day").valueOf(),
  };
  const dayStartsMs = localDayStarts(period.fromMs, period.toMs, timezone);
  let seed = 20_261_120;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const costPerGpuHour = currency === "CNY" ? 14 : currency === "USD" ? 2.1 : 1.9;
  const hosts: HostRow[] = Array.from({ length: count }, (_, i) => {
    const name = options.names?.[i] ?? `gpu-${String(i + 1).padStart(2, "0")}`;
    const gpus = i % 3 === 0 ? 8 : 4;
    const idleShare = Math.max(0.03, 0.75 / (1 + i * 0.6));
    const dailyIdleGpuHours = dayStartsMs.map((startMs) => {
      if (options.empty) return 0;
      const weekend = [0, 6].includes(new Date(startMs + 43_200_000).getUTCDay());
      const share = Math.min(1, idleShare * (weekend ? 1.6 : 1) * (0.6 + 0.8 * random()));
      return Math.round(gpus * 24 * share * 10) / 10;
    });
    const idleGpuHours = dailyIdleGpuHours.reduce((a, b) => a + b, 0);
    const dailyIdleCost = dailyIdleGpuHours.map((h) => (options.unpriced ? 0 : h * costPerGpuHour));
    return {
      host: name,
      gpus,
      utilMeanPct: 100 * (1 - idleShare),
      previousUtilMeanPct: null,
      busyGpuHours: gpus * 24 * 14 - idleGpuHours,
      idleGpuHours,
      unknownGpuHours: 0,
      idleCost: options.unpriced ? null : idleGpuHours * costPerGpuHour,
      previousIdleGpuHours: 0,
      dailyUtilPct: dayStartsMs.map(() => 100 * (1 - idleShare)),
      dailyIdleGpuHours,
      dailyIdleCost,
      paidByTheHour: false,
    };
  });
  const gpus = hosts.reduce((n, h) => n + h.gpus, 0);
  const idleGpuHours = hosts.reduce((n, h) => n + h.idleGpuHours, 0);
  const fleet = {
    hosts: hosts.length,
    gpus,
    utilMeanPct: 60,
    busyGpuHours: gpus * 24 * 14 - idleGpuHours,
    idleGpuHours,
    unknownGpuHours: 0,
    idleCost: hosts.reduce((n, h) => n + (h.idleCost ?? 0), 0),
    unpricedGpus: options.unpriced ? gpus : 0,
  };
  return {
    period,
    previous: { fromMs: period.fromMs - 14 * 86_400_000, toMs: period.fromMs },
    timezone,
    currency,
    dayStartsMs,
    fleet,
    previousFleet: fleet,
    coverage: { fromMs: period.fromMs, untilMs: period.toMs, readShare: 1 },
    hosts,
    gpus: [],
    people: [],
    stops: [],
    keeps: [],
    savedCost: 0,
    containers: { status: "off" },
    reclaim: [],
    renewalBelowPct: 20,
    doNotRenew: [],
  };
}
