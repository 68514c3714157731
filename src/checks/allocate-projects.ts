/** One host-day of the ledger, as the allocation prices it (`cost` null: no price, counted as 0). */
export interface LedgerCostDay {
  day: string;
  host: string;
  cost: number | null;
  idleCost: number | null;
  busyGpuHours: number;
  idleGpuHours: number;
  unknownGpuHours: number;
}

/** One GPU over the part `[fromMs, toMs)` of a clock hour that lies in local day `day`. */
export interface GpuSpanUse {
  day: string;
  host: string;
  index: number;
  fromMs: number;
  toMs: number;
  /** Minutes of the span (already pro rata for a cut hour). */
  busyMinutes: number;
  idleMinutes: number;
}

/** A claim's time on a host (`gpuIndex` null: every GPU of it) and its project (`null`: none). */
export interface ClaimSpan {
  host: string;
  gpuIndex: number | null;
  fromMs: number;
  toMs: number;
  project: string | null;
}

/** What the allocation reads; every instant and span is in epoch ms, `[fromMs, toMs)` the month. */
export interface AllocationInput {
  fromMs: number;
  toMs: number;
  /** Configured projects, in config order (each gets a row, even an empty one). */
  projects: readonly string[];
  ledger: readonly LedgerCostDay[];
  usage: Iterable<GpuSpanUse>;
  claims: readonly ClaimSpan[];
  /** GPUs of the host (a whole-host claim's count). */
  gpusOf(host: string): number;
  /** The project of the workload on the GPU in the clock hour, `null` when none is known. */
  workloadProject(host: string, index: number, hourMs: number): string | null;
  /** Waiting-list requests: their project and the span they waited. */
  waits: readonly { project: string | null; fromMs: number; toMs: number }[];
}

/** One project's part of the fleet's month (`project` null: unattributed). Money in team currency. */
export interface ProjectAllocation {
  project: string | null;
  claimedGpuHours: number;
  busyGpuHours: number;
  /** The cost of its busy GPU-hours. */
  usedCost: number;
  /** The cost of the idle GPU-hours it held (for the unattributed row: everything else). */
  idleCost: number;
  /** `usedCost + idleCost`. */
  cost: number;
  /** `cost` over the fleet's cost (`null` when the fleet cost nothing). */
  share: number | null;
  /** Hours its requests waited on the waiting list (per request, not per GPU). */
  waitedHours: number;
}

export interface Allocation {
  rows: ProjectAllocation[];
  /** The ledger's total over the month: the rows' `cost` add up to it. */
  ledgerCost: number;
}

const HOUR_MS = 3_600_000;

/**
 * Splits the ledger's month among projects. A GPU span's busy and idle minutes are priced at its
 * host-day's rates (busy and unknown share `cost − idleCost`, idle shares `idleCost`); within a
 * span, claims cover their share of it evenly. Claimed time counts for the claim's project (busy:
 * used, idle: held); busy unclaimed time for the workload's project; everything else (unclaimed
 * idle, unknown, no project) stays *unattributed*, so the rows always add up to the ledger. Pure.
 */
export function allocateProjects(input: AllocationInput): Allocation {
  const rows = new Map<string | null, ProjectAllocation>();
  const row = (project: string | null): ProjectAllocation => {
    let found = rows.get(project);
    if (found === undefined) {
      found = emptyRow(project);
      rows.set(project, found);
    }
    return found;
  };
  for (const project of input.projects) row(project);
  const rates = ratesOf(input.ledger);
  const claimsOf = claimsByGpu(input.claims);
  const rateOf = lastRate(rates);
  for (const span of input.usage) priceSpan(input, span, rateOf(span), claimsOf, row);
  countClaims(input, row);
  for (const wait of input.waits) {
    const waitedMs = Math.min(wait.toMs, input.toMs) - Math.max(wait.fromMs, input.fromMs);
    if (waitedMs > 0) row(wait.project).waitedHours += waitedMs / HOUR_MS;
  }
  const ledgerCost = input.ledger.reduce((sum, day) => sum + (day.cost ?? 0), 0);
  for (const r of rows.values()) r.cost = r.usedCost + r.idleCost;
  const unattributed = row(null);
  const attributed = [...rows.values()].reduce((sum, r) => sum + (r === unattributed ? 0 : r.cost), 0);
  unattributed.idleCost = ledgerCost - attributed - unattributed.usedCost;
  unattributed.cost = ledgerCost - attributed;
  for (const r of rows.values()) r.share = ledgerCost > 0 ? r.cost / ledgerCost : null;
  const ordered = [
    ...input.projects.map((project) => row(project)),
    ...[...rows.values()]
      .filter((r) => r.project !== null && !input.projects.includes(r.project))
      .sort((a, b) => (a.project ?? "").localeCompare(b.project ?? "")),
    unattributed,
  ];
  return { rows: ordered, ledgerCost };
}

function emptyRow(project: string | null): ProjectAllocation {
  return {
    project,
    claimedGpuHours: 0,
    busyGpuHours: 0,
    usedCost: 0,
    idleCost: 0,
    cost: 0,
    share: null,
    waitedHours: 0,
  };
}

type Rate = { busy: number; idle: number };

/** Per host, then day: the price of a busy (or unknown) and of an idle GPU-minute. */
function ratesOf(ledger: readonly LedgerCostDay[]): Map<string, Map<string, Rate>> {
  const rates = new Map<string, Map<string, Rate>>();
  for (const day of ledger) {
    const cost = day.cost ?? 0;
    const idleCost = Math.min(cost, day.idleCost ?? 0);
    const busyMinutes = (day.busyGpuHours + day.unknownGpuHours) * 60;
    const idleMinutes = day.idleGpuHours * 60;
    let byDay = rates.get(day.host);
    if (byDay === undefined) {
      byDay = new Map();
      rates.set(day.host, byDay);
    }
    byDay.set(day.day, {
      busy: busyMinutes > 0 ? (cost - idleCost) / busyMinutes : 0,
      idle: idleMinutes > 0 ? idleCost / idleMinutes : 0,
    });
  }
  return rates;
}

/** The rate of a span's host-day, remembering the last one (spans come host by host or day by day). */
function lastRate(
  rates: ReadonlyMap<string, ReadonlyMap<string, Rate>>,
): (span: GpuSpanUse) => Rate | undefined {
  let host = "";
  let day = "";
  let rate: Rate | undefined;
  return (span) => {
    if (span.host !== host || span.day !== day) {
      host = span.host;
      day = span.day;
      rate = rates.get(host)?.get(day);
    }
    return rate;
  };
}

/** Claims by host, then GPU index (`-1`: whole-host claims). */
export type ClaimIndex = Map<string, Map<number, ClaimSpan[]>>;

/** {@link ClaimIndex} of `claims`, each list in the claims' order. */
export function claimsByGpu(claims: readonly ClaimSpan[]): ClaimIndex {
  const byHost: ClaimIndex = new Map();
  for (const claim of claims) {
    let byGpu = byHost.get(claim.host);
    if (byGpu === undefined) {
      byGpu = new Map();
      byHost.set(claim.host, byGpu);
    }
    const key = claim.gpuIndex ?? -1;
    const list = byGpu.get(key);
    if (list === undefined) byGpu.set(key, [claim]);
    else list.push(claim);
  }
  return byHost;
}

const NO_CLAIMS: readonly ClaimSpan[] = [];

/**
 * How a GPU's span is split among the claims on its host: the claims on the GPU first, then
 * whole-host claims, each covering its overlap's share of the span, at most the whole span in all.
 * `visit` sees each covering claim with its share; returns the share covered. Pure.
 */
export function coverByClaims(
  span: { host: string; index: number; fromMs: number; toMs: number },
  claimsOf: ClaimIndex,
  visit: (claim: ClaimSpan, share: number) => void,
): number {
  const byGpu = claimsOf.get(span.host);
  if (byGpu === undefined) return 0;
  const covered = coverWith(span, byGpu.get(span.index) ?? NO_CLAIMS, 0, visit);
  return coverWith(span, byGpu.get(-1) ?? NO_CLAIMS, covered, visit);
}

function coverWith(
  span: { fromMs: number; toMs: number },
  claims: readonly ClaimSpan[],
  claimedShare: number,
  visit: (claim: ClaimSpan, share: number) => void,
): number {
  let covered = claimedShare;
  for (const claim of claims) {
    if (covered >= 1) break;
    const overlapMs = Math.min(claim.toMs, span.toMs) - Math.max(claim.fromMs, span.fromMs);
    if (overlapMs <= 0) continue;
    const share = Math.min(overlapMs / (span.toMs - span.fromMs), 1 - covered);
    covered += share;
    visit(claim, share);
  }
  return covered;
}

function priceSpan(
  input: AllocationInput,
  span: GpuSpanUse,
  rate: Rate | undefined,
  claimsOf: ClaimIndex,
  row: (project: string | null) => ProjectAllocation,
): void {
  if (rate === undefined || span.toMs <= span.fromMs) return;
  const claimedShare = coverByClaims(span, claimsOf, (claim, share) => {
    const target = row(claim.project);
    target.busyGpuHours += (span.busyMinutes * share) / 60;
    target.usedCost += span.busyMinutes * share * rate.busy;
    if (claim.project !== null) target.idleCost += span.idleMinutes * share * rate.idle;
  });
  const rest = 1 - claimedShare;
  if (rest <= 0 || span.busyMinutes === 0) return;
  const hourMs = span.fromMs - (span.fromMs % HOUR_MS);
  const target = row(input.workloadProject(span.host, span.index, hourMs));
  target.busyGpuHours += (span.busyMinutes * rest) / 60;
  target.usedCost += span.busyMinutes * rest * rate.busy;
}

/**
 * A fast `workloadProject` over workload hours (keyed by host, then hour start plus GPU index, so
 * no key string is built per lookup).
 */
export function workloadLookup(
  hours: Iterable<{ hourMs: number; host: string; gpuIndex: number; project: string | null }>,
): AllocationInput["workloadProject"] {
  const byHost = new Map<string, Map<number, string | null>>();
  for (const hour of hours) {
    let byKey = byHost.get(hour.host);
    if (byKey === undefined) {
      byKey = new Map();
      byHost.set(hour.host, byKey);
    }
    const key = hour.hourMs + hour.gpuIndex;
    if (!byKey.has(key)) byKey.set(key, hour.project);
  }
  return (host, index, hourMs) => byHost.get(host)?.get(hourMs + index) ?? null;
}

/** GPU-hours claimed in the month: each claim's time in it times the GPUs it holds. */
function countClaims(input: AllocationInput, row: (project: string | null) => ProjectAllocation): void {
  for (const claim of input.claims) {
    const heldMs = Math.min(claim.toMs, input.toMs) - Math.max(claim.fromMs, input.fromMs);
    if (heldMs <= 0) continue;
    const gpus = claim.gpuIndex === null ? input.gpusOf(claim.host) : 1;
    row(claim.project).claimedGpuHours += (heldMs / HOUR_MS) * gpus;
  }
}
