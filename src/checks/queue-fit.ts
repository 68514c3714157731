import type { Claim } from "../domain/claim.ts";
import type { QueueWant } from "../domain/queue-request.ts";
import { type GpuSeat, pickFreeGpus } from "./claim-pick.ts";

/** One slot to grant: a GPU, or (`gpuIndex` null) a whole host. */
export interface GrantSlot {
  host: string;
  gpuIndex: number | null;
}

/**
 * What a waiting request would get now, or `null` when it does not fit. Free means no unreleased
 * claim on the GPU or its whole host, and idle: a GPU busy with a process but unclaimed, or without
 * a fresh reading (unknown), is not free. `models` are the fleet's model names that the request's
 * model names (all of them for any model). Pure.
 */
export function fitRequest(
  want: QueueWant,
  seats: readonly GpuSeat[],
  held: readonly Claim[],
  models: readonly string[] | null,
): GrantSlot[] | null {
  if (want.kind === "count") {
    const candidates = seats.filter(
      (seat) =>
        seat.state === "idle" && (models === null || (seat.model !== null && models.includes(seat.model))),
    );
    const pick = pickFreeGpus(candidates, held, want.count);
    if (pick.kind === "short") return null;
    return pick.picks.flatMap(({ host, gpus }) => gpus.map((gpuIndex) => ({ host, gpuIndex })));
  }
  const onHost = seats.filter((seat) => seat.host === want.host);
  if (onHost.length === 0) return null;
  const claims = held.filter((claim) => claim.host === want.host);
  if (claims.some((claim) => claim.gpuIndex === null)) return null;
  if (want.gpus === null) {
    const free = claims.length === 0 && onHost.every((seat) => seat.state === "idle");
    return free ? [{ host: want.host, gpuIndex: null }] : null;
  }
  const taken = new Set(claims.map((claim) => claim.gpuIndex));
  const fits = want.gpus.every((index) => {
    const seat = onHost.find((candidate) => candidate.index === index);
    return seat !== undefined && seat.state === "idle" && !taken.has(index);
  });
  return fits ? want.gpus.map((gpuIndex) => ({ host: want.host, gpuIndex })) : null;
}
