import type { QueueWant } from "../domain/queue-request.ts";
import { matchModels } from "./claim-model.ts";
import type { GpuSeat } from "./claim-pick.ts";

/** A GPU of the fleet: where it is and its model. */
export type SeatModel = Pick<GpuSeat, "host" | "index" | "model">;

/** Which GPUs a want could take: hosts with their GPU indexes (`null`: all), from the fleet's seats. */
function reach(want: QueueWant, seats: readonly SeatModel[]): Map<string, Set<number> | null> {
  if (want.kind === "slots") return new Map([[want.host, want.gpus === null ? null : new Set(want.gpus)]]);
  const models =
    want.model === null
      ? null
      : matchModels(
          want.model,
          seats.flatMap((s) => (s.model === null ? [] : [s.model])),
        );
  const out = new Map<string, Set<number> | null>();
  for (const seat of seats) {
    if (models !== null && (seat.model === null || !models.includes(seat.model))) continue;
    const gpus = out.get(seat.host) ?? new Set<number>();
    gpus.add(seat.index);
    out.set(seat.host, gpus);
  }
  return out;
}

/**
 * Whether two waiting requests could take some of the same GPUs of the fleet (`seats`): the same host's
 * overlapping GPUs, or a count of a model that host has; a want the fleet cannot place counts as
 * competing. Pure.
 */
export function wantsCompete(a: QueueWant, b: QueueWant, seats: readonly SeatModel[]): boolean {
  const left = reach(a, seats);
  const right = reach(b, seats);
  if (left.size === 0 || right.size === 0) return true;
  for (const [host, gpus] of left) {
    if (!right.has(host)) continue;
    const other = right.get(host) ?? null;
    if (gpus === null || other === null) return true;
    for (const index of gpus) if (other.has(index)) return true;
  }
  return false;
}

/**
 * A request's place in line: 1 + the requests ahead of it (`ahead`, in the line's order) that could
 * take some of the same GPUs. Requests for other hosts or models do not count. Pure.
 */
export function placeInLine(
  want: QueueWant,
  ahead: readonly QueueWant[],
  seats: readonly SeatModel[],
): number {
  return ahead.filter((other) => wantsCompete(want, other, seats)).length + 1;
}
