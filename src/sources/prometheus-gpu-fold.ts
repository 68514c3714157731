import { physicalGpu } from "../shared/gpu-slot.ts";
import { isDcgmBlank } from "./prom-value.ts";
import type { PromVectorSample } from "./prometheus-api.ts";
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
  /** Folds one field's answer in; the answer is not kept. */
  add(field: DcgmField, samples: readonly PromVectorSample[]): void;
  /**
   * The GPUs and hosts: a series whose FB_USED heartbeat is older than `oldestMs` counts as absent; the
   * hosts in `seen` (the forget window's label sets) without a fresh GPU are stale.
   */
  finish(heartbeat: readonly PromVectorSample[], seen: Record<string, string>[], oldestMs: number): GpuFleet;
}

export function createGpuFold(hostLabel: string): GpuFold {
  const hosts = new Map<string, Map<number, GpuAccumulator>>();
  /** Series without the host label, by their `gpu` label. */
  const unlabelled = new Map<string, number>();
  return {
    add(field, samples) {
      for (const sample of samples) {
        if (!sample.labels[hostLabel]) {
          const gpu = String(sample.labels.gpu);
          unlabelled.set(gpu, (unlabelled.get(gpu) ?? 0) + 1);
          continue;
        }
        const slot = slotOf(sample.labels, hostLabel);
        if (slot === null) continue;
        const gpu = accumulatorIn(hosts, slot);
        const workload = workloadOf(sample.labels);
        if (workload) addWorkload(gpu, workload);
        const value = Number.isFinite(sample.value) && !isDcgmBlank(sample.value) ? sample.value : null;
        if (value !== null) gpu.fields[field] = Math.max(gpu.fields[field] ?? value, value);
      }
    },
    finish(heartbeat, seen, oldestMs) {
      const beatMs = new Map<string, number>();
      for (const sample of heartbeat) {
        const key = gpuKey(hostFromLabel(sample.labels[hostLabel] ?? ""), sample.labels.gpu);
        beatMs.set(key, Math.max(beatMs.get(key) ?? 0, sample.value * 1000));
      }
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
