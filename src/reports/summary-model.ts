import type { HostHourUsage } from "../checks/cost-model.ts";
import { meanPct, type UtilMinutes } from "../checks/reclaim.ts";
import { doNotRenew, type RenewalFlag } from "../checks/renewal.ts";
import {
  type ContainerGroupUsage,
  compareAdvice,
  type RightsizingAdvice,
  rightsize,
} from "../checks/rightsizing.ts";
import type { AuditEntry } from "../domain/audit-entry.ts";
import type { HostRecord } from "../domain/metrics.ts";
import type { ClaimSpan, GpuPeriodTotals } from "../store/summary-store.ts";
import type { HourRows } from "./hour-rows.ts";
import { localDayStarts } from "./local-days.ts";

/**
 * The biweekly summary as numbers: per host and GPU, per person, stops and snoozes, containers,
 * reclaim and do-not-renew, and the trend against the previous period. Built by a pure function from
 * what the stores hold; the message, the CSV and the chart are renderings of it.
 */

export interface Period {
  fromMs: number;
  toMs: number;
}

/** Prices, from the cost model. `null` means the price is not known (no cost configured). */
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
}

/** Container requests and usage from Prometheus, or why there are none. */
export type ContainerReport =
  | { status: "ok"; groups: readonly ContainerGroupUsage[] }
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
  /** Per-GPU totals of the previous period (`rollupTotals`, or the store's lean `gpuTotals`). */
  previousTotals: readonly GpuPeriodTotals[];
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
    | { status: "ok"; advice: RightsizingAdvice[] }
    | { status: "off" }
    | { status: "failed"; message: string };
  reclaim: ReclaimListing[];
  renewalBelowPct: number;
  doNotRenew: RenewalFlag[];
  /** GPUs with implausible readings in the period: their hours count busy above, flagged here. */
  suspect?: SuspectSpan[];
}

import type { SuspectSpan } from "./suspect-spans.ts";

const HOUR_MS = 3_600_000;

/** One claimed GPU's hour, for the claim's busy and idle time. */
interface ClaimedHour {
  busyMinutes: number;
  idleMinutes: number;
  /** NaN without a price. */
  idleMinuteCost: number;
}

interface Acc extends UtilMinutes {
  busy: number;
  idle: number;
  unknown: number;
  idleCost: number;
  unpriced: boolean;
}

class GpuAcc implements Acc {
  utilPctMinutes = 0;
  knownMinutes = 0;
  spanMinutes = 0;
  busy = 0;
  idle = 0;
  unknown = 0;
  idleCost = 0;
  unpriced = false;
  /** Whether some claim covers this GPU. */
  claimed = false;
  hostAcc: HostAcc | null = null;

  constructor(
    readonly host: string,
    readonly index: number,
  ) {}
}

/** A host's sums, per day column and per clock hour of the period. */
class HostAcc extends GpuAcc {
  readonly gpus: GpuAcc[] = [];
  readonly dayUtil: Float64Array;
  readonly dayKnown: Float64Array;
  /** Idle GPU-minutes and their cost (priced minutes only) per day column. */
  readonly dayIdle: Float64Array;
  readonly dayIdleCost: Float64Array;
  readonly hourBusy: Float64Array;
  readonly hourIdle: Float64Array;
  /** The most minutes any GPU had a reading: minutes the host was on. */
  readonly hourOn: Float64Array;
  readonly hourEnergy: Float64Array;
  readonly hourHasEnergy: Uint8Array;
  readonly hourRows: Uint16Array;
  /** Cost of one idle GPU-minute per hour; NaN without a price. */
  readonly idleMinuteCost: Float64Array;

  constructor(
    readonly name: string,
    days: number,
    hours: number,
  ) {
    super(name, -1);
    this.dayUtil = new Float64Array(days);
    this.dayKnown = new Float64Array(days);
    this.dayIdle = new Float64Array(days);
    this.dayIdleCost = new Float64Array(days);
    this.hourBusy = new Float64Array(hours);
    this.hourIdle = new Float64Array(hours);
    this.hourOn = new Float64Array(hours);
    this.hourEnergy = new Float64Array(hours);
    this.hourHasEnergy = new Uint8Array(hours);
    this.hourRows = new Uint16Array(hours);
    this.idleMinuteCost = new Float64Array(hours).fill(Number.NaN);
  }

  dailyMeans(): (number | null)[] {
    return Array.from(this.dayUtil, (util, i) => (this.dayKnown[i]! > 0 ? util / this.dayKnown[i]! : null));
  }
}

const newAcc = (): Acc => ({
  utilPctMinutes: 0,
  knownMinutes: 0,
  spanMinutes: 0,
  busy: 0,
  idle: 0,
  unknown: 0,
  idleCost: 0,
  unpriced: false,
});

/** Each host's idle cost per day column, from the rows' idle minutes and their hour's price. */
function addDailyIdleCost(
  rows: HourRows,
  rowGpus: readonly GpuAcc[],
  rowSlot: Int32Array,
  rowColumn: Uint16Array,
): void {
  for (let i = 0; i < rows.length; i++) {
    const idle = rows.idleMinutes[i]!;
    const slot = rowSlot[i]!;
    if (idle <= 0 || slot < 0) continue;
    const host = rowGpus[rows.gpu[i]!]!.hostAcc!;
    const idleMinuteCost = host.idleMinuteCost[slot]!;
    if (Number.isNaN(idleMinuteCost)) continue;
    const day = rowColumn[i]!;
    host.dayIdleCost[day] = host.dayIdleCost[day]! + idle * idleMinuteCost;
  }
}

export function buildSummaryModel(input: SummaryInput): SummaryModel {
  const { period, pricing } = input;
  const dayStartsMs = localDayStarts(period.fromMs, period.toMs, input.timezone);
  const columnEnds = [...dayStartsMs.slice(1), period.toMs];
  const records = new Map(input.hosts.map((host) => [host.name, host]));
  const firstHourMs = Math.floor(period.fromMs / HOUR_MS) * HOUR_MS;
  const hourSlots = Math.max(0, Math.ceil((period.toMs - firstHourMs) / HOUR_MS));

  const claimedGpus = new Set<string>();
  for (const claim of input.claims) {
    const indexes = claim.gpuIndex === null ? gpuIndexes(records.get(claim.host)) : [claim.gpuIndex];
    for (const index of indexes) claimedGpus.add(gpuKey(claim.host, index));
  }

  const hostAcc = new Map<string, HostAcc>();
  const gpuAcc = new Map<string, GpuAcc>();
  const rows = input.rollups;
  const rowGpus: GpuAcc[] = rows.gpus.map(({ host: name, index }) => {
    let host = hostAcc.get(name);
    if (host === undefined) {
      host = new HostAcc(name, dayStartsMs.length, hourSlots);
      hostAcc.set(name, host);
    }
    let gpu = host.gpus[index];
    if (gpu === undefined) {
      gpu = new GpuAcc(name, index);
      gpu.claimed = claimedGpus.has(gpuKey(name, index));
      gpu.hostAcc = host;
      host.gpus[index] = gpu;
      gpuAcc.set(gpuKey(name, index), gpu);
    }
    return gpu;
  });
  const rowSlot = new Int32Array(rows.length);
  const rowColumn = new Uint16Array(rows.length);
  let column = 0;
  for (let i = 0; i < rows.length; i++) {
    const hourMs = rows.hourMs[i]!;
    while (column < columnEnds.length - 1 && hourMs >= columnEnds[column]!) column++;
    const gpu = rowGpus[rows.gpu[i]!]!;
    const host = gpu.hostAcc!;
    const busy = rows.busyMinutes[i]!;
    const idle = rows.idleMinutes[i]!;
    const util = rows.utilMeanPct[i]!;
    const known = Number.isNaN(util) ? 0 : busy + idle;
    const utilMinutes = Number.isNaN(util) ? 0 : util * known;
    gpu.utilPctMinutes += utilMinutes;
    gpu.knownMinutes += known;
    gpu.busy += busy;
    gpu.idle += idle;
    host.utilPctMinutes += utilMinutes;
    host.knownMinutes += known;
    host.busy += busy;
    host.idle += idle;
    host.dayUtil[column] = host.dayUtil[column]! + utilMinutes;
    host.dayKnown[column] = host.dayKnown[column]! + known;
    host.dayIdle[column] = host.dayIdle[column]! + idle;
    rowColumn[i] = column;
    const slot = (hourMs - firstHourMs) / HOUR_MS;
    if (slot < 0 || slot >= hourSlots) {
      rowSlot[i] = -1;
      continue;
    }
    rowSlot[i] = slot;
    host.hourBusy[slot] = host.hourBusy[slot]! + busy;
    host.hourIdle[slot] = host.hourIdle[slot]! + idle;
    host.hourOn[slot] = Math.max(host.hourOn[slot]!, busy + idle);
    host.hourRows[slot] = host.hourRows[slot]! + 1;
    const energy = rows.energyWh[i]!;
    if (!Number.isNaN(energy)) {
      host.hourEnergy[slot] = host.hourEnergy[slot]! + energy;
      host.hourHasEnergy[slot] = 1;
    }
  }

  const dataUntilMs = Math.min(input.dataUntilMs, period.toMs);
  for (const host of hostAcc.values()) {
    const record = records.get(host.name);
    for (let slot = 0; slot < hourSlots; slot++) {
      const hourMs = firstHourMs + slot * HOUR_MS;
      if (hourMs >= dataUntilMs) break;
      const gpus = Math.max(host.hourRows[slot]!, gpusSeenBy(record, hourMs + HOUR_MS));
      if (gpus === 0) continue;
      const cost = pricing.hostCost(host.name, {
        hourMs,
        fromMs: hourMs,
        toMs: hourMs + HOUR_MS,
        gpus,
        busyGpuMinutes: host.hourBusy[slot]!,
        idleGpuMinutes: host.hourIdle[slot]!,
        unknownGpuMinutes: Math.max(0, gpus * 60 - host.hourBusy[slot]! - host.hourIdle[slot]!),
        onMinutes: Math.min(60, host.hourOn[slot]!),
        energyWh: host.hourHasEnergy[slot] ? host.hourEnergy[slot]! : null,
      });
      if (cost !== null) host.idleMinuteCost[slot] = cost / (gpus * 60);
    }
    for (const gpu of host.gpus) {
      if (gpu === undefined) continue;
      const expected = expectedMinutes(record, gpu.index, period.fromMs, dataUntilMs);
      gpu.spanMinutes = expected;
      gpu.unknown = Math.max(0, expected - gpu.busy - gpu.idle);
      host.spanMinutes += expected;
      host.unknown += gpu.unknown;
    }
  }

  const claimedHours = new Map<string, Map<number, ClaimedHour>>();
  for (let i = 0; i < rows.length; i++) {
    const gpu = rowGpus[rows.gpu[i]!]!;
    const host = gpu.hostAcc!;
    const slot = rowSlot[i]!;
    const idleMinuteCost = slot >= 0 ? host.idleMinuteCost[slot]! : Number.NaN;
    const idle = rows.idleMinutes[i]!;
    // NOTE: a GPU in an hour without a price is unpriced even when it was busy then: otherwise a
    // host without a price that happened to be busy would show an idle cost of 0.
    if (Number.isNaN(idleMinuteCost) && (idle > 0 || slot >= 0)) {
      gpu.unpriced = true;
      host.unpriced = true;
    } else if (idle > 0) {
      gpu.idleCost += idle * idleMinuteCost;
      host.idleCost += idle * idleMinuteCost;
    }
    if (gpu.claimed) {
      const key = gpuKey(gpu.host, gpu.index);
      let hours = claimedHours.get(key);
      if (hours === undefined) {
        hours = new Map();
        claimedHours.set(key, hours);
      }
      hours.set(rows.hourMs[i]!, { busyMinutes: rows.busyMinutes[i]!, idleMinutes: idle, idleMinuteCost });
    }
  }

  addDailyIdleCost(rows, rowGpus, rowSlot, rowColumn);

  const gpus: GpuRow[] = [...gpuAcc.values()]
    .map((acc) => ({
      host: acc.host,
      index: acc.index,
      model: records.get(acc.host)?.gpus.find((g) => g.index === acc.index)?.model ?? null,
      utilMeanPct: meanPct(acc),
      busyHours: acc.busy / 60,
      idleHours: acc.idle / 60,
      unknownHours: acc.unknown / 60,
      idleCost: acc.unpriced ? null : acc.idleCost,
    }))
    .sort((a, b) => compareNames(a.host, b.host) || a.index - b.index);

  const previousGpu = input.previousTotals;
  const previousHost = new Map<string, Acc>();
  for (const totals of previousGpu) {
    let acc = previousHost.get(totals.host);
    if (acc === undefined) {
      acc = newAcc();
      previousHost.set(totals.host, acc);
    }
    addTotals(acc, totals);
  }

  const hostNames = [...new Set([...hostAcc.keys(), ...previousHost.keys()])];
  const hosts: HostRow[] = hostNames.map((name) => {
    const acc = hostAcc.get(name);
    const previous = previousHost.get(name);
    return {
      host: name,
      gpus: records.get(name)?.gpus.length ?? acc?.gpus.filter((g) => g !== undefined).length ?? 0,
      utilMeanPct: acc === undefined ? null : meanPct(acc),
      previousUtilMeanPct: previous === undefined ? null : meanPct(previous),
      busyGpuHours: (acc?.busy ?? 0) / 60,
      idleGpuHours: (acc?.idle ?? 0) / 60,
      unknownGpuHours: (acc?.unknown ?? 0) / 60,
      idleCost: acc === undefined ? 0 : acc.unpriced ? null : acc.idleCost,
      previousIdleGpuHours: (previous?.idle ?? 0) / 60,
      dailyUtilPct: acc === undefined ? dayStartsMs.map(() => null) : acc.dailyMeans(),
      dailyIdleGpuHours:
        acc === undefined ? dayStartsMs.map(() => 0) : Array.from(acc.dayIdle, (m) => m / 60),
      dailyIdleCost: acc === undefined ? dayStartsMs.map(() => 0) : Array.from(acc.dayIdleCost),
      paidByTheHour: input.paidByTheHour(name),
    };
  });
  const costly = (row: HostRow) => (row.idleCost !== null && row.idleCost > 0 ? row.idleCost : 0);
  hosts.sort(
    (a, b) => costly(b) - costly(a) || b.idleGpuHours - a.idleGpuHours || compareNames(a.host, b.host),
  );

  const stops = stopRows(input, hostAcc, firstHourMs);
  const keeps = keepRows(input);
  const people = personRows(input, records, claimedHours, stops, keeps);
  const fleet = fleetTotals([...hostAcc.values()], [...gpuAcc.values()]);
  const previousFleet = previousTotalsOf(input, previousHost);
  const containers =
    input.containers.status === "ok"
      ? {
          status: "ok" as const,
          advice: input.containers.groups.map((group) => rightsize(group)).sort(compareAdvice),
        }
      : input.containers;

  return {
    period,
    previous: input.previous,
    timezone: input.timezone,
    currency: pricing.currency,
    dayStartsMs,
    fleet,
    previousFleet,
    coverage: coverageOf(input, records, fleet, dataUntilMs),
    hosts,
    gpus,
    people,
    stops,
    keeps,
    savedCost: stops.reduce((sum, stop) => sum + (stop.savedCost ?? 0), 0),
    containers,
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
        for (let slot = Math.max(0, after); slot < acc.hourBusy.length; slot++) {
          if (acc.hourBusy[slot]! > 0) {
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
  let wh = 0;
  let onHours = 0;
  for (let slot = 0; slot < acc.hourOn.length; slot++) {
    if (!acc.hourHasEnergy[slot] || acc.hourOn[slot]! <= 0) continue;
    wh += acc.hourEnergy[slot]!;
    onHours += Math.min(60, acc.hourOn[slot]!) / 60;
  }
  return onHours > 0 ? wh / onHours : null;
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
function previousTotalsOf(input: SummaryInput, previousHost: Map<string, Acc>): FleetTotals {
  const { previous, pricing } = input;
  const spans = new Map<
    string,
    { gpus: number; on: number; energy: number | null; totals: GpuPeriodTotals[] }
  >();
  for (const totals of input.previousTotals) {
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

function addTotals(acc: Acc, totals: GpuPeriodTotals): void {
  const known = totals.busyMinutes + totals.idleMinutes;
  if (totals.utilMeanPct !== null) {
    acc.utilPctMinutes += totals.utilMeanPct * known;
    acc.knownMinutes += known;
  }
  acc.busy += totals.busyMinutes;
  acc.idle += totals.idleMinutes;
  acc.unknown += totals.unknownMinutes;
}

/** GPUs of the host first seen before `beforeMs`. */
function gpusSeenBy(record: HostRecord | undefined, beforeMs: number): number {
  if (record === undefined) return 0;
  let count = 0;
  for (const gpu of record.gpus) if (gpu.firstSeenMs < beforeMs) count++;
  return count;
}

/** Minutes of `[fromMs, toMs)` after the GPU was first seen (whole period when it is not on record). */
function coverageOf(
  input: SummaryInput,
  records: ReadonlyMap<string, HostRecord>,
  fleet: FleetTotals,
  dataUntilMs: number,
): DataCoverage {
  const { period } = input;
  const firstSeen = Math.min(
    ...[...records.values()].flatMap((record) => record.gpus.map((gpu) => gpu.firstSeenMs)),
  );
  const fromMs = Math.min(Math.max(period.fromMs, firstSeen), dataUntilMs);
  const expected = fleet.busyGpuHours + fleet.idleGpuHours + fleet.unknownGpuHours;
  return {
    fromMs,
    untilMs: Math.max(fromMs, dataUntilMs),
    readShare: expected > 0 ? (fleet.busyGpuHours + fleet.idleGpuHours) / expected : null,
  };
}

function expectedMinutes(
  record: HostRecord | undefined,
  index: number,
  fromMs: number,
  toMs: number,
): number {
  const firstSeenMs = record?.gpus.find((gpu) => gpu.index === index)?.firstSeenMs ?? fromMs;
  return Math.max(0, toMs - Math.max(fromMs, firstSeenMs)) / 60_000;
}

function gpuIndexes(record: HostRecord | undefined): number[] {
  return record?.gpus.map((gpu) => gpu.index) ?? [];
}

function gpuKey(host: string, index: number): string {
  return `${host}\u0000${index}`;
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
