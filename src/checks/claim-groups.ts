import type { Claim } from "../domain/claim.ts";
import type { GpuSlots } from "./claim-target.ts";

/**
 * Claims made together (one request: `gpu-a:0-3` is four claim rows) as people see them: one
 * holder, one host, one end, one note. Reminders, nudges, extensions and releases act on a group.
 */
export interface ClaimGroup extends GpuSlots {
  user: string;
  /** Sorted; `null` is the whole host. */
  gpus: number[] | null;
  fromMs: number;
  untilMs: number;
  note: string;
  claimIds: number[];
  /** The earliest reminder of the group (`null` when any claim in it had none). */
  remindedAtMs: number | null;
  nudgedAtMs: number | null;
  stillUsingAtMs: number | null;
}

/** Groups claims by holder, host, end and note (a whole-host claim is its own group), by host then GPU. */
export function groupClaims(claims: readonly Claim[]): ClaimGroup[] {
  const groups = new Map<string, ClaimGroup>();
  for (const claim of claims) {
    const whole = claim.gpuIndex === null;
    const key = JSON.stringify([claim.user, claim.host, claim.untilMs, claim.note, whole]);
    const group = groups.get(key);
    if (group === undefined) {
      groups.set(key, {
        user: claim.user,
        host: claim.host,
        gpus: whole ? null : [claim.gpuIndex as number],
        fromMs: claim.fromMs,
        untilMs: claim.untilMs,
        note: claim.note,
        claimIds: [claim.id],
        remindedAtMs: claim.remindedAtMs,
        nudgedAtMs: claim.nudgedAtMs,
        stillUsingAtMs: claim.stillUsingAtMs,
      });
      continue;
    }
    if (group.gpus !== null && claim.gpuIndex !== null && !group.gpus.includes(claim.gpuIndex)) {
      group.gpus.push(claim.gpuIndex);
      group.gpus.sort((a, b) => a - b);
    }
    group.claimIds.push(claim.id);
    group.fromMs = Math.min(group.fromMs, claim.fromMs);
    group.remindedAtMs = minOrNull(group.remindedAtMs, claim.remindedAtMs);
    group.nudgedAtMs = minOrNull(group.nudgedAtMs, claim.nudgedAtMs);
    group.stillUsingAtMs = minOrNull(group.stillUsingAtMs, claim.stillUsingAtMs);
  }
  return [...groups.values()].sort(
    (a, b) =>
      a.host.localeCompare(b.host) ||
      (a.gpus?.[0] ?? -1) - (b.gpus?.[0] ?? -1) ||
      a.untilMs - b.untilMs ||
      a.user.localeCompare(b.user),
  );
}

function minOrNull(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : Math.min(a, b);
}
