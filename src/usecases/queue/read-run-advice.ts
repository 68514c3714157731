import { hostCostBasis, isRentedOrCloud } from "../../checks/cost-model.ts";
import { DEFAULT_RUN_ADVICE, type RunAdvice, type RunPrices, runAdvice } from "../../checks/run-advice.ts";
import { tariffAt, tariffOf } from "../../checks/tariff-price.ts";
import type { Config } from "../../config/schema.ts";
import type { Period } from "../../reports/summary-model.ts";
import type { MetricsStore } from "../../store/metrics-types.ts";

/**
 * The prices of the advice: a rented or cloud host's hourly price split over its GPUs (spot only
 * replaces those), the tariff's price at an instant, peak meaning above the cheapest window.
 */
export function runPrices(
  config: Pick<Config, "team" | "costs" | "hosts">,
  gpusOf: (host: string) => number,
): RunPrices {
  const tariff = tariffOf(config.costs.electricity, config.team.timezone);
  const prices = [tariff.pricePerKWh, ...tariff.windows.map((w) => w.pricePerKWh)];
  const valleyPrice = tariff.windows.length === 0 ? null : Math.min(...prices);
  return {
    gpuHourCost: (host) => {
      const basis = hostCostBasis(config.hosts[host], config.costs);
      return basis.kind === "rate" && isRentedOrCloud(basis)
        ? basis.costPerHour / Math.max(1, gpusOf(host))
        : null;
    },
    energyPriceAt: (atMs) => tariffAt(tariff, atMs).pricePerKWh,
    isPeak: (atMs) => valleyPrice !== null && tariffAt(tariff, atMs).pricePerKWh > valleyPrice,
    valleyPrice,
  };
}

/** The spot and valley advice for `period`, from the hourly rollups. */
export function readRunAdvice(
  deps: {
    config: Pick<Config, "team" | "costs" | "hosts" | "advice">;
    metrics: Pick<MetricsStore, "rollupsBetween">;
  },
  period: Period,
): RunAdvice {
  const rollups = deps.metrics.rollupsBetween(period.fromMs, period.toMs);
  const gpus = new Map<string, Set<number>>();
  for (const r of rollups) gpus.set(r.host, (gpus.get(r.host) ?? new Set()).add(r.index));
  const hours = rollups.map((r) => ({
    host: r.host,
    gpu: r.index,
    hourMs: r.hourMs,
    busyMinutes: r.busyMinutes,
    idleMinutes: r.idleMinutes,
    unknownMinutes: r.unknownMinutes,
    energyWh: r.energyWh,
  }));
  return runAdvice(
    hours,
    runPrices(deps.config, (host) => gpus.get(host)?.size ?? 1),
    {
      ...DEFAULT_RUN_ADVICE,
      spotDiscountPct: deps.config.advice.spot_discount_pct,
    },
  );
}
