import type { Claim } from "../domain/claim.ts";

/** A claim that would take a project past `max_gpus`: what it holds, what was asked, the limit. */
export interface QuotaExceeded {
  project: string;
  maxGpus: number;
  heldGpus: number;
  askedGpus: number;
}

/**
 * GPUs the project's claims hold among `claims` (a whole-host claim counts every GPU of its host,
 * `gpusOf(host)`). Pure.
 */
export function gpusHeldBy(
  claims: readonly Pick<Claim, "host" | "gpuIndex" | "project">[],
  project: string,
  gpusOf: (host: string) => number,
): number {
  let held = 0;
  for (const claim of claims) {
    if (claim.project !== project) continue;
    held += claim.gpuIndex === null ? gpusOf(claim.host) : 1;
  }
  return held;
}

/**
 * Whether `askedGpus` more GPUs keep `project` within `maxGpus` (absent: no limit). `null` when
 * they do, else what would be exceeded. Pure.
 */
export function quotaExceeded(
  project: string | null,
  maxGpus: number | undefined,
  heldGpus: number,
  askedGpus: number,
): QuotaExceeded | null {
  if (project === null || maxGpus === undefined || askedGpus === 0) return null;
  return heldGpus + askedGpus <= maxGpus ? null : { project, maxGpus, heldGpus, askedGpus };
}
