import type { Claim } from "../domain/claim.ts";

/** A project's claimed GPU-hours on a host (`project` null: claims without a project). */
export interface HostProjectUse {
  project: string | null;
  gpuHours: number;
}

/**
 * Which projects held `host` in `[fromMs, toMs)`, by claimed GPU-hours (most first, at most 3): the
 * people to talk to about reclaiming it or not renewing it. A whole-host claim counts `hostGpus`. Pure.
 */
export function projectsOnHost(
  claims: readonly Pick<Claim, "host" | "gpuIndex" | "fromMs" | "untilMs" | "releasedAtMs" | "project">[],
  host: string,
  fromMs: number,
  toMs: number,
  hostGpus: number,
): HostProjectUse[] {
  const hours = new Map<string | null, number>();
  for (const claim of claims) {
    if (claim.host !== host) continue;
    const heldMs = Math.min(claim.releasedAtMs ?? claim.untilMs, toMs) - Math.max(claim.fromMs, fromMs);
    if (heldMs <= 0) continue;
    const gpuHours = (heldMs / 3_600_000) * (claim.gpuIndex === null ? hostGpus : 1);
    const project = claim.project ?? null;
    hours.set(project, (hours.get(project) ?? 0) + gpuHours);
  }
  return [...hours]
    .map(([project, gpuHours]) => ({ project, gpuHours }))
    .sort((a, b) => b.gpuHours - a.gpuHours || (a.project ?? "~").localeCompare(b.project ?? "~"))
    .slice(0, 3);
}
