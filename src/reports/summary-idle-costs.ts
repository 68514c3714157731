import type { HourChunk } from "./hour-rows.ts";
import { type ClaimedHour, gpuKey } from "./summary-accumulators.ts";
import type { Accumulators, RowPlaces } from "./summary-row-sums.ts";

/**
 * Adds each row's idle minutes at its hour's price to its GPU and host, overall and per day column
 * (marking the unpriced ones), and keeps the claimed GPUs' hours by GPU key and hour. The sums are
 * kept in flat arrays (by GPU place, host place and `host × columns + column`) and copied to the
 * accumulators at the end (each starts at 0).
 */
export class IdleCosts {
  readonly gpuCost: Float64Array;
  readonly gpuUnpriced: Uint8Array;
  readonly hostCost: Float64Array;
  readonly hostSaving: Float64Array;
  readonly hostUnpriced: Uint8Array;
  readonly dayCost: Float64Array;
  readonly claimed: Uint8Array;
  readonly claimedHours = new Map<string, Map<number, ClaimedHour>>();

  constructor(
    private readonly places: RowPlaces,
    private readonly columns: number,
  ) {
    const hosts = places.hosts.length;
    this.gpuCost = new Float64Array(places.gpus.length);
    this.gpuUnpriced = new Uint8Array(places.gpus.length);
    this.hostCost = new Float64Array(hosts);
    this.hostSaving = new Float64Array(hosts);
    this.hostUnpriced = new Uint8Array(hosts);
    this.dayCost = new Float64Array(hosts * columns);
    this.claimed = places.claimed;
  }

  /** One hour's rows at its prices by host place (`null`: the hour is outside the period's hours, no price). */
  add(chunk: HourChunk, cost: Float64Array | null, saving: Float64Array | null, column: number): void {
    costChunk(chunk, this.places, this, cost, saving, column, this.columns);
  }

  /** Copies the sums into the accumulators. */
  copyTo(accs: Accumulators): void {
    const { columns } = this;
    accs.gpus.forEach((gpu, g) => {
      gpu.idleCost = this.gpuCost[g]!;
      gpu.unpriced = this.gpuUnpriced[g] === 1;
    });
    accs.hosts.forEach((host, h) => {
      host.idleCost = this.hostCost[h]!;
      host.idleSaving = this.hostSaving[h]!;
      host.unpriced = this.hostUnpriced[h] === 1;
      host.dayIdleCost.set(this.dayCost.subarray(h * columns, (h + 1) * columns));
    });
  }
}

type CostSums = Omit<IdleCosts, "add" | "copyTo">;

/** One hour's rows at its prices by host place (`null`: the hour is outside the period's hours, no price). */
function costChunk(
  chunk: HourChunk,
  places: RowPlaces,
  costs: CostSums,
  cost: Float64Array | null,
  saving: Float64Array | null,
  column: number,
  columns: number,
): void {
  const { gpuCost, gpuUnpriced, hostCost, hostSaving, hostUnpriced, dayCost, claimed } = costs;
  const { gpuOf, hostOf } = places;
  const { gpu: rowGpu, idleMinutes } = chunk;
  for (let k = 0; k < rowGpu.length; k++) {
    const g = gpuOf[rowGpu[k]!]!;
    const h = hostOf[g]!;
    const idleMinuteCost = cost === null ? Number.NaN : cost[h]!;
    const idle = idleMinutes[k]!;
    // NOTE: a GPU in an hour without a price is unpriced even when it was busy then: otherwise a
    // host without a price that happened to be busy would show an idle cost of 0.
    if (Number.isNaN(idleMinuteCost) && (idle > 0 || cost !== null)) {
      gpuUnpriced[g] = 1;
      hostUnpriced[h] = 1;
    } else if (idle > 0) {
      gpuCost[g]! += idle * idleMinuteCost;
      hostCost[h]! += idle * idleMinuteCost;
      const stoppable = saving === null ? Number.NaN : saving[h]!;
      if (!Number.isNaN(stoppable)) hostSaving[h]! += idle * stoppable;
      if (cost !== null) dayCost[h * columns + column]! += idle * idleMinuteCost;
    }
    if (claimed[g]) addClaimedHour(costs.claimedHours, places.gpus[g]!, chunk, k, idleMinuteCost);
  }
}

function addClaimedHour(
  claimedHours: Map<string, Map<number, ClaimedHour>>,
  gpu: { host: string; index: number },
  chunk: HourChunk,
  k: number,
  idleMinuteCost: number,
): void {
  const key = gpuKey(gpu.host, gpu.index);
  let hours = claimedHours.get(key);
  if (hours === undefined) {
    hours = new Map();
    claimedHours.set(key, hours);
  }
  hours.set(chunk.hourMs, {
    busyMinutes: chunk.busyMinutes[k]!,
    idleMinutes: chunk.idleMinutes[k]!,
    idleMinuteCost,
  });
}
