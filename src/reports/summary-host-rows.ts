import { meanPct } from "../checks/reclaim.ts";
import type { HostRecord } from "../domain/metrics.ts";
import type { GpuPeriodTotals } from "../store/summary-store.ts";
import {
  type Acc,
  addTotals,
  compareNames,
  type GpuAcc,
  type HostAcc,
  newAcc,
} from "./summary-accumulators.ts";
import type { GpuRow, HostRow, SummaryInput } from "./summary-model.ts";

/** One row per GPU, by host then index. */
export function gpuRows(gpuAcc: Iterable<GpuAcc>, records: ReadonlyMap<string, HostRecord>): GpuRow[] {
  return [...gpuAcc]
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
}

/** The previous period's sums per host, from its per-GPU totals. */
export function previousHostSums(previousTotals: readonly GpuPeriodTotals[]): Map<string, Acc> {
  const previousHost = new Map<string, Acc>();
  for (const totals of previousTotals) {
    let acc = previousHost.get(totals.host);
    if (acc === undefined) {
      acc = newAcc();
      previousHost.set(totals.host, acc);
    }
    addTotals(acc, totals);
  }
  return previousHost;
}

/** One row per host of either period, the costliest idle first. */
export function hostRows(
  input: SummaryInput,
  dayStartsMs: readonly number[],
  records: ReadonlyMap<string, HostRecord>,
  hostAcc: ReadonlyMap<string, HostAcc>,
  previousHost: ReadonlyMap<string, Acc>,
): HostRow[] {
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
  return hosts.sort(
    (a, b) => costly(b) - costly(a) || b.idleGpuHours - a.idleGpuHours || compareNames(a.host, b.host),
  );
}
