import type { HostHourUsage } from "../checks/cost-model.ts";
import { meanPct } from "../checks/reclaim.ts";
import { doNotRenew, type RenewalFlag } from "../checks/renewal.ts";
import {
  type ContainerGroupUsage,
  compareAdvice,
  type RightsizingAdvice,
  rightsize,
} from "../checks/rightsizing.ts";
import type { AuditEntry } from "../domain/audit-entry.ts";
import type { HostRecord } from "../domain/metrics.ts";
import { type Pause, paceSteps, type Steps } from "../shared/steps.ts";
import type { ClaimSpan, GpuPeriodTotals } from "../store/summary-store.ts";
import type { HourRows } from "./hour-rows.ts";
import { localDayStarts } from "./local-days.ts";
import {
  type Acc,
  addTotals,
  type ClaimedHour,
  compareNames,
  gpuIndexes,
  gpuKey,
  HOUR_MS,
  type HostAcc,
  newAcc,
} from "./summary-accumulators.ts";
import { gpuRows, hostRows, previousHostSums } from "./summary-host-rows.ts";
import { spanMinutes } from "./summary-hour-prices.ts";
import { type SummaryGrid, sumRowsSteps } from "./summary-row-sums.ts";

/**
 * The biweekly summary as numbers: per host and GPU, per person, stops and snoozes, containers,
 * reclaim and do-not-renew, and the trend against the previous period. Built by a pure function from
 * what the stores hold; the message, the CSV and the chart are renderings of it.
 */

export interface Period {
  fromMs: number;
  toMs: number;
}

/**
 * Prices, from the cost model. `null` means the price is not known (no cost configured). `usage` is
 * read during the call only: the summary fills one object again for each host-hour.
 */
export interface SummaryPricing {
  currency: string;
  /**
   * What the host cost over `usage` (one clock hour, or a whole period folded into one span for the
   * previous period's trend). Its idle share is `cost × idle GPU-minutes / GPU-minutes`, as in the ledger.
   */
  hostCost(host: string, usage: HostHourUsage): number | null;
  /**
   * What the host being off over `[fromMs, toMs)` saved: a cloud price stops, power is not drawn
   * (`meanPowerW`: the host's measured mean draw while on, when known).
   */
  offSaving(host: string, fromMs: number, toMs: number, meanPowerW: number | null): number | null;
  /**
   * The part of {@link hostCost} that stops when the host is off (a cloud price, power, upkeep per
   * hour on); none: the summary does not say what stopping the idle hours would have saved.
   */
  hostSaving?(host: string, usage: HostHourUsage): number | null;
  /** {@link hostCost} and {@link hostSaving} of the same hour in one call (the summary prices every host-hour). */
  hostCostAndSaving?(host: string, usage: HostHourUsage): { cost: number | null; saving: number | null };
  /**
   * {@link hostCostAndSaving} of whole clock hours of `hosts` (by place), without an object per
   * host-hour: the summary prices 3.4 M of them at 80,000 GPUs. Absent: one call per host-hour.
   */
  clockHours?(hosts: readonly string[]): ClockHourPrices;
}

/**
 * Whole clock hours of some hosts (by place), priced as {@link SummaryPricing.hostCostAndSaving}
 * prices them: the same numbers, NaN where that says `null`.
 */
export interface ClockHourPrices {
  /** Starts the clock hour at `hourMs` (its tariff is looked up once for every host). */
  hour(hourMs: number): void;
  /**
   * Host place `h`'s cost and saving of the current hour into `out[0]` and `out[1]`: on for
   * `onMinutes` (≤ 60), its GPUs' energy `energyWh` (NaN: no power reading).
   */
  price(h: number, onMinutes: number, energyWh: number, out: Float64Array): void;
}

/** A source of the container section that did not answer (its cluster, `null` with one cluster). */
export interface ContainerFailure {
  cluster: string | null;
  message: string;
}

/**
 * Container requests and usage from Prometheus, or why there are none. With several clusters, `ok`
 * holds the groups of the engines that answered and `failures` the clusters that did not.
 */
export type ContainerReport =
  | { status: "ok"; groups: readonly ContainerGroupUsage[]; failures?: readonly ContainerFailure[] }
  | { status: "off" }
  | { status: "failed"; message: string };

/** A host's open reclaim case, for the summary. */
export interface ReclaimListing {
  host: string;
  state: "pending" | "due";
  sinceMs: number;
  /** Pending: when observation ends; due: when the decision was asked for. */
  untilMs: number;
  windowMeanPct: number | null;
}

export interface SummaryInput {
  period: Period;
  /**
   * Hours before this are rolled up (`min(period end, rollup watermark)`): GPU time after it is not
   * counted as unknown, it is simply not in yet.
   */
  dataUntilMs: number;
  previous: Period;
  timezone: string;
  hosts: readonly HostRecord[];
  /** The current period's hourly rollups, by hour (`hourRowsOf(rollupsBetween(…))`, or the store's column read). */
  rollups: HourRows;
  /**
   * Per-GPU totals of the previous period (`rollupTotals`, or the store's lean `gpuTotals`), or what
   * the model takes of them ({@link previousSums}: the 80,000 totals need not stay in the heap while
   * the period's hours are read).
   */
  previousTotals: readonly GpuPeriodTotals[] | PreviousSums;
  /** Claims that overlap the period. */
  claims: readonly ClaimSpan[];
  /** Audit entries of the period: `stop` and `keep` are used. */
  audit: readonly AuditEntry[];
  pricing: SummaryPricing;
  /** Rented or cloud: has a `cost_per_hour`. */
  paidByTheHour(host: string): boolean;
  containers: ContainerReport;
  reclaim: readonly ReclaimListing[];
  /** Rented or cloud hosts below this in both periods are flagged: do not renew. */
  renewalBelowPct: number;
}

export interface GpuRow {
  host: string;
  index: number;
  model: string | null;
  utilMeanPct: number | null;
  busyHours: number;
  idleHours: number;
  unknownHours: number;
  /** `null` when some idle hour had no price. */
  idleCost: number | null;
}

export interface HostRow {
  host: string;
  gpus: number;
  utilMeanPct: number | null;
  previousUtilMeanPct: number | null;
  busyGpuHours: number;
  idleGpuHours: number;
  unknownGpuHours: number;
  idleCost: number | null;
  previousIdleGpuHours: number;
  /** Mean utilisation per day column (see {@link SummaryModel.dayStartsMs}); `null` without readings. */
  dailyUtilPct: (number | null)[];
  /** Idle GPU-hours per day column. */
  dailyIdleGpuHours: number[];
  /** Idle cost per day column, of the idle hours that have a price (all of it when `idleCost` is not null). */
  dailyIdleCost: number[];
  paidByTheHour: boolean;
}

export interface PersonRow {
  user: string;
  claims: number;
  claimedGpuHours: number;
  busyGpuHours: number;
  idleGpuHours: number;
  /** Idle cost of the claimed GPUs while claimed; `null` when some idle hour had no price. */
  idleCost: number | null;
  stops: number;
  savedCost: number;
  keeps: number;
}

export interface StopRow {
  host: string;
  actor: string;
  atMs: number;
  forced: boolean;
  /** Start of the first hour after the stop with busy GPU time; `null`: not used again in the period. */
  nextUseMs: number | null;
  /** Hours from the stop to the next use, capped at the period end. */
  offHours: number;
  savedCost: number | null;
}

export interface KeepRow {
  host: string;
  actor: string;
  atMs: number;
  untilMs: number;
  /** Hours kept within the period. */
  keptHours: number;
}

export interface FleetTotals {
  hosts: number;
  gpus: number;
  utilMeanPct: number | null;
  busyGpuHours: number;
  idleGpuHours: number;
  unknownGpuHours: number;
  /** Sum over the priced GPUs. */
  idleCost: number;
  /** The part of `idleCost` stopping the idle hours would have saved; `null`/none: not priced that way. */
  idleSaving?: number | null;
  /** GPUs without a price for some hour with readings (their idle cost then is left out). */
  unpricedGpus: number;
}

/** How much of the period the summary can speak for. */
export interface DataCoverage {
  /** The first instant with a GPU known to the bot (the period's start at the latest). */
  fromMs: number;
  /** Rolled-up data ends here (the period's end at the latest). */
  untilMs: number;
  /** Share of the GPU time in `[fromMs, untilMs)` that has readings, 0–1; `null` without GPUs. */
  readShare: number | null;
}

export interface SummaryModel {
  period: Period;
  previous: Period;
  timezone: string;
  currency: string;
  /** Start of each day column, `dayStartsMs.length` = columns; the last column ends at `period.toMs`. */
  dayStartsMs: number[];
  fleet: FleetTotals;
  previousFleet: FleetTotals;
  coverage: DataCoverage;
  /** Highest idle cost first, then the rest (no idle cost, or no price) by idle GPU-hours. */
  hosts: HostRow[];
  /** By host then index. */
  gpus: GpuRow[];
  /** Highest claim idle cost first. */
  people: PersonRow[];
  stops: StopRow[];
  keeps: KeepRow[];
  savedCost: number;
  containers:
    | { status: "ok"; advice: RightsizingAdvice[]; failures?: readonly ContainerFailure[] }
    | { status: "off" }
    | { status: "failed"; message: string };
  reclaim: ReclaimListing[];
  renewalBelowPct: number;
  doNotRenew: RenewalFlag[];
  /** GPUs with implausible readings in the period: their hours count busy above, flagged here. */
  suspect?: SuspectSpan[];
}

import type { SuspectSpan } from "./suspect-spans.ts";

/** What the model takes of the previous period's per-GPU totals: each host's sums and the fleet's totals. */
export interface PreviousSums {
  hosts: Map<string, Acc>;
  fleet: FleetTotals;
}

/** {@link PreviousSums} of the previous period's per-GPU `totals`, priced by `pricing` as the model prices them. */
export function previousSums(
  totals: readonly GpuPeriodTotals[],
  previous: Period,
  pricing: SummaryPricing,
): PreviousSums {
  const hosts = previousHostSums(totals);
  return { hosts, fleet: previousTotalsOf(totals, previous, pricing, hosts) };
}

/**
 * The summary model of `input` ({@link summaryModelSteps}) awaiting `pause()` between the rollups' hours, so that other work (the
 * container section's queries, `containers`) goes on while it computes; their answer is awaited last.
 */
export async function buildSummaryModelPaced(
  input: Omit<SummaryInput, "containers">,
  containers: Promise<ContainerReport>,
  pause: Pause,
): Promise<SummaryModel> {
  const model = await paceSteps(summaryModelSteps({ ...input, containers: { status: "off" } }), pause);
  return { ...model, containers: containerReport(await containers) };
}

/**
 * The summary model of `input`, a pure function of what the stores hold (see {@link SummaryInput}), as
 * steps: one per hour of the rollups.
 */
export function* summaryModelSteps(input: SummaryInput): Steps<SummaryModel> {
  const { period, pricing } = input;
  const grid = summaryGrid(period, input.timezone);
  const records = new Map(input.hosts.map((host) => [host.name, host]));
  const dataUntilMs = Math.min(input.dataUntilMs, period.toMs);
  const previous =
    "fleet" in input.previousTotals
      ? input.previousTotals
      : previousSums(input.previousTotals, input.previous, pricing);
  const { hostAcc, gpuAcc, claimedHours } = yield* sumRowsSteps(input, records, grid, dataUntilMs);
  spanMinutes(input, records, hostAcc.values(), dataUntilMs);

  const previousHost = previous.hosts;
  const hosts = hostRows(input, grid.dayStartsMs, records, hostAcc, previousHost);
  const stops = stopRows(input, hostAcc, grid.firstHourMs);
  const keeps = keepRows(input);
  const fleet: FleetTotals = {
    ...fleetTotals([...hostAcc.values()], [...gpuAcc.values()]),
    idleSaving:
      pricing.hostSaving === undefined
        ? null
        : [...hostAcc.values()].reduce((sum, host) => sum + host.idleSaving, 0),
  };
  return {
    period,
    previous: input.previous,
    timezone: input.timezone,
    currency: pricing.currency,
    dayStartsMs: grid.dayStartsMs,
    fleet,
    previousFleet: previous.fleet,
    coverage: coverageOf(input, records, fleet, dataUntilMs),
    hosts,
    gpus: gpuRows(gpuAcc.values(), records),
    people: personRows(input, records, claimedHours, stops, keeps),
    stops,
    keeps,
    savedCost: stops.reduce((sum, stop) => sum + (stop.savedCost ?? 0), 0),
    containers: containerReport(input.containers),
    reclaim: [...input.reclaim].sort((a, b) => a.sinceMs - b.sinceMs || compareNames(a.host, b.host)),
    renewalBelowPct: input.renewalBelowPct,
    doNotRenew: doNotRenew(
      hosts.map((row) => ({
        host: row.host,
        paidByTheHour: row.paidByTheHour,
        currentUtilPct: row.utilMeanPct,
        previousUtilPct: row.previousUtilMeanPct,
      })),
      input.renewalBelowPct,
    ),
  };
}

function summaryGrid(period: Period, timezone: string): SummaryGrid {
  const dayStartsMs = localDayStarts(period.fromMs, period.toMs, timezone);
  const firstHourMs = Math.floor(period.fromMs / HOUR_MS) * HOUR_MS;
  return {
    dayStartsMs,
    columnEnds: [...dayStartsMs.slice(1), period.toMs],
    firstHourMs,
    hourSlots: Math.max(0, Math.ceil((period.toMs - firstHourMs) / HOUR_MS)),
  };
}

function containerReport(containers: SummaryInput["containers"]): SummaryModel["containers"] {
  if (containers.status !== "ok") return containers;
  const advice = containers.groups.map((group) => rightsize(group)).sort(compareAdvice);
  const failures = containers.failures ?? [];
  return failures.length === 0 ? { status: "ok", advice } : { status: "ok", advice, failures };
}

function stopRows(input: SummaryInput, hostAcc: Map<string, HostAcc>, firstHourMs: number): StopRow[] {
  const { period, pricing } = input;
  return input.audit
    .filter((entry) => entry.action === "stop" && !entry.dryRun && entry.host !== null)
    .filter((entry) => entry.atMs >= period.fromMs && entry.atMs < period.toMs)
    .sort((a, b) => a.atMs - b.atMs || a.id - b.id)
    .map((entry) => {
      const host = entry.host!;
      const acc = hostAcc.get(host);
      let nextUseMs: number | null = null;
      if (acc !== undefined) {
        const after = Math.floor((entry.atMs - firstHourMs) / HOUR_MS) + 1;
        for (let slot = Math.max(0, after); slot < acc.busyHours.length; slot++) {
          if (acc.busyHours[slot] === 1) {
            nextUseMs = Math.min(period.toMs, firstHourMs + slot * HOUR_MS);
            break;
          }
        }
      }
      const endMs = nextUseMs ?? period.toMs;
      return {
        host,
        actor: entry.actor,
        atMs: entry.atMs,
        forced: entry.forced,
        nextUseMs,
        offHours: (endMs - entry.atMs) / HOUR_MS,
        savedCost: pricing.offSaving(host, entry.atMs, endMs, acc === undefined ? null : meanPowerW(acc)),
      };
    });
}

/** The host's mean power while on, from its energy readings: Σ energy / Σ hours on. */
function meanPowerW(acc: HostAcc): number | null {
  return acc.energyOnHours > 0 ? acc.energyWh / acc.energyOnHours : null;
}

function keepRows(input: SummaryInput): KeepRow[] {
  const { period } = input;
  return input.audit
    .filter((entry) => entry.action === "keep" && entry.host !== null)
    .filter((entry) => entry.atMs >= period.fromMs && entry.atMs < period.toMs)
    .sort((a, b) => a.atMs - b.atMs || a.id - b.id)
    .map((entry) => {
      const untilMs = typeof entry.detail.untilMs === "number" ? entry.detail.untilMs : entry.atMs;
      return {
        host: entry.host!,
        actor: entry.actor,
        atMs: entry.atMs,
        untilMs,
        keptHours: Math.max(0, Math.min(untilMs, period.toMs) - entry.atMs) / HOUR_MS,
      };
    });
}

function personRows(
  input: SummaryInput,
  records: Map<string, HostRecord>,
  claimedHours: Map<string, Map<number, ClaimedHour>>,
  stops: readonly StopRow[],
  keeps: readonly KeepRow[],
): PersonRow[] {
  const { period } = input;
  const people = new Map<string, PersonRow & { unpriced: boolean }>();
  const person = (user: string) => {
    let row = people.get(user);
    if (row === undefined) {
      row = {
        user,
        claims: 0,
        claimedGpuHours: 0,
        busyGpuHours: 0,
        idleGpuHours: 0,
        idleCost: 0,
        stops: 0,
        savedCost: 0,
        keeps: 0,
        unpriced: false,
      };
      people.set(user, row);
    }
    return row;
  };
  for (const claim of input.claims) {
    const endMs = Math.min(claim.untilMs, claim.releasedAtMs ?? Number.POSITIVE_INFINITY, period.toMs);
    const startMs = Math.max(claim.fromMs, period.fromMs);
    if (endMs <= startMs) continue;
    const row = person(claim.user);
    row.claims++;
    const indexes = claim.gpuIndex === null ? gpuIndexes(records.get(claim.host)) : [claim.gpuIndex];
    row.claimedGpuHours += (indexes.length * (endMs - startMs)) / HOUR_MS;
    for (const index of indexes) {
      const hours = claimedHours.get(gpuKey(claim.host, index));
      if (hours === undefined) continue;
      for (let hourMs = Math.floor(startMs / HOUR_MS) * HOUR_MS; hourMs < endMs; hourMs += HOUR_MS) {
        const hour = hours.get(hourMs);
        if (hour === undefined) continue;
        const share = (Math.min(endMs, hourMs + HOUR_MS) - Math.max(startMs, hourMs)) / HOUR_MS;
        row.busyGpuHours += (share * hour.busyMinutes) / 60;
        const idleMinutes = share * hour.idleMinutes;
        row.idleGpuHours += idleMinutes / 60;
        if (idleMinutes > 0) {
          if (Number.isNaN(hour.idleMinuteCost)) row.unpriced = true;
          else row.idleCost! += idleMinutes * hour.idleMinuteCost;
        }
      }
    }
  }
  for (const stop of stops) {
    const row = person(stop.actor);
    row.stops++;
    row.savedCost += stop.savedCost ?? 0;
  }
  for (const keep of keeps) person(keep.actor).keeps++;
  return [...people.values()]
    .map(({ unpriced, ...row }) => ({ ...row, idleCost: unpriced ? null : row.idleCost }))
    .sort(
      (a, b) =>
        (b.idleCost ?? -1) - (a.idleCost ?? -1) ||
        b.idleGpuHours - a.idleGpuHours ||
        compareNames(a.user, b.user),
    );
}

function fleetTotals(hosts: readonly Acc[], gpus: readonly Acc[]): FleetTotals {
  const all = newAcc();
  for (const acc of hosts) {
    all.utilPctMinutes += acc.utilPctMinutes;
    all.knownMinutes += acc.knownMinutes;
    all.busy += acc.busy;
    all.idle += acc.idle;
    all.unknown += acc.unknown;
  }
  let idleCost = 0;
  let unpricedGpus = 0;
  for (const acc of gpus) {
    if (acc.unpriced) unpricedGpus++;
    else idleCost += acc.idleCost;
  }
  return {
    hosts: hosts.length,
    gpus: gpus.length,
    utilMeanPct: meanPct(all),
    busyGpuHours: all.busy / 60,
    idleGpuHours: all.idle / 60,
    unknownGpuHours: all.unknown / 60,
    idleCost,
    unpricedGpus,
  };
}

/**
 * The previous period from per-GPU totals, each host priced as one span over the whole period (its
 * hours, GPU-minutes and energy summed): the same rule as the hourly cost, close enough for a trend.
 */
function previousTotalsOf(
  previousTotals: readonly GpuPeriodTotals[],
  previous: Period,
  pricing: SummaryPricing,
  previousHost: Map<string, Acc>,
): FleetTotals {
  const spans = new Map<
    string,
    { gpus: number; on: number; energy: number | null; totals: GpuPeriodTotals[] }
  >();
  for (const totals of previousTotals) {
    const span = spans.get(totals.host) ?? { gpus: 0, on: 0, energy: null, totals: [] };
    span.gpus++;
    span.on = Math.max(span.on, totals.busyMinutes + totals.idleMinutes);
    if (totals.energyWh !== null) span.energy = (span.energy ?? 0) + totals.energyWh;
    span.totals.push(totals);
    spans.set(totals.host, span);
  }
  const spanMinutes = (previous.toMs - previous.fromMs) / 60_000;
  const gpus: Acc[] = [];
  for (const [host, span] of spans) {
    const busy = span.totals.reduce((sum, t) => sum + t.busyMinutes, 0);
    const idle = span.totals.reduce((sum, t) => sum + t.idleMinutes, 0);
    const cost = pricing.hostCost(host, {
      hourMs: previous.fromMs,
      fromMs: previous.fromMs,
      toMs: previous.toMs,
      gpus: span.gpus,
      busyGpuMinutes: busy,
      idleGpuMinutes: idle,
      unknownGpuMinutes: Math.max(0, span.gpus * spanMinutes - busy - idle),
      onMinutes: Math.min(spanMinutes, span.on),
      energyWh: span.energy,
    });
    for (const totals of span.totals) {
      const acc = newAcc();
      addTotals(acc, totals);
      if (totals.idleMinutes > 0) {
        if (cost === null) acc.unpriced = true;
        else acc.idleCost = (cost * totals.idleMinutes) / (span.gpus * spanMinutes);
      }
      gpus.push(acc);
    }
  }
  return fleetTotals([...previousHost.values()], gpus);
}

/** Minutes of `[fromMs, toMs)` after the GPU was first seen (whole period when it is not on record). */
function coverageOf(
  input: SummaryInput,
  records: ReadonlyMap<string, HostRecord>,
  fleet: FleetTotals,
  dataUntilMs: number,
): DataCoverage {
  const { period } = input;
  let firstSeen = Number.POSITIVE_INFINITY;
  for (const record of records.values())
    for (const gpu of record.gpus) firstSeen = Math.min(firstSeen, gpu.firstSeenMs);
  const fromMs = Math.min(Math.max(period.fromMs, firstSeen), dataUntilMs);
  const expected = fleet.busyGpuHours + fleet.idleGpuHours + fleet.unknownGpuHours;
  return {
    fromMs,
    untilMs: Math.max(fromMs, dataUntilMs),
    readShare: expected > 0 ? (fleet.busyGpuHours + fleet.idleGpuHours) / expected : null,
  };
}
