import {
  addClockHourCost,
  addHourCost,
  type CostTotals,
  costOfHours,
  emptyCostTotals,
  type HostCostBasis,
  hostCostBasis,
  type PriceOver,
  resetCostTotals,
} from "../../checks/cost-model.ts";
import { meanTariffPrice, priceAtMinute, type Tariff, tariffOf } from "../../checks/tariff-price.ts";
import type { Config } from "../../config/schema.ts";
import type { ClockHourPrices, SummaryPricing } from "../../reports/summary-model.ts";
import { utcOffsetMinutes } from "../../shared/time.ts";

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

/**
 * The summary's prices from the cost model (the ledger's rules): a host's cost over a span is
 * `costOfHours`; being off saves a cloud price (not a rental's, billed on or off), the power an
 * owned host would have drawn (its measured mean, else `rated_watts`) at the tariff, and the upkeep
 * paid per hour on (`upkeep_per_hour_on`): what a stop saves, never the write-off.
 */
export function summaryPricing(config: Pick<Config, "team" | "costs" | "hosts">): SummaryPricing {
  const priceOver = fastPriceOver(tariffOf(config.costs.electricity, config.team.timezone));
  const bases = new Map<string, HostCostBasis>();
  const basisOf = (host: string) => {
    let basis = bases.get(host);
    if (basis === undefined) {
      basis = hostCostBasis(config.hosts[host], config.costs);
      bases.set(host, basis);
    }
    return basis;
  };
  const scratch: CostTotals = emptyCostTotals({ kind: "none", ratedWatts: null });
  return {
    currency: config.team.currency,
    hostCost: (host, usage) => costOfHours(basisOf(host), priceOver, [usage]).total,
    hostSaving: (host, usage) => costOfHours(basisOf(host), priceOver, [usage]).stoppable,
    hostCostAndSaving(host, usage) {
      // NOTE: one totals object for every call (the summary prices millions of host-hours): costOfHours of one hour.
      const basis = basisOf(host);
      const totals = resetCostTotals(scratch, basis);
      addHourCost(totals, basis, priceOver, usage);
      return { cost: totals.total, saving: totals.stoppable };
    },
    clockHours(hosts) {
      const hostBases = hosts.map(basisOf);
      let price = 0;
      return {
        hour(hourMs) {
          price = priceOver(hourMs, hourMs + HOUR_MS);
        },
        price(h, onMinutes, energyWh, out) {
          addClockHourCost(hostBases[h]!, price, onMinutes, energyWh, out);
        },
      } satisfies ClockHourPrices;
    },
    offSaving(host, fromMs, toMs, meanPowerW) {
      const basis = basisOf(host);
      const hours = Math.max(0, toMs - fromMs) / HOUR_MS;
      switch (basis.kind) {
        case "none":
          return null;
        case "rate":
          return ((basis.billedWhenOff ? 0 : basis.costPerHour) + basis.upkeepOnPerHour) * hours;
        case "owned": {
          const watts = meanPowerW ?? basis.ratedWatts;
          if (watts === null) return null;
          const power = hours === 0 ? 0 : (watts / 1000) * hours * priceOver(fromMs, toMs);
          return power + basis.upkeepOnPerHour * hours;
        }
        default:
          return basis satisfies never;
      }
    },
  };
}

/**
 * {@link meanTariffPrice} for the summary's thousands of host-hours: the zone's offset comes from
 * {@link utcOffsetMinutes} (cached; dayjs' `tz()` costs ~0.4 ms a call here), and each hour is priced
 * minute by minute with {@link priceAtMinute} (windows are whole minutes, so this is exact). An hour
 * in which the offset changes (a DST switch) is left to `meanTariffPrice`. Memoised per span (a clock
 * hour by its start, without building a key).
 */
export function fastPriceOver(tariff: Tariff): PriceOver {
  const cache = new Map<string, number>();
  const clockHours = new Map<number, number>();
  const offsetAt = (atMs: number) => utcOffsetMinutes(atMs, tariff.timezone);
  return (fromMs, toMs) => {
    if (tariff.windows.length === 0 || toMs <= fromMs) return tariff.pricePerKWh;
    const clockHour = toMs - fromMs === HOUR_MS && fromMs % HOUR_MS === 0;
    const known = clockHour ? clockHours.get(fromMs) : cache.get(`${fromMs}:${toMs}`);
    if (known !== undefined) return known;
    let weighted = 0;
    for (let hourMs = Math.floor(fromMs / HOUR_MS) * HOUR_MS; hourMs < toMs; hourMs += HOUR_MS) {
      const startMs = Math.max(fromMs, hourMs);
      const endMs = Math.min(toMs, hourMs + HOUR_MS);
      const offset = offsetAt(hourMs);
      if (offset !== offsetAt(hourMs + HOUR_MS - 1)) {
        weighted += meanTariffPrice(tariff, startMs, endMs) * (endMs - startMs);
        continue;
      }
      for (let atMs = startMs; atMs < endMs; ) {
        const minute = Math.floor(atMs / MINUTE_MS);
        const nextMs = Math.min(endMs, (minute + 1) * MINUTE_MS);
        const local = (((minute + offset) % 1440) + 1440) % 1440;
        weighted += priceAtMinute(tariff, local).pricePerKWh * (nextMs - atMs);
        atMs = nextMs;
      }
    }
    const price = weighted / (toMs - fromMs);
    if (clockHour) clockHours.set(fromMs, price);
    else cache.set(`${fromMs}:${toMs}`, price);
    return price;
  };
}
