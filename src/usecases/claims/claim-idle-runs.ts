import { idleLookbackFromMs, lookbackStartMs } from "../../checks/claim-due.ts";
import type { ClaimGroup } from "../../checks/claim-groups.ts";
import { advanceIdleRun, claimRunsIdleSinceMs, type GpuIdleRun } from "../../checks/claim-idle.ts";
import type { ClaimIdleRecord } from "../../domain/gpu-idle-run.ts";
import { MINUTE_MS } from "../../shared/clock.ts";
import { type ClaimDeps, claimRulesOf } from "./claim-deps.ts";

/**
 * Since when each claim group's GPUs have all been idle (`null`: not idle, or too young to matter),
 * as reading its samples over the look-back would say, without reading them again: each claimed
 * host's GPU idle stretches are kept in the store (`claimIdle`) and advanced by the samples of the
 * polls written since the previous run. A host with no claim left is forgotten; a host claimed anew
 * is read once, from where its claims' look-back can begin.
 */
export function claimIdleSince(
  deps: ClaimDeps,
  groups: readonly ClaimGroup[],
  nowMs: number,
): Map<ClaimGroup, number | null> {
  const { state, idlePolicy } = deps;
  const rules = claimRulesOf(deps.config);
  const maxGapMs = idlePolicy.staleAfterMinutes * MINUTE_MS;
  const idleRules = { idleUtilPct: idlePolicy.idleUtilPct, maxGapMs };
  const keptFrom = new Map<string, number>();
  for (const group of groups) {
    const fromMs = lookbackStartMs(group, rules, nowMs);
    keptFrom.set(group.host, Math.min(keptFrom.get(group.host) ?? fromMs, fromMs));
  }
  const kept = new Map(state.claimIdle.all().map((record) => [record.host, record]));
  const runs = new Map<string, Map<number, GpuIdleRun>>();
  if (kept.size === 0 && keptFrom.size === 0) return new Map(groups.map((group) => [group, null]));
  state.transaction(() => {
    for (const record of kept.values()) if (!keptFrom.has(record.host)) state.claimIdle.remove(record.host);
    for (const [host, fromMs] of keptFrom) {
      const before = kept.get(host);
      const record = before !== undefined && before.fromMs <= fromMs ? before : fresh(host, fromMs);
      const byGpu = new Map(record.gpus.map((run) => [run.index, run]));
      let readUpToMs = record.readUpToMs;
      for (const sample of deps.metrics.gpuSamplesSince(host, record.readUpToMs + 1)) {
        byGpu.set(sample.index, advanceIdleRun(byGpu.get(sample.index), sample, idleRules));
        readUpToMs = Math.max(readUpToMs, sample.atMs);
      }
      if (record !== before || readUpToMs !== record.readUpToMs) {
        state.claimIdle.put({ host, fromMs: record.fromMs, readUpToMs, gpus: [...byGpu.values()] });
      }
      runs.set(host, byGpu);
    }
  });
  const result = new Map<ClaimGroup, number | null>();
  for (const group of groups) {
    const fromMs = idleLookbackFromMs(group, rules, nowMs);
    const window = { fromMs: fromMs ?? nowMs, nowMs, ...idleRules };
    result.set(
      group,
      fromMs === null ? null : claimRunsIdleSinceMs(runs.get(group.host)!, group.gpus, window),
    );
  }
  return result;
}

function fresh(host: string, fromMs: number): ClaimIdleRecord {
  return { host, fromMs, readUpToMs: fromMs - 1, gpus: [] };
}
