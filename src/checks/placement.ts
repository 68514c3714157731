import type { Claim } from "../domain/claim.ts";
import type { SeatState } from "./claim-pick.ts";
import type { HostCostBasis } from "./cost-model.ts";

/** A GPU's memory counts toward a floor when it is within this share of it (`24g`: a 4090's 24,564 MiB). */
export const MEMORY_FLOOR_SLACK = 0.97;

/** Whether a GPU with `memTotalMiB` (`null`: unknown) has `floorMiB` of memory, within {@link MEMORY_FLOOR_SLACK}. Pure. */
export function meetsMemoryFloor(memTotalMiB: number | null, floorMiB: number): boolean {
  return memTotalMiB !== null && memTotalMiB >= floorMiB * MEMORY_FLOOR_SLACK;
}

/** One GPU as placement sees it: its state now, its memory and its host's price per GPU-hour. */
export interface PlacementSeat {
  host: string;
  index: number;
  model: string | null;
  state: SeatState;
  memTotalMiB: number | null;
  /** `null`: the host has no price (it goes after every priced one). */
  pricePerGpuHour: number | null;
}

export type PlacementResult =
  | {
      kind: "placed";
      /** One entry per host, cheapest first. */
      picks: Array<{ host: string; gpus: number[]; pricePerGpuHour: number | null }>;
      /** The chosen GPUs' price per hour together; `null` when any has no price. */
      pricePerHour: number | null;
    }
  /** Fewer free GPUs with enough memory than asked for. */
  | { kind: "short"; free: number; fitting: number };

/**
 * The free, idle GPUs with at least `floorMiB` of memory (within {@link MEMORY_FLOOR_SLACK}) that
 * cost least per GPU-hour: on one host when one host has enough (the cheapest such host, then the
 * one left with the fewest free GPUs, then by name), else the cheapest GPUs over as few hosts as the
 * price order allows. Free: no claim in force on the GPU or its whole host; a GPU without a fresh
 * reading or busy without a claim is not free. Pure.
 */
export function placeByPrice(
  seats: readonly PlacementSeat[],
  claims: readonly Pick<Claim, "host" | "gpuIndex">[],
  count: number,
  floorMiB: number,
): PlacementResult {
  const wholeHost = new Set(claims.filter((claim) => claim.gpuIndex === null).map((claim) => claim.host));
  const taken = new Set(claims.map((claim) => `${claim.host}:${claim.gpuIndex}`));
  const fitting = seats.filter((seat) => meetsMemoryFloor(seat.memTotalMiB, floorMiB));
  const free = fitting.filter(
    (seat) => seat.state === "idle" && !wholeHost.has(seat.host) && !taken.has(`${seat.host}:${seat.index}`),
  );
  if (free.length < count) return { kind: "short", free: free.length, fitting: fitting.length };
  const byHost = new Map<string, PlacementSeat[]>();
  for (const seat of free) byHost.set(seat.host, [...(byHost.get(seat.host) ?? []), seat]);
  const price = (seat: PlacementSeat) => seat.pricePerGpuHour ?? Number.POSITIVE_INFINITY;
  for (const list of byHost.values()) list.sort((a, b) => price(a) - price(b) || a.index - b.index);
  const hostCost = (list: PlacementSeat[]) =>
    list.slice(0, count).reduce((sum, seat) => sum + price(seat), 0);
  const whole = [...byHost.entries()]
    .filter(([, list]) => list.length >= count)
    .sort(([a, x], [b, y]) => hostCost(x) - hostCost(y) || x.length - y.length || a.localeCompare(b));
  const chosen =
    whole.length > 0
      ? (whole[0]?.[1] ?? []).slice(0, count)
      : [...free]
          .sort((a, b) => price(a) - price(b) || a.host.localeCompare(b.host) || a.index - b.index)
          .slice(0, count);
  return picksOf(chosen);
}

function picksOf(chosen: readonly PlacementSeat[]): PlacementResult {
  const hosts = [...new Set(chosen.map((seat) => seat.host))];
  const picks = hosts.map((host) => {
    const mine = chosen.filter((seat) => seat.host === host);
    return {
      host,
      gpus: mine.map((seat) => seat.index).sort((a, b) => a - b),
      pricePerGpuHour: mine[0]?.pricePerGpuHour ?? null,
    };
  });
  const unpriced = chosen.some((seat) => seat.pricePerGpuHour === null);
  const pricePerHour = unpriced ? null : chosen.reduce((sum, seat) => sum + (seat.pricePerGpuHour ?? 0), 0);
  return { kind: "placed", picks, pricePerHour };
}

/**
 * A host's price per GPU-hour at a tariff price: a rate shared by its GPUs; owned hardware's
 * write-off and upkeep shared by its GPUs, plus its rated power's share at `pricePerKWh`; `null`
 * without a price. Pure.
 */
export function pricePerGpuHour(basis: HostCostBasis, gpus: number, pricePerKWh: number): number | null {
  if (gpus <= 0) return null;
  switch (basis.kind) {
    case "rate":
      return basis.costPerHour / gpus;
    case "owned": {
      const power = basis.ratedWatts === null ? 0 : (basis.ratedWatts / 1000) * pricePerKWh;
      return (basis.capitalPerHour + basis.upkeepPerHour + power) / gpus;
    }
    case "none":
      return null;
    default:
      return basis satisfies never;
  }
}

/** The energy one GPU of the host draws in an hour at its rated power, kWh; `0` when it pays no power (a rate) or has no rating. */
export function kWhPerGpuHour(basis: HostCostBasis, gpus: number): number {
  if (basis.kind === "rate" || basis.ratedWatts === null || gpus <= 0) return 0;
  return basis.ratedWatts / 1000 / gpus;
}
