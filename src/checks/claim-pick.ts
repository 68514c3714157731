import type { Claim } from "../domain/claim.ts";

/** How a GPU looks right now, for choosing which free GPUs to give. */
export type SeatState = "idle" | "unknown" | "busy";

/** One GPU of the fleet. */
export interface GpuSeat {
  host: string;
  index: number;
  model: string | null;
  state: SeatState;
}

export type PickResult =
  | { kind: "picked"; picks: Array<{ host: string; gpus: number[] }> }
  | {
      kind: "short";
      /** Free GPUs among those asked for (model), fewer than wanted. */
      free: number;
      /** GPUs of the model in the fleet, claimed or not. */
      total: number;
    };

const RANK: Readonly<Record<SeatState, number>> = { idle: 0, unknown: 1, busy: 2 };

/**
 * Chooses `count` free GPUs among `seats` (already filtered to the model asked for). Free: no claim
 * in force on it or on its whole host. Within a host, idle GPUs come first, then those without a
 * reading, busy ones (in use without a claim) last. Prefers one host: the one whose chosen GPUs are
 * idlest, then the one left with the fewest free GPUs (big blocks stay free), then by name; else as
 * few hosts as possible. Pure.
 */
export function pickFreeGpus(seats: readonly GpuSeat[], claims: readonly Claim[], count: number): PickResult {
  const wholeHost = new Set(claims.filter((claim) => claim.gpuIndex === null).map((claim) => claim.host));
  const taken = new Set(
    claims.filter((claim) => claim.gpuIndex !== null).map((claim) => `${claim.host}:${claim.gpuIndex}`),
  );
  const freeByHost = new Map<string, GpuSeat[]>();
  for (const seat of seats) {
    if (wholeHost.has(seat.host) || taken.has(`${seat.host}:${seat.index}`)) continue;
    const list = freeByHost.get(seat.host);
    if (list === undefined) freeByHost.set(seat.host, [seat]);
    else list.push(seat);
  }
  for (const list of freeByHost.values()) {
    list.sort((a, b) => RANK[a.state] - RANK[b.state] || a.index - b.index);
  }
  const free = [...freeByHost.values()].reduce((sum, list) => sum + list.length, 0);
  if (free < count) return { kind: "short", free, total: seats.length };

  const score = (list: GpuSeat[], n: number) =>
    list.slice(0, n).reduce((sum, seat) => sum + RANK[seat.state], 0);
  const fitting = [...freeByHost.entries()].filter(([, list]) => list.length >= count);
  if (fitting.length > 0) {
    fitting.sort(
      ([hostA, a], [hostB, b]) =>
        score(a, count) - score(b, count) || a.length - b.length || hostA.localeCompare(hostB),
    );
    const [host, list] = fitting[0]!;
    return { kind: "picked", picks: [{ host, gpus: indexes(list.slice(0, count)) }] };
  }
  const byRoom = [...freeByHost.entries()].sort(
    ([hostA, a], [hostB, b]) => b.length - a.length || hostA.localeCompare(hostB),
  );
  const picks: Array<{ host: string; gpus: number[] }> = [];
  let left = count;
  for (const [host, list] of byRoom) {
    if (left === 0) break;
    const take = list.slice(0, left);
    picks.push({ host, gpus: indexes(take) });
    left -= take.length;
  }
  picks.sort((a, b) => a.host.localeCompare(b.host));
  return { kind: "picked", picks };
}

function indexes(seats: readonly GpuSeat[]): number[] {
  return seats.map((seat) => seat.index).sort((a, b) => a - b);
}
