import { cachedPriceOver, costOfHours, type HostCostBasis, hostCostBasis } from "../checks/cost-model.ts";
import { tariffOf } from "../checks/tariff-price.ts";
import type { Config } from "../config/schema.ts";
import type { SummaryPricing } from "../reports/summary-model.ts";

const HOUR_MS = 3_600_000;

/**
 * The summary's prices from the cost model (the ledger's rules): a host's cost over a span is
 * `costOfHours`; being off saves a cloud price (not a rental's, billed on or off) and the power an
 * owned host would have drawn (its measured mean, else `rated_watts`) at the tariff.
 */
export function summaryPricing(config: Pick<Config, "team" | "costs" | "hosts">): SummaryPricing {
  const priceOver = cachedPriceOver(tariffOf(config.costs.electricity, config.team.timezone));
  const bases = new Map<string, HostCostBasis>();
  const basisOf = (host: string) => {
    let basis = bases.get(host);
    if (basis === undefined) {
      basis = hostCostBasis(config.hosts[host], config.costs);
      bases.set(host, basis);
    }
    return basis;
  };
  return {
    currency: config.team.currency,
    hostCost: (host, usage) => costOfHours(basisOf(host), priceOver, [usage]).total,
    offSaving(host, fromMs, toMs, meanPowerW) {
      const basis = basisOf(host);
      const hours = Math.max(0, toMs - fromMs) / HOUR_MS;
      switch (basis.kind) {
        case "none":
          return null;
        case "rate":
          return basis.billedWhenOff ? 0 : basis.costPerHour * hours;
        case "owned": {
          const watts = meanPowerW ?? basis.ratedWatts;
          if (watts === null) return null;
          return hours === 0 ? 0 : (watts / 1000) * hours * priceOver(fromMs, toMs);
        }
        default:
          return basis satisfies never;
      }
    },
  };
}
