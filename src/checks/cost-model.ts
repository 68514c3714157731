import { meanTariffPrice, type Tariff, tariffAt } from "./tariff-price.ts";

/** Hours in an average month (365.25 days / 12): the write-off period's unit. */
export const HOURS_PER_MONTH = (365.25 * 24) / 12;

/**
 * What one host costs, in the team currency:
 * - `rate`: a rental or cloud price per hour (power included); a cloud host is billed only while
 *   on, a rental (`rented: true`) every hour;
 * - `owned`: the purchase price written off straight-line over `lifetimeMonths`, plus upkeep as a
 *   share of that, every hour whether on or off; plus power × the tariff while on;
 * - `none`: no price configured; the cost is unknown (energy is still counted).
 * `upkeepOnPerHour` (`upkeep_per_hour_on`) is upkeep paid only while the host is on (staff time, a
 * licence per running hour): with the price of a cloud host and the power of an owned one, it is what
 * a stop saves; the write-off, the upkeep share and a rental run on whether the host is on or off.
 */
export type HostCostBasis =
  | { kind: "rate"; costPerHour: number; billedWhenOff: boolean; upkeepOnPerHour: number }
  | {
      kind: "owned";
      purchasePrice: number;
      lifetimeMonths: number;
      upkeepPct: number;
      /** `purchasePrice / (lifetimeMonths × HOURS_PER_MONTH)`. */
      capitalPerHour: number;
      /** `capitalPerHour × upkeepPct / 100`. */
      upkeepPerHour: number;
      upkeepOnPerHour: number;
      ratedWatts: number | null;
    }
  | { kind: "none"; ratedWatts: number | null };

/** A host's cost settings as the configuration spells them (`hosts.<name>`, `defaults`). */
export interface CostSettings {
  cost_per_hour?: number | undefined;
  rented?: boolean | undefined;
  purchase_price?: number | undefined;
  lifetime_months?: number | undefined;
  rated_watts?: number | undefined;
  upkeep_pct?: number | undefined;
  upkeep_per_hour_on?: number | undefined;
}

/** The configuration's `costs` defaults that a purchase price needs. */
export interface CostDefaults {
  upkeep_pct: number;
  lifetime_months: number;
}

/** The host's cost basis from its settings and the config's `costs` defaults. */
export function hostCostBasis(settings: CostSettings | undefined, costs: CostDefaults): HostCostBasis {
  const ratedWatts = settings?.rated_watts ?? null;
  const upkeepOnPerHour = settings?.upkeep_per_hour_on ?? 0;
  if (settings?.cost_per_hour !== undefined) {
    return {
      kind: "rate",
      costPerHour: settings.cost_per_hour,
      billedWhenOff: settings.rented === true,
      upkeepOnPerHour,
    };
  }
  if (settings?.purchase_price !== undefined) {
    const lifetimeMonths = settings.lifetime_months ?? costs.lifetime_months;
    const upkeepPct = settings.upkeep_pct ?? costs.upkeep_pct;
    const capitalPerHour = settings.purchase_price / (lifetimeMonths * HOURS_PER_MONTH);
    return {
      kind: "owned",
      purchasePrice: settings.purchase_price,
      lifetimeMonths,
      upkeepPct,
      capitalPerHour,
      upkeepPerHour: (capitalPerHour * upkeepPct) / 100,
      upkeepOnPerHour,
      ratedWatts,
    };
  }
  return { kind: "none", ratedWatts };
}

/** Rented and cloud hosts: the ones a team can stop paying for (do-not-renew candidates). */
export function isRentedOrCloud(basis: HostCostBasis): boolean {
  return basis.kind === "rate";
}

/**
 * What one host did in (part of) one clock hour: `[fromMs, toMs)` inside `[hourMs, hourMs + 1 h)`.
 * GPU-minutes add up to `gpus × (toMs − fromMs)` in minutes.
 */
export interface HostHourUsage {
  hourMs: number;
  fromMs: number;
  toMs: number;
  /** GPUs known on the host in that hour. */
  gpus: number;
  busyGpuMinutes: number;
  idleGpuMinutes: number;
  unknownGpuMinutes: number;
  /** Minutes the host was on: the most any of its GPUs had a reading. */
  onMinutes: number;
  /** Energy the GPUs' power readings add up to; `null` without any power reading. */
  energyWh: number | null;
}

/** One host's cost over some hours, in the team currency; `null` money when the basis is `none`. */
export interface CostTotals {
  /** Write-off of owned hardware. */
  capital: number;
  upkeep: number;
  /** Power × tariff (owned hosts; a rate includes power). */
  energyCost: number;
  /** Rental or cloud charges. */
  rent: number;
  total: number | null;
  /** The share of `total` for idle GPU-minutes: capacity unused. */
  idle: number | null;
  /** The part of `total` that stops when the host is off (cloud price, power, upkeep per hour on). */
  stoppable: number | null;
  /** The share of `stoppable` for idle GPU-minutes: what stopping the idle hours would have saved. */
  idleStoppable: number | null;
  /** From the readings, else rated watts × hours on; `null` when neither is known. */
  energyKWh: number | null;
  /** Hours of the span, hours on. */
  hours: number;
  onHours: number;
}

/** A mean-price lookup shared by many hosts over the same hours (the tariff walk is not free). */
export type PriceOver = (fromMs: number, toMs: number) => number;

/** {@link meanTariffPrice}, memoised per span. */
export function cachedPriceOver(tariff: Tariff): PriceOver {
  const cache = new Map<string, number>();
  return (fromMs, toMs) => {
    const key = `${fromMs}:${toMs}`;
    let price = cache.get(key);
    if (price === undefined) {
      price = meanTariffPrice(tariff, fromMs, toMs);
      cache.set(key, price);
    }
    return price;
  };
}

/** Energy of the hour in kWh: the readings, else rated watts × time on; `null` when neither is known. */
export function energyKWhOf(usage: HostHourUsage, ratedWatts: number | null): number | null {
  if (usage.energyWh !== null) return usage.energyWh / 1000;
  if (ratedWatts !== null) return (ratedWatts * usage.onMinutes) / 60 / 1000;
  return null;
}

/** The cost of the hours in `usages` (any order, any hosts' worth: they are simply added up). */
export function costOfHours(
  basis: HostCostBasis,
  priceOver: PriceOver,
  usages: readonly HostHourUsage[],
): CostTotals {
  const totals = emptyCostTotals(basis);
  for (const usage of usages) addHourCost(totals, basis, priceOver, usage);
  return totals;
}

/** Totals of no hours yet: 0, or `null` money when the basis is `none`. */
export function emptyCostTotals(basis: HostCostBasis): CostTotals {
  return resetCostTotals(
    {
      capital: 0,
      upkeep: 0,
      energyCost: 0,
      rent: 0,
      total: null,
      idle: null,
      stoppable: null,
      idleStoppable: null,
      energyKWh: null,
      hours: 0,
      onHours: 0,
    },
    basis,
  );
}

/** `totals` set back to {@link emptyCostTotals} (for a caller pricing millions of single hours). */
export function resetCostTotals(totals: CostTotals, basis: HostCostBasis): CostTotals {
  const money = basis.kind === "none" ? null : 0;
  totals.capital = 0;
  totals.upkeep = 0;
  totals.energyCost = 0;
  totals.rent = 0;
  totals.total = money;
  totals.idle = money;
  totals.stoppable = money;
  totals.idleStoppable = money;
  totals.energyKWh = null;
  totals.hours = 0;
  totals.onHours = 0;
  return totals;
}

/** Adds one hour of `usage` to `totals` ({@link costOfHours} is these additions, hour by hour). */
export function addHourCost(
  totals: CostTotals,
  basis: HostCostBasis,
  priceOver: PriceOver,
  usage: HostHourUsage,
): void {
  const spanHours = (usage.toMs - usage.fromMs) / HOUR_MS;
  const onHours = usage.onMinutes / 60;
  totals.hours += spanHours;
  totals.onHours += onHours;
  const ratedWatts = basis.kind === "rate" ? null : basis.ratedWatts;
  const kWh = energyKWhOf(usage, ratedWatts);
  if (kWh !== null) totals.energyKWh = (totals.energyKWh ?? 0) + kWh;
  let hourTotal = 0;
  let hourStoppable = 0;
  switch (basis.kind) {
    case "none":
      return;
    case "rate": {
      const rent = basis.costPerHour * (basis.billedWhenOff ? spanHours : onHours);
      const upkeepOn = basis.upkeepOnPerHour * onHours;
      totals.rent += rent;
      totals.upkeep += upkeepOn;
      hourTotal = rent + upkeepOn;
      hourStoppable = (basis.billedWhenOff ? 0 : rent) + upkeepOn;
      break;
    }
    case "owned": {
      const capital = basis.capitalPerHour * spanHours;
      const upkeepOn = basis.upkeepOnPerHour * onHours;
      const upkeep = basis.upkeepPerHour * spanHours + upkeepOn;
      const energyCost = kWh === null ? 0 : kWh * priceOver(usage.fromMs, usage.toMs);
      totals.capital += capital;
      totals.upkeep += upkeep;
      totals.energyCost += energyCost;
      hourTotal = capital + upkeep + energyCost;
      hourStoppable = energyCost + upkeepOn;
      break;
    }
    default:
      basis satisfies never;
  }
  const share = idleShare(usage, spanHours);
  totals.total = (totals.total ?? 0) + hourTotal;
  totals.idle = (totals.idle ?? 0) + hourTotal * share;
  totals.stoppable = (totals.stoppable ?? 0) + hourStoppable;
  totals.idleStoppable = (totals.idleStoppable ?? 0) + hourStoppable * share;
}

/**
 * {@link addHourCost} of one whole clock hour into {@link emptyCostTotals}, for pricing millions of
 * host-hours without an object each: the totals' `total` into `out[0]` and `stoppable` into `out[1]`
 * (NaN for `none`). `price` is the hour's mean price (`priceOver` of the hour), `energyWh` NaN
 * without a power reading. The same operations in the same order, so the same numbers to the bit.
 */
export function addClockHourCost(
  basis: HostCostBasis,
  price: number,
  onMinutes: number,
  energyWh: number,
  out: Float64Array,
): void {
  const onHours = onMinutes / 60;
  switch (basis.kind) {
    case "none":
      out[0] = Number.NaN;
      out[1] = Number.NaN;
      return;
    case "rate": {
      const rent = basis.costPerHour * (basis.billedWhenOff ? 1 : onHours);
      const upkeepOn = basis.upkeepOnPerHour * onHours;
      out[0] = 0 + (rent + upkeepOn);
      out[1] = 0 + ((basis.billedWhenOff ? 0 : rent) + upkeepOn);
      return;
    }
    case "owned": {
      const upkeepOn = basis.upkeepOnPerHour * onHours;
      const upkeep = basis.upkeepPerHour * 1 + upkeepOn;
      const kWh = !Number.isNaN(energyWh)
        ? energyWh / 1000
        : basis.ratedWatts !== null
          ? (basis.ratedWatts * onMinutes) / 60 / 1000
          : Number.NaN;
      const energyCost = Number.isNaN(kWh) ? 0 : kWh * price;
      out[0] = 0 + (basis.capitalPerHour * 1 + upkeep + energyCost);
      out[1] = 0 + (energyCost + upkeepOn);
      return;
    }
    default:
      basis satisfies never;
  }
}

/** The idle GPU-minutes' share of the hour's GPU-minutes (0 without GPUs). */
export function idleShare(usage: HostHourUsage, spanHours = (usage.toMs - usage.fromMs) / HOUR_MS): number {
  const gpuMinutes = usage.gpus * spanHours * 60;
  return gpuMinutes > 0 ? usage.idleGpuMinutes / gpuMinutes : 0;
}

/**
 * What an hour of the host running costs at `atMs` (rated power for owned hosts, none when
 * `rated_watts` is not set): the rate alerts multiply by idle time. `null` when no price is configured.
 */
export function hostHourCost(basis: HostCostBasis, tariff: Tariff, atMs: number): number | null {
  const split = hostHourSplit(basis, tariff, atMs);
  return split === null ? null : split.stoppablePerHour + split.fixedPerHour;
}

/** An hour of the host running, split by what a stop does to it. */
export interface HourCostSplit {
  /** Stops when the host is off: a cloud price, power × tariff (rated watts), upkeep per hour on. */
  stoppablePerHour: number;
  /** Runs on whether the host is on or off: the write-off, the upkeep share, a rental. */
  fixedPerHour: number;
}

/**
 * {@link hostHourCost} split into what a stop saves and what runs anyway, at `atMs`: "idle for 3 d:
 * €901 of capacity unused; stopping saves €1.95/h". An owned host without `rated_watts` saves only
 * its upkeep per hour on (its power is not known). `null` when no price is configured.
 */
export function hostHourSplit(basis: HostCostBasis, tariff: Tariff, atMs: number): HourCostSplit | null {
  switch (basis.kind) {
    case "none":
      return null;
    case "rate":
      return basis.billedWhenOff
        ? { stoppablePerHour: basis.upkeepOnPerHour, fixedPerHour: basis.costPerHour }
        : { stoppablePerHour: basis.costPerHour + basis.upkeepOnPerHour, fixedPerHour: 0 };
    case "owned": {
      const power =
        basis.ratedWatts === null ? 0 : (basis.ratedWatts / 1000) * tariffAt(tariff, atMs).pricePerKWh;
      return {
        stoppablePerHour: power + basis.upkeepOnPerHour,
        fixedPerHour: basis.capitalPerHour + basis.upkeepPerHour,
      };
    }
    default:
      return basis satisfies never;
  }
}

const HOUR_MS = 3_600_000;
