import type { Source } from "../../domain/source.ts";
import type { SimulatedSource } from "../../sources/simulated-source.ts";
import type { CycleWriter } from "./poll-fleet.ts";

/**
 * Writes the recent past of the simulated fleet into a fresh store, one cycle per poll interval,
 * so a first run shows idle hosts at once instead of after the idle window. The simulator is a pure
 * function of time, so its past is as real as its present. Returns the cycles written.
 */
export function backfillSimulated(
  sources: readonly Source[],
  store: CycleWriter,
  options: { nowMs: number; windowMs: number; stepMs: number },
): number {
  const simulated = sources.filter((source): source is SimulatedSource => source.kind === "simulated");
  if (simulated.length === 0) return 0;
  let cycles = 0;
  const first = options.nowMs - options.windowMs;
  for (let atMs = first - (first % options.stepMs); atMs < options.nowMs; atMs += options.stepMs) {
    store.writeCycle(
      simulated.flatMap((source) => source.fleet.observe(atMs)),
      atMs,
    );
    cycles++;
  }
  return cycles;
}
