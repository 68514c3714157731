/**
 * Container rightsizing from two weeks of requests and usage: CPU request = 1.2 × the observed
 * peak, GPU memory = 1.3 × the observed maximum, and a flag when usage stayed below half of what was
 * requested for the whole window. Pure.
 */

/** One container group (the containers of one workload) over the window. */
export interface ContainerGroupUsage {
  /** `namespace/workload/container`, or `cluster/namespace/workload/container` when hosts are named by cluster. */
  group: string;
  /** The cluster whose engine reported it, when hosts are named `cluster/host`. */
  cluster?: string;
  namespace: string;
  workload: string;
  container: string;
  /** Pods of the workload seen in the window. */
  pods: number;
  /** The largest CPU request seen, in cores. */
  cpuRequestCores: number | null;
  /** The highest 5-minute CPU usage rate of any pod, in cores. */
  cpuPeakCores: number | null;
  /** Mean CPU usage over the pods' lives, in cores. */
  cpuMeanCores: number | null;
  /** The largest number of GPUs requested. */
  gpuRequest: number | null;
  /** The most framebuffer memory used on any one of its GPUs, MiB. */
  gpuMemMaxMiB: number | null;
  /** Framebuffer size of its GPUs (used + free), MiB. */
  gpuMemTotalMiB: number | null;
}

export interface RightsizingPolicy {
  /** Recommended CPU request = this × peak. */
  cpuHeadroom: number;
  /** Recommended GPU memory = this × maximum. */
  gpuMemHeadroom: number;
  /** Flag when peak / request stays below this. */
  flagBelowRatio: number;
}

export const DEFAULT_RIGHTSIZING: RightsizingPolicy = {
  cpuHeadroom: 1.2,
  gpuMemHeadroom: 1.3,
  flagBelowRatio: 0.5,
};

/** `lower`: over-requested (flagged); `raise`: the peak went above the request; `ok` otherwise. */
export type RightsizingDirection = "lower" | "raise" | "ok";

export interface CpuAdvice {
  /** Peak usage / request. */
  peakRatio: number;
  /** Mean usage / request; `null` without a mean. */
  meanRatio: number | null;
  recommendedCores: number;
  direction: RightsizingDirection;
}

export interface GpuMemAdvice {
  /** Maximum used / the card's memory. */
  maxRatio: number;
  recommendedMiB: number;
  direction: "lower" | "ok";
}

export interface RightsizingAdvice {
  usage: ContainerGroupUsage;
  /** `null` without both a request and a peak. */
  cpu: CpuAdvice | null;
  /** `null` unless it requested GPUs and both the maximum and the card size are known. */
  gpuMem: GpuMemAdvice | null;
  /** Any part is `lower`. */
  flagged: boolean;
}

export function rightsize(
  usage: ContainerGroupUsage,
  policy: RightsizingPolicy = DEFAULT_RIGHTSIZING,
): RightsizingAdvice {
  let cpu: CpuAdvice | null = null;
  const request = usage.cpuRequestCores;
  const peak = usage.cpuPeakCores;
  if (request !== null && request > 0 && peak !== null) {
    const peakRatio = peak / request;
    const recommendedCores = policy.cpuHeadroom * peak;
    cpu = {
      peakRatio,
      meanRatio: usage.cpuMeanCores === null ? null : usage.cpuMeanCores / request,
      recommendedCores,
      direction: peakRatio < policy.flagBelowRatio ? "lower" : peak > request ? "raise" : "ok",
    };
  }
  let gpuMem: GpuMemAdvice | null = null;
  const max = usage.gpuMemMaxMiB;
  const total = usage.gpuMemTotalMiB;
  if ((usage.gpuRequest ?? 0) > 0 && max !== null && total !== null && total > 0) {
    const maxRatio = max / total;
    gpuMem = {
      maxRatio,
      recommendedMiB: policy.gpuMemHeadroom * max,
      direction: maxRatio < policy.flagBelowRatio ? "lower" : "ok",
    };
  }
  return { usage, cpu, gpuMem, flagged: cpu?.direction === "lower" || gpuMem?.direction === "lower" };
}

/** Flagged groups first, then by how little of the request they use. */
export function compareAdvice(a: RightsizingAdvice, b: RightsizingAdvice): number {
  if (a.flagged !== b.flagged) return a.flagged ? -1 : 1;
  return worstRatio(a) - worstRatio(b) || (a.usage.group < b.usage.group ? -1 : 1);
}

function worstRatio(advice: RightsizingAdvice): number {
  return Math.min(
    advice.cpu?.peakRatio ?? Number.POSITIVE_INFINITY,
    advice.gpuMem?.maxRatio ?? Number.POSITIVE_INFINITY,
  );
}

/**
 * The workload a pod belongs to, from its name: a Deployment's `name-<template hash>-<5 chars>`,
 * a StatefulSet's `name-<ordinal>`, a DaemonSet's or Job's `name-<5 chars>`. A heuristic: the API
 * server's owner references are not in the metrics.
 */
export function workloadOf(pod: string): string {
  const parts = pod.split("-");
  if (
    parts.length >= 3 &&
    isSuffix(parts.at(-1)!) &&
    /^[bcdfghjklmnpqrstvwxz2456789]{6,10}$/.test(parts.at(-2)!)
  ) {
    return parts.slice(0, -2).join("-");
  }
  if (parts.length >= 2 && /^\d+$/.test(parts.at(-1)!)) return parts.slice(0, -1).join("-");
  if (parts.length >= 2 && isSuffix(parts.at(-1)!)) return parts.slice(0, -1).join("-");
  return pod;
}

function isSuffix(part: string): boolean {
  return /^[bcdfghjklmnpqrstvwxz2456789]{5}$/.test(part);
}
