/**
 * Spot and valley advice from the observed runs: a run is a GPU's stretch of busy hours. Short
 * runs that ended cleanly (the GPU went idle, not silent) could have run on spot instances; batch
 * runs started in peak tariff hours could have waited for the valley; hosts running both serving
 * and experiments should be split. Pure.
 */

/** One GPU's hour, from the hourly rollups. */
export interface RunHour {
  host: string;
  gpu: number;
  hourMs: number;
  busyMinutes: number;
  idleMinutes: number;
  unknownMinutes: number;
  /** `null`: no power reading. */
  energyWh: number | null;
}

export interface RunAdvicePolicy {
  /** An hour with at least this many busy minutes is part of a run. */
  busyHourMinutes: number;
  /** Runs of at most this many hours that ended cleanly are spot candidates. */
  spotMaxHours: number;
  /** The cloud's spot discount, percent. */
  spotDiscountPct: number;
  /** Runs at least this long are serving; shorter ones are batch (experiments). */
  servingMinHours: number;
}

export const DEFAULT_RUN_ADVICE: RunAdvicePolicy = {
  busyHourMinutes: 30,
  spotMaxHours: 4,
  spotDiscountPct: 60,
  servingMinHours: 24,
};

/** Prices the advice needs; `null` where nothing is configured. */
export interface RunPrices {
  /** What one GPU-hour of `host` costs (rent or amortisation), per hour. */
  gpuHourCost(host: string): number | null;
  /** The electricity price per kWh at an instant; `null` without a tariff. */
  energyPriceAt(atMs: number): number | null;
  /** Whether an instant is in a peak tariff window. */
  isPeak(atMs: number): boolean;
  /** The valley price per kWh; `null` without a valley window. */
  valleyPrice: number | null;
}

export interface Run {
  host: string;
  gpu: number;
  startMs: number;
  hours: number;
  /** The hour after it is known and mostly idle: the run finished by itself. */
  endedCleanly: boolean;
  energyWh: number;
}

export interface RunAdvice {
  spot: { run: Run; cost: number; saving: number }[];
  spotSaving: number;
  valley: { run: Run; kWh: number; saving: number }[];
  valleySaving: number;
  /** Hosts with serving runs and batch runs on them. */
  mixedHosts: string[];
}

const HOUR_MS = 3_600_000;

/** The runs in `hours` (any order), per GPU, in time order. */
export function findRuns(hours: readonly RunHour[], policy: Pick<RunAdvicePolicy, "busyHourMinutes">): Run[] {
  const byGpu = new Map<string, RunHour[]>();
  for (const hour of hours) {
    const key = `${hour.host}\u0000${hour.gpu}`;
    const list = byGpu.get(key);
    if (list === undefined) byGpu.set(key, [hour]);
    else list.push(hour);
  }
  const runs: Run[] = [];
  for (const list of byGpu.values()) {
    list.sort((a, b) => a.hourMs - b.hourMs);
    let open: Run | null = null;
    for (let i = 0; i <= list.length; i++) {
      const hour = list[i];
      const busy = hour !== undefined && hour.busyMinutes >= policy.busyHourMinutes;
      const follows =
        open !== null && hour !== undefined && hour.hourMs === open.startMs + open.hours * HOUR_MS;
      if (busy && follows && open !== null) {
        open.hours++;
        open.energyWh += hour.energyWh ?? 0;
        continue;
      }
      if (open !== null) {
        open.endedCleanly =
          follows && hour !== undefined && hour.idleMinutes >= 30 && hour.unknownMinutes < 30;
        runs.push(open);
        open = null;
      }
      if (busy)
        open = {
          host: hour.host,
          gpu: hour.gpu,
          startMs: hour.hourMs,
          hours: 1,
          endedCleanly: false,
          energyWh: hour.energyWh ?? 0,
        };
    }
  }
  return runs.sort((a, b) => a.startMs - b.startMs || a.host.localeCompare(b.host) || a.gpu - b.gpu);
}

/** The advice for the runs in `hours`. */
export function runAdvice(hours: readonly RunHour[], prices: RunPrices, policy: RunAdvicePolicy): RunAdvice {
  const runs = findRuns(hours, policy);
  const spot: RunAdvice["spot"] = [];
  const valley: RunAdvice["valley"] = [];
  for (const run of runs) {
    const gpuHour = prices.gpuHourCost(run.host);
    if (run.hours <= policy.spotMaxHours && run.endedCleanly && gpuHour !== null) {
      const cost = run.hours * gpuHour;
      spot.push({ run, cost, saving: (cost * policy.spotDiscountPct) / 100 });
    }
    const peakPrice = prices.energyPriceAt(run.startMs);
    if (
      run.hours < policy.servingMinHours &&
      prices.isPeak(run.startMs) &&
      peakPrice !== null &&
      prices.valleyPrice !== null
    ) {
      const kWh = run.energyWh / 1000;
      const saving = kWh * (peakPrice - prices.valleyPrice);
      if (saving > 0) valley.push({ run, kWh, saving });
    }
  }
  const serving = new Set(runs.filter((r) => r.hours >= policy.servingMinHours).map((r) => r.host));
  const batch = new Set(runs.filter((r) => r.hours < policy.servingMinHours).map((r) => r.host));
  return {
    spot,
    spotSaving: spot.reduce((sum, s) => sum + s.saving, 0),
    valley,
    valleySaving: valley.reduce((sum, v) => sum + v.saving, 0),
    mixedHosts: [...serving].filter((host) => batch.has(host)).sort(),
  };
}
