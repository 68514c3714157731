import { physicalGpu } from "../shared/gpu-slot.ts";
import type { VectorVisit } from "./prom-query-data.ts";
import { isDcgmBlank } from "./prom-value.ts";
import {
  accumulatorIn,
  addWorkload,
  type GpuAccumulator,
  type GpuFleet,
  slotOf,
  splitMigGpus,
  workloadOf,
} from "./prometheus-gpus.ts";
import { hostFromLabel } from "./prometheus-hosts.ts";
import type { DcgmField } from "./prometheus-queries.ts";

/**
 * The fleet's GPUs built from the DCGM fields' answers one answer at a time, as each arrives, so that a
 * cycle never holds every field's answer at once (at 80,000 GPUs those were ~110 MB of heap together).
 */
export interface GpuFold {
  /** What folds one field's samples in as its answer is read (`queryVectorEach`); nothing is kept of them. */
  visitor(field: DcgmField): VectorVisit;
  /** Folds in one sample of the FB_USED heartbeat (its value the sample's time in seconds). */
  beat: VectorVisit;
  /**
   * The GPUs and hosts: a series whose FB_USED heartbeat is older than `oldestMs` counts as absent; the
   * hosts in `seen` (the forget window's label sets) without a fresh GPU are stale.
   */
  finish(seen: Record<string, string>[], oldestMs: number): GpuFleet;
}

export function createGpuFold(hostLabel: string): GpuFold {
  const hosts = new Map<string, Map<number, GpuAccumulator>>();
  /** Series without the host label, by their `gpu` label. */
  const unlabelled = new Map<string, number>();
  const beatMs = new Map<string, number>();
  return {
    visitor: (field) => (labels, rawValue) => {
      if (!labels[hostLabel]) {
        const gpu = String(labels.gpu);
        unlabelled.set(gpu, (unlabelled.get(gpu) ?? 0) + 1);
        return;
      }
      const slot = slotOf(labels, hostLabel);
      if (slot === null) return;
      const gpu = accumulatorIn(hosts, slot);
      const workload = workloadOf(labels);
      if (workload) addWorkload(gpu, workload);
      const value = Number.isFinite(rawValue) && !isDcgmBlank(rawValue) ? rawValue : null;
      if (value !== null) gpu.fields[field] = Math.max(gpu.fields[field] ?? value, value);
    },
    beat(labels, value) {
      const key = gpuKey(hostFromLabel(labels[hostLabel] ?? ""), labels.gpu);
      beatMs.set(key, Math.max(beatMs.get(key) ?? 0, value * 1000));
    },
    finish(seen, oldestMs) {
      const silent = (key: string) => {
        const beat = beatMs.get(key);
        return beat !== undefined && beat < oldestMs;
      };
      for (const [host, gpus] of hosts) {
        for (const slot of gpus.keys()) if (silent(gpuKey(host, physicalGpu(slot)))) gpus.delete(slot);
        if (gpus.size === 0) hosts.delete(host);
        else splitMigGpus(gpus);
      }
      let unlabelledSeries = 0;
      for (const [gpu, count] of unlabelled) if (!silent(gpuKey("", gpu))) unlabelledSeries += count;
      return { hosts, stale: staleHosts(hosts, seen, hostLabel), unlabelled: unlabelledSeries };
    },
  };
}

/** A physical GPU's key: its host and its `gpu` label as a number (a MIG instance's is its GPU's). */
function gpuKey(host: string, gpu: string | number | undefined): string {
  return `${host}\u0000${Number(gpu)}`;
}

function staleHosts(
  hosts: GpuFleet["hosts"],
  seen: Record<string, string>[],
  hostLabel: string,
): Map<string, Set<string>> {
  const stale = new Map<string, Set<string>>();
  for (const labels of seen) {
    const raw = labels[hostLabel];
    if (!raw) continue;
    const host = hostFromLabel(raw);
    if (hosts.has(host)) continue;
    let values = stale.get(host);
    if (!values) {
      values = new Set();
      stale.set(host, values);
    }
    values.add(raw);
  }
  return stale;
}
