import type { GpuHourRollup } from "../domain/metrics.ts";
import type { AllocationInput, ClaimSpan } from "./allocate-projects.ts";

const HOUR_MS = 3_600_000;

/**
 * The rollups as `project` used them: each GPU-hour's busy minutes cut to the project's part, the rest
 * of its known minutes counted idle (busy for another project is not busy for this one). The part is
 * the allocation's: the share of the hour its claims cover (claims on the GPU first, then whole-host
 * claims, at most the whole hour), and the unclaimed rest when the hour's workload is the project's.
 * Only the hosts where the project had a part in some hour are kept. Pure.
 */
export function projectRollups(
  rollups: Iterable<GpuHourRollup>,
  claims: readonly ClaimSpan[],
  workloadProject: AllocationInput["workloadProject"],
  project: string,
): GpuHourRollup[] {
  const byHost = new Map<string, ClaimSpan[]>();
  for (const claim of claims) byHost.set(claim.host, [...(byHost.get(claim.host) ?? []), claim]);
  const out: GpuHourRollup[] = [];
  const used = new Set<string>();
  for (const row of rollups) {
    const share = projectShare(row, byHost.get(row.host) ?? [], workloadProject, project);
    if (share > 0) used.add(row.host);
    const busyMinutes = row.busyMinutes * share;
    out.push({ ...row, busyMinutes, idleMinutes: row.idleMinutes + row.busyMinutes - busyMinutes });
  }
  return out.filter((row) => used.has(row.host));
}

/** The share of the GPU-hour that counts for `project`. */
function projectShare(
  row: GpuHourRollup,
  claims: readonly ClaimSpan[],
  workloadProject: AllocationInput["workloadProject"],
  project: string,
): number {
  const toMs = row.hourMs + HOUR_MS;
  let covered = 0;
  let mine = 0;
  const ordered = [
    ...claims.filter((claim) => claim.gpuIndex === row.index),
    ...claims.filter((claim) => claim.gpuIndex === null),
  ];
  for (const claim of ordered) {
    if (covered >= 1) break;
    const overlapMs = Math.min(claim.toMs, toMs) - Math.max(claim.fromMs, row.hourMs);
    if (overlapMs <= 0) continue;
    const share = Math.min(overlapMs / HOUR_MS, 1 - covered);
    covered += share;
    if (claim.project === project) mine += share;
  }
  const rest = 1 - covered;
  if (rest > 0 && workloadProject(row.host, row.index, row.hourMs) === project) mine += rest;
  return mine;
}
