import type { GpuHourRollup } from "../domain/metrics.ts";
import {
  type AllocationInput,
  type ClaimIndex,
  type ClaimSpan,
  claimsByGpu,
  coverByClaims,
} from "./allocate-projects.ts";

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
  const claimsOf = claimsByGpu(claims);
  const out: GpuHourRollup[] = [];
  const used = new Set<string>();
  for (const row of rollups) {
    const share = projectShare(row, claimsOf, workloadProject, project);
    if (share > 0) used.add(row.host);
    const busyMinutes = row.busyMinutes * share;
    out.push({ ...row, busyMinutes, idleMinutes: row.idleMinutes + row.busyMinutes - busyMinutes });
  }
  return out.filter((row) => used.has(row.host));
}

/** The share of the GPU-hour that counts for `project`. */
function projectShare(
  row: GpuHourRollup,
  claimsOf: ClaimIndex,
  workloadProject: AllocationInput["workloadProject"],
  project: string,
): number {
  let mine = 0;
  const hour = { host: row.host, index: row.index, fromMs: row.hourMs, toMs: row.hourMs + HOUR_MS };
  const covered = coverByClaims(hour, claimsOf, (claim, share) => {
    if (claim.project === project) mine += share;
  });
  const rest = 1 - covered;
  if (rest > 0 && workloadProject(row.host, row.index, row.hourMs) === project) mine += rest;
  return mine;
}
