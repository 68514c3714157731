import { hostCostBasis } from "../../checks/cost-model.ts";
import {
  kWhPerGpuHour,
  type PlacementResult,
  type PlacementSeat,
  placeByPrice,
  pricePerGpuHour,
} from "../../checks/placement.ts";
import { tariffAt, tariffOf } from "../../checks/tariff-price.ts";
import { valleyNow, valleyOf } from "../../checks/valley-window.ts";
import { migParts } from "../../shared/gpu-slot.ts";
import { type ClaimDeps, claimRulesOf } from "./claim-deps.ts";
import { type ClaimGpusResult, claimGpus } from "./claim-gpus.ts";
import { fleetGpusNow, storedMemory } from "./claim-seats.ts";

/** `/gpu claim <n> gpus>=<memory> [--valley]`: any `count` GPUs with enough memory, the cheapest. */
export interface PlacedClaimRequest {
  actor: string;
  count: number;
  /** The memory floor in MiB. */
  floorMiB: number;
  /** Batch work: granted only inside the tariff's valley window, and only until it ends. */
  valley: boolean;
  durationMs: number | null;
  note: string;
}

/** What the valley changes for a `--valley` request. */
export interface ValleyTerms {
  /** The valley window's name in the config, and its price per kWh against the base price. */
  window: string;
  valleyPricePerKWh: number;
  basePricePerKWh: number;
}

export type PlacedClaimResult =
  | {
      kind: "placed";
      /** The claims made (each a `claimed` result, one per host). */
      claimed: ClaimGpusResult[];
      placement: Extract<PlacementResult, { kind: "placed" }>;
      durationMs: number;
      /** With `--valley`: until when (the valley's end) and what it saves per hour against the base price. */
      valley: (ValleyTerms & { endMs: number; savedPerHour: number }) | null;
    }
  /** Too few free GPUs with enough memory. */
  | { kind: "short"; free: number; fitting: number; floorMiB: number; count: number }
  /** A claim on one of the chosen hosts failed (someone was faster, or too long). */
  | { kind: "claim"; result: ClaimGpusResult }
  /** `--valley` with a tariff that has no window cheaper than its base price. */
  | { kind: "no-valley" }
  /** `--valley` outside the valley: not granted; when it starts next and what it would save per GPU-hour. */
  | { kind: "outside-valley"; startMs: number; terms: ValleyTerms };

/**
 * Claims the `count` free GPUs with at least the memory asked for that cost least per GPU-hour
 * (see {@link placeByPrice}), packed on one host when one has enough. With `--valley` only inside
 * the tariff's valley window, the claim cut to end with it. Each host's GPUs are claimed through
 * {@link claimGpus} (same checks, audit and effects).
 */
export function claimPlaced(deps: ClaimDeps, request: PlacedClaimRequest): PlacedClaimResult {
  const { config } = deps;
  const nowMs = deps.clock.now();
  const tariff = tariffOf(config.costs.electricity, config.team.timezone);
  let durationMs = request.durationMs ?? claimRulesOf(config).defaultMs;
  let valley: (ValleyTerms & { endMs: number }) | null = null;
  if (request.valley) {
    const window = valleyOf(tariff);
    if (window === null) return { kind: "no-valley" };
    const terms = {
      window: window.name,
      valleyPricePerKWh: window.pricePerKWh,
      basePricePerKWh: tariff.pricePerKWh,
    };
    const now = valleyNow(tariff, window, nowMs);
    if (!now.inside) return { kind: "outside-valley", startMs: now.startMs, terms };
    valley = { ...terms, endMs: now.endMs };
    durationMs = Math.min(durationMs, now.endMs - nowMs);
  }
  const pricePerKWh = tariffAt(tariff, nowMs).pricePerKWh;
  const seats = placementSeats(deps, nowMs, pricePerKWh);
  const placement = placeByPrice(seats, deps.state.claims.activeAt(nowMs), request.count, request.floorMiB);
  if (placement.kind === "short") return { ...placement, floorMiB: request.floorMiB, count: request.count };
  const claimed: ClaimGpusResult[] = [];
  for (const pick of placement.picks) {
    const result = claimGpus(deps, {
      actor: request.actor,
      target: { kind: "slots", slots: { host: pick.host, gpus: pick.gpus } },
      durationMs,
      note: request.note,
    });
    if (result.kind !== "claimed") return { kind: "claim", result };
    claimed.push(result);
  }
  if (valley === null) return { kind: "placed", claimed, placement, durationMs, valley: null };
  const kWh = placement.picks.reduce((sum, pick) => sum + kWhOf(deps, pick.host) * pick.gpus.length, 0);
  const savedPerHour = kWh * (valley.basePricePerKWh - valley.valleyPricePerKWh);
  return { kind: "placed", claimed, placement, durationMs, valley: { ...valley, savedPerHour } };
}

/** Every whole GPU of the fleet now with its memory and its host's price per GPU-hour. */
function placementSeats(deps: ClaimDeps, nowMs: number, pricePerKWh: number): PlacementSeat[] {
  const stored = storedMemory(deps);
  return [...fleetGpusNow(deps, nowMs).entries()].flatMap(([host, gpus]) => {
    const whole = gpus.filter((gpu) => migParts(gpu.index) === null);
    const basis = hostCostBasis(deps.config.hosts[host], deps.config.costs);
    const price = pricePerGpuHour(basis, whole.length, pricePerKWh);
    return whole.map((gpu) => ({
      host,
      index: gpu.index,
      model: gpu.model,
      state: gpu.state,
      memTotalMiB: gpu.reading?.memTotalMiB ?? stored.get(`${host}:${gpu.index}`) ?? null,
      pricePerGpuHour: price,
    }));
  });
}

function kWhOf(deps: ClaimDeps, host: string): number {
  const basis = hostCostBasis(deps.config.hosts[host], deps.config.costs);
  const gpus = deps.metrics.hosts().find((record) => record.name === host)?.gpus.length ?? 0;
  return kWhPerGpuHour(basis, gpus);
}
