import type { Claim } from "../store/claim-store.ts";
import type { QueueWant } from "../store/queue-store.ts";
import type { GpuSeat } from "./claim-pick.ts";
import { overlaps } from "./claim-target.ts";

/** A running claim with its holder's project policy (`null`: no project, never asked). */
export interface HeldClaim {
  claim: Claim;
  priority: number;
  preempt: boolean;
}

/**
 * Which running claims a waiting request of `priority` may ask to make room, or `null` when asking
 * would not be enough. Only claims of a project with `preempt: true` and a lower priority are asked;
 * claims already asked (`asked`) are not asked again. A request for any `count` GPUs (of `models`,
 * null: any) asks the fewest claims that cover what the free idle GPUs lack, lowest priority first,
 * then the newest; a request for named GPUs or a host asks every claim on them, all of which must
 * be askable. Pure.
 */
export function pickPreemptions(
  want: QueueWant,
  priority: number,
  seats: readonly GpuSeat[],
  held: readonly HeldClaim[],
  asked: ReadonlySet<number>,
  models: readonly string[] | null,
): Claim[] | null {
  const askable = (entry: HeldClaim) =>
    entry.preempt && entry.priority < priority && !asked.has(entry.claim.id);
  if (want.kind === "slots") {
    const onSlots = held.filter((entry) => overlaps(want, entry.claim.host, entry.claim.gpuIndex));
    if (onSlots.length === 0 || !onSlots.every(askable)) return null;
    return onSlots.map((entry) => entry.claim);
  }
  const fits = (seat: GpuSeat) => models === null || (seat.model !== null && models.includes(seat.model));
  const claimedKeys = new Set(held.map((entry) => `${entry.claim.host}:${entry.claim.gpuIndex ?? "*"}`));
  const free = seats.filter(
    (seat) =>
      fits(seat) &&
      seat.state === "idle" &&
      !claimedKeys.has(`${seat.host}:*`) &&
      !claimedKeys.has(`${seat.host}:${seat.index}`),
  ).length;
  let lacking = want.count - free;
  if (lacking <= 0) return null;
  const candidates = held
    .filter(askable)
    .sort((a, b) => a.priority - b.priority || b.claim.fromMs - a.claim.fromMs || a.claim.id - b.claim.id);
  const picked: Claim[] = [];
  for (const { claim } of candidates) {
    const gpus = seats.filter(
      (seat) =>
        seat.host === claim.host && fits(seat) && (claim.gpuIndex === null || seat.index === claim.gpuIndex),
    ).length;
    if (gpus === 0) continue;
    picked.push(claim);
    lacking -= gpus;
    if (lacking <= 0) return picked;
  }
  return null;
}
