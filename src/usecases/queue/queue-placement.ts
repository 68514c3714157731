import { meetsMemoryFloor } from "../../checks/placement.ts";
import { tariffOf } from "../../checks/tariff-price.ts";
import { valleyNow, valleyOf } from "../../checks/valley-window.ts";
import type { QueueWant } from "../../domain/queue-request.ts";
import { migParts } from "../../shared/gpu-slot.ts";
import type { ClaimDeps } from "../claims/claim-deps.ts";
import { type GpuNow, storedMemory } from "../claims/claim-seats.ts";

/** The seats a waiting request may be granted now, and when its grant must end (`null`: no limit). */
export interface QueueSeats {
  seats: GpuNow[];
  endMs: number | null;
}

/**
 * What a request's placement words allow during one grant pass: with a memory floor, only whole GPUs
 * known to have that much memory (counted as `/gpu claim` does at once: `meetsMemoryFloor`); with
 * `valley`, nothing outside the tariff's valley window and a grant that ends with it (`null`: not
 * now). Tariff and stored memory are read once per pass.
 */
export function queueSeatsFor(
  deps: Pick<ClaimDeps, "config" | "metrics">,
  nowMs: number,
): (want: QueueWant, seats: GpuNow[]) => QueueSeats | null {
  let valleyEnd: number | null | undefined;
  let memory: Map<string, number | null> | undefined;
  const valleyEndNow = (): number | null => {
    if (valleyEnd !== undefined) return valleyEnd;
    const tariff = tariffOf(deps.config.costs.electricity, deps.config.team.timezone);
    const window = valleyOf(tariff);
    const now = window === null ? null : valleyNow(tariff, window, nowMs);
    valleyEnd = now?.inside === true ? now.endMs : null;
    return valleyEnd;
  };
  const memOf = (seat: GpuNow): number | null => {
    memory ??= storedMemory(deps);
    return seat.reading?.memTotalMiB ?? memory.get(`${seat.host}:${seat.index}`) ?? null;
  };
  return (want, seats) => {
    if (want.kind !== "count") return { seats, endMs: null };
    const endMs = want.valley === true ? valleyEndNow() : null;
    if (want.valley === true && endMs === null) return null;
    const floor = want.floorMiB;
    if (floor === undefined) return { seats, endMs };
    const fitting = seats.filter(
      (seat) => migParts(seat.index) === null && meetsMemoryFloor(memOf(seat), floor),
    );
    return { seats: fitting, endMs };
  };
}
