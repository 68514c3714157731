import { createHash } from "node:crypto";
import { gpuHoursOf, hostHourUsages } from "../../checks/cost-hour-usage.ts";
import {
  cachedPriceOver,
  costOfHours,
  type HostCostBasis,
  type HostHourUsage,
  hostCostBasis,
} from "../../checks/cost-model.ts";
import { addDays, daysFromTo, localDayBounds, localDayOf } from "../../checks/local-day.ts";
import { type Tariff, tariffOf } from "../../checks/tariff-price.ts";
import type { Config } from "../../config/schema.ts";
import type { LedgerDay } from "../../domain/ledger-day.ts";
import type { GpuHourRollup } from "../../domain/metrics.ts";
import type { Clock } from "../../shared/clock.ts";
import type { LedgerStore } from "../../store/ledger-store.ts";
import type { MetricsStore } from "../../store/metrics-types.ts";

/** What the daily ledger is computed from and written to. */
export interface LedgerDeps {
  config: Pick<Config, "team" | "costs" | "hosts">;
  metrics: Pick<MetricsStore, "rollupsBetween" | "hosts">;
  ledger: LedgerStore;
  /** Every clock hour before this instant is rolled up; `null` before the first rollup. */
  rolledUpToMs(): number | null;
  clock: Clock;
  /**
   * Rolls up the clock hours completed since the last rollup, so that a report read between the
   * hourly rollups sees them (the bot's store); absent where the caller has already done it.
   */
  rollUp?(): void;
}

/** The complete local days the rollups cover: `null` when there is none yet. */
export function completeDays(deps: LedgerDeps): { first: string; last: string } | null {
  const zone = deps.config.team.timezone;
  const rolledUpToMs = deps.rolledUpToMs();
  const firstSeenMs = Math.min(...deps.metrics.hosts().map((host) => host.firstSeenMs));
  if (rolledUpToMs === null || !Number.isFinite(firstSeenMs)) return null;
  const first = localDayOf(firstSeenMs, zone);
  let last = localDayOf(rolledUpToMs, zone);
  if (localDayBounds(last, zone).endMs > rolledUpToMs) last = addDays(last, -1);
  return last < first ? null : { first, last };
}

/** Each host's cost basis and the digest stored with its rows (prices, tariff, zone). */
export function ledgerBases(config: LedgerDeps["config"]): {
  tariff: Tariff;
  basisOf(host: string): HostCostBasis;
  digestOf(host: string): string;
} {
  const zone = config.team.timezone;
  const tariff = tariffOf(config.costs.electricity, zone);
  const bases = new Map<string, { basis: HostCostBasis; digest: string }>();
  const entry = (host: string) => {
    let found = bases.get(host);
    if (found === undefined) {
      const basis = hostCostBasis(config.hosts[host], config.costs);
      const priced = basis.kind === "owned" ? { basis, tariff } : { basis };
      const digest = createHash("sha1")
        .update(JSON.stringify({ zone, currency: config.team.currency, ...priced }))
        .digest("hex")
        .slice(0, 12);
      found = { basis, digest };
      bases.set(host, found);
    }
    return found;
  };
  return { tariff, basisOf: (host) => entry(host).basis, digestOf: (host) => entry(host).digest };
}

/**
 * The ledger rows of one local day, from the hourly rollups: every host that had GPUs that day.
 * Reads one clock hour at a time (8,000 rows for 1,000 hosts × 8 GPUs, not a day's 192,000 at
 * once). Nothing is written.
 */
export function computeLedgerDay(deps: LedgerDeps, day: string): LedgerDay[] {
  const zone = deps.config.team.timezone;
  const { startMs, endMs } = localDayBounds(day, zone);
  const bases = ledgerBases(deps.config);
  const priceOver = cachedPriceOver(bases.tariff);
  const hosts = deps.metrics.hosts().filter((host) => host.firstSeenMs < endMs);
  const usagesByHost = new Map<string, HostHourUsage[]>(hosts.map((host) => [host.name, []]));
  for (let hourMs = startMs - (startMs % HOUR_MS); hourMs < endMs; hourMs += HOUR_MS) {
    const byHost = new Map<string, GpuHourRollup[]>();
    for (const row of deps.metrics.rollupsBetween(hourMs, hourMs + HOUR_MS)) {
      const rows = byHost.get(row.host);
      if (rows === undefined) byHost.set(row.host, [row]);
      else rows.push(row);
    }
    for (const host of hosts) {
      const usages = hostHourUsages({
        rollups: byHost.get(host.name) ?? [],
        gpus: host.gpus,
        fromMs: Math.max(hourMs, startMs),
        toMs: Math.min(hourMs + HOUR_MS, endMs),
      });
      usagesByHost.get(host.name)?.push(...usages);
    }
  }
  const computedAtMs = deps.clock.now();
  const rows: LedgerDay[] = [];
  for (const [host, usages] of usagesByHost) {
    if (usages.length === 0) continue;
    const cost = costOfHours(bases.basisOf(host), priceOver, usages);
    const gpuHours = gpuHoursOf(usages);
    rows.push({
      day,
      host,
      hours: (endMs - startMs) / HOUR_MS,
      onHours: cost.onHours,
      gpus: Math.max(...usages.map((usage) => usage.gpus)),
      busyGpuHours: gpuHours.busy,
      idleGpuHours: gpuHours.idle,
      unknownGpuHours: gpuHours.unknown,
      energyKWh: cost.energyKWh,
      cost: cost.total,
      idleCost: cost.idle,
      idleSaving: cost.idleStoppable,
      capital: cost.capital,
      upkeep: cost.upkeep,
      energyCost: cost.energyCost,
      rent: cost.rent,
      basis: bases.digestOf(host),
      computedAtMs,
    });
  }
  return rows;
}

/**
 * Brings the ledger up to date for the complete days in `[fromDay, toDay]` (default: all of them):
 * computes days without rows and recomputes days whose rows were computed with other prices, plus
 * the last `recentDays` complete days when asked. (A complete day's rollups are final: the rollup
 * watermark only moves forward.) Idempotent.
 * At most `maxDays` days per call (it blocks the event loop): call again while `complete` is false.
 */
export function updateLedger(
  deps: LedgerDeps,
  options: { fromDay?: string; toDay?: string; recentDays?: number; maxDays?: number } = {},
): { computed: string[]; complete: boolean } {
  const range = completeDays(deps);
  if (range === null) return { computed: [], complete: true };
  const fromDay =
    options.fromDay === undefined || options.fromDay < range.first ? range.first : options.fromDay;
  const toDay = options.toDay === undefined || options.toDay > range.last ? range.last : options.toDay;
  if (toDay < fromDay) return { computed: [], complete: true };
  const { digestOf } = ledgerBases(deps.config);
  const fresh = new Map<string, boolean>();
  for (const row of deps.ledger.bases(fromDay, toDay)) {
    fresh.set(row.day, (fresh.get(row.day) ?? true) && row.basis === digestOf(row.host));
  }
  const recentFrom = addDays(range.last, 1 - (options.recentDays ?? 0));
  const due = daysFromTo(fromDay, toDay).filter((day) => fresh.get(day) !== true || day >= recentFrom);
  const maxDays = options.maxDays ?? Number.POSITIVE_INFINITY;
  const computed = due.slice(0, maxDays);
  for (const day of computed) deps.ledger.replaceDay(day, computeLedgerDay(deps, day));
  return { computed, complete: computed.length === due.length };
}

const HOUR_MS = 3_600_000;
