import type { GpuSeat } from "../../checks/claim-pick.ts";
import { classifyGpu } from "../../checks/classify-gpu.ts";
import type { GpuReading } from "../../domain/observation.ts";
import { MINUTE_MS } from "../../shared/clock.ts";
import type { MetricsStore } from "../../store/metrics-types.ts";
import { knownHosts } from "../fleet/known-hosts.ts";
import type { ClaimDeps } from "./claim-deps.ts";

/** One GPU as the claim use-cases see it now: its stored model and its latest fresh reading. */
export interface GpuNow extends GpuSeat {
  /** `null`: no fresh reading. */
  utilPct: number | null;
  reading: GpuReading | null;
}

/**
 * Every GPU of `host` the bot knows: those ever stored for it and those in its latest observation,
 * by index. A reading older than `staleAfterMinutes` or a failed poll leaves the GPU `unknown`.
 */
export function hostGpusNow(
  deps: Pick<ClaimDeps, "metrics" | "fleet" | "idlePolicy">,
  host: string,
  nowMs: number,
  records: ReadonlyMap<string, ReadonlyArray<{ index: number; model: string | null }>> = storedGpus(deps),
): GpuNow[] {
  const observation = deps.fleet.latest(host)?.observation;
  const fresh =
    observation?.ok === true && nowMs - observation.atMs <= deps.idlePolicy.staleAfterMinutes * MINUTE_MS
      ? observation
      : null;
  const stored = records.get(host) ?? [];
  const indexes = new Set([
    ...stored.map((gpu) => gpu.index),
    ...(observation?.ok === true ? observation.gpus.map((gpu) => gpu.index) : []),
  ]);
  return [...indexes]
    .sort((a, b) => a - b)
    .map((index) => {
      const reading = fresh?.gpus.find((gpu) => gpu.index === index) ?? null;
      const model =
        reading?.model ??
        (observation?.ok === true ? observation.gpus.find((gpu) => gpu.index === index)?.model : null) ??
        stored.find((gpu) => gpu.index === index)?.model ??
        null;
      const gpuClass = reading === null ? "unknown" : classifyGpu(reading, deps.idlePolicy.idleUtilPct).class;
      // NOTE: a suspect reading (100 % with no memory at idle power) says nothing reliable about the seat.
      const state = gpuClass === "suspect" ? "unknown" : gpuClass;
      return {
        host,
        index,
        model,
        state,
        utilPct: state === "unknown" ? null : (reading?.utilPct ?? null),
        reading,
      };
    });
}

/** {@link hostGpusNow} for every known host, by host name (sorted). */
export function fleetGpusNow(
  deps: Pick<ClaimDeps, "metrics" | "fleet" | "idlePolicy" | "config">,
  nowMs: number,
): Map<string, GpuNow[]> {
  const records = storedGpus(deps);
  return new Map(knownHosts(deps).map((host) => [host, hostGpusNow(deps, host, nowMs, records)]));
}

function storedGpus(
  deps: Pick<ClaimDeps, "metrics">,
): Map<string, ReadonlyArray<{ index: number; model: string | null }>> {
  return new Map(deps.metrics.hosts().map((record) => [record.name, record.gpus]));
}

/** Each stored GPU's total memory (`host:index` → MiB; `null`: never reported), in one read. */
export function storedMemory(deps: { metrics: Pick<MetricsStore, "hosts"> }): Map<string, number | null> {
  return new Map(
    deps.metrics
      .hosts()
      .flatMap((host) => host.gpus.map((gpu) => [`${host.name}:${gpu.index}`, gpu.memTotalMiB])),
  );
}
