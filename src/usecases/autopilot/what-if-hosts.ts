import { classifyGpu } from "../../checks/classify-gpu.ts";
import { classifyHost, type HostSample } from "../../checks/classify-host.ts";
import { hostCostBasis, hostHourCost } from "../../checks/cost-model.ts";
import type { IdlePolicy } from "../../checks/idle-policy.ts";
import { loginsOn } from "../../checks/login-people.ts";
import type { Tariff } from "../../checks/tariff-price.ts";
import type { ReplayHost } from "../../checks/what-if-replay.ts";
import type { Config } from "../../config/schema.ts";
import type { HostRecord } from "../../domain/metrics.ts";
import type { GpuReading, HostObservation, SourceKind } from "../../domain/observation.ts";
import { failed } from "../../domain/observation.ts";
import type { MetricsStore } from "../../store/metrics-types.ts";
import { samplesFromHistory } from "../alerts/alert-history.ts";

/** What pricing and the holders of a replayed host need. */
export interface ReplayPricing {
  config: Config;
  tariff: Tariff;
}

/** A replayed host: its samples, its prices, and who held it at its latest observation in the store. */
export function replayHostOf(
  pricing: ReplayPricing,
  host: { name: string; source: SourceKind; samples: readonly HostSample[]; latest: HostObservation | null },
  sinceMs: number,
): ReplayHost {
  const { config, tariff } = pricing;
  const basis = hostCostBasis(config.hosts[host.name], config.costs);
  const onPerHour = hostHourCost(basis, tariff, host.samples[0]?.atMs ?? sinceMs);
  const offPerHour =
    basis.kind === "owned"
      ? basis.capitalPerHour + basis.upkeepPerHour
      : basis.kind === "rate" && basis.billedWhenOff
        ? basis.costPerHour
        : 0;
  return {
    host: host.name,
    source: host.source,
    samples: host.samples,
    onPerHour,
    savedPerHour: onPerHour === null ? null : Math.max(0, onPerHour - offPerHour),
    latestHolders: [...loginsOn(host.latest)].sort(),
  };
}

/** A host of the store replayed from the store's raw readings since `sinceMs`. */
export function storeReplayHost(
  pricing: ReplayPricing & { idlePolicy: IdlePolicy },
  metrics: Pick<MetricsStore, "hostSamplesSince" | "gpuSamplesSince">,
  record: HostRecord,
  latest: HostObservation | null,
  sinceMs: number,
): ReplayHost {
  const samples = samplesFromHistory(
    {
      record,
      hostSamples: metrics.hostSamplesSince(record.name, sinceMs),
      gpuSamples: metrics.gpuSamplesSince(record.name, sinceMs),
      latest,
    },
    pricing.idlePolicy,
  );
  return replayHostOf(pricing, { name: record.name, source: record.source, samples, latest }, sinceMs);
}

/** One host's samples built from an engine's observations as they come, in time order. */
export interface EngineSampler {
  add(observation: HostObservation): void;
  /** The samples, each with every GPU the host had in the span (a silent one without a reading). */
  finish(): HostSample[];
}

/**
 * The idle checks' samples of one host from an engine's history (`readingsHistory`, one step apart
 * where the engine had data), built as the observations come so they need not be held. Unknown is
 * never idle: a step between two of the host's observations with none is a failed sample, and a GPU
 * the host had in the span but that has no data at a step is a GPU without a reading there. The
 * engine shows no login sessions (`null`): the GPUs alone decide, as for the live bot's Prometheus hosts.
 */
export function engineSampler(stepMs: number, idlePolicy: IdlePolicy): EngineSampler {
  const slots = new Map<number, GpuReading>();
  const out: HostSample[] = [];
  let previousMs: number | null = null;
  return {
    add(observation) {
      if (previousMs !== null) {
        for (let atMs = previousMs + stepMs; atMs < observation.atMs; atMs += stepMs) {
          const gap = failed(observation.host, observation.source, atMs, "missing", GAP_MESSAGE);
          out.push(classifyHost(gap, idlePolicy));
        }
      }
      previousMs = observation.atMs;
      if (observation.ok)
        for (const gpu of observation.gpus) if (!slots.has(gpu.index)) slots.set(gpu.index, gpu);
      out.push(classifyHost(observation, idlePolicy));
    },
    finish() {
      const silent = [...slots.values()].map((gpu) =>
        classifyGpu(
          { ...gpu, utilPct: null, memUsedMiB: null, powerW: null, tempC: null, processes: [] },
          idlePolicy.idleUtilPct,
        ),
      );
      for (let i = 0; i < out.length; i++) {
        const sample = out[i]!;
        if (!sample.ok || sample.gpus.length === slots.size) continue;
        const present = new Set(sample.gpus.map((gpu) => gpu.index));
        const gpus = [...sample.gpus, ...silent.filter((gpu) => !present.has(gpu.index))];
        out[i] = { ...sample, gpus: gpus.sort((a, b) => a.index - b.index) };
      }
      return out;
    },
  };
}

/** A replay's gap sample is never shown to anyone. */
const GAP_MESSAGE = "no data"; // words-ok: never shown, the replay only counts it as unknown
