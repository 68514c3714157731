import { matchModels } from "../../checks/claim-model.ts";
import { meetsMemoryFloor } from "../../checks/placement.ts";
import { placeInLine } from "../../checks/queue-competes.ts";
import {
  type Estimate,
  type EtaDemand,
  estimateLine,
  estimateTurn,
  nextUsuallyFree,
} from "../../checks/queue-eta.ts";
import { profileWindow, type WeekProfiles } from "../../checks/week-profile.ts";
import { buildWeekProfilesAt } from "../../checks/week-profiles-at.ts";
import type { Config } from "../../config/schema.ts";
import type { QueueRequest, QueueWant } from "../../domain/queue-request.ts";
import { HOUR_MS } from "../../shared/clock.ts";
import type { ClaimStore } from "../../store/claim-store.ts";
import type { MetricsStore } from "../../store/metrics-types.ts";
import type { QueueStore } from "../../store/queue-store.ts";
import { storedMemory } from "../claims/claim-seats.ts";

/** What the estimates read: the hourly rollups and the stored GPUs, in the team zone. */
export interface EtaDeps {
  metrics: Pick<MetricsStore, "rollupHours" | "hosts">;
  config: { team: Pick<Config["team"], "timezone"> };
}

const cache = new WeakMap<object, { hour: number; profiles: WeekProfiles }>();

/**
 * The fleet's hour-of-week profiles at `nowMs` (the last 8 weeks of rollups), built once per clock
 * hour and metrics store: the rollups change only hourly.
 */
export function readWeekProfiles(deps: EtaDeps, nowMs: number): WeekProfiles {
  const hour = Math.floor(nowMs / HOUR_MS);
  const cached = cache.get(deps.metrics);
  if (cached !== undefined && cached.hour === hour) return cached.profiles;
  const window = profileWindow(nowMs);
  const models = new Map<string, string | null>();
  for (const host of deps.metrics.hosts()) {
    for (const gpu of host.gpus) models.set(`${host.name}:${gpu.index}`, gpu.model);
  }
  const { gpus, at } = deps.metrics.rollupHours();
  const profiles = buildWeekProfilesAt(at, gpus, models, window, deps.config.team.timezone);
  cache.set(deps.metrics, { hour, profiles });
  return profiles;
}

/** A waiting request with its position and estimated time. */
export interface QueueEstimate {
  request: QueueRequest;
  /** Its number in the whole line. */
  position: number;
  /** Its place among the requests that could take the same GPUs (1: next for them). */
  place: number;
  estimate: Estimate;
}

/** The estimated time of each of `waiting` (in line order) from the hour-of-week profile. */
export function estimateQueue(
  deps: EtaDeps,
  waiting: readonly QueueRequest[],
  nowMs: number,
  claims: ReadonlyArray<{ host: string; gpuIndex: number | null; untilMs: number }> = [],
): QueueEstimate[] {
  const profiles = readWeekProfiles(deps, nowMs);
  const claimedUntil = claimedUntilOf(deps, claims);
  const fleetModels = [...new Set(profiles.gpus.flatMap((gpu) => (gpu.model === null ? [] : [gpu.model])))];
  const matched = new Map<string, string[]>();
  const modelsOf = (query: string) => {
    let models = matched.get(query);
    if (models === undefined) {
      models = matchModels(query, fleetModels);
      matched.set(query, models);
    }
    return models;
  };
  const line = waiting.map((request) => demandOf(request, modelsOf, deps));
  const estimates = estimateLine(profiles, line, nowMs, claimedUntil);
  return waiting.map((request, i) => ({
    request,
    position: i + 1,
    place: placeInLine(
      request.want,
      waiting.slice(0, i).map((ahead) => ahead.want),
      profiles.gpus,
    ),
    estimate: estimates[i] as Estimate,
  }));
}

/** `host:index` → when the claim on that GPU (or its whole host) ends. */
function claimedUntilOf(
  deps: EtaDeps,
  claims: ReadonlyArray<{ host: string; gpuIndex: number | null; untilMs: number }>,
): Map<string, number> {
  const records = new Map(deps.metrics.hosts().map((host) => [host.name, host.gpus]));
  const until = new Map<string, number>();
  for (const claim of claims) {
    const indexes =
      claim.gpuIndex === null ? (records.get(claim.host) ?? []).map((gpu) => gpu.index) : [claim.gpuIndex];
    for (const index of indexes) {
      const key = `${claim.host}:${index}`;
      until.set(key, Math.max(until.get(key) ?? 0, claim.untilMs));
    }
  }
  return until;
}

function demandOf(request: QueueRequest, modelsOf: (query: string) => string[], deps: EtaDeps): EtaDemand {
  const { want } = request;
  if (want.kind === "count") {
    const models = want.model === null ? null : modelsOf(want.model);
    const enough = memoryFloor(deps, want.floorMiB);
    return {
      fits: (gpu) => (models === null || (gpu.model !== null && models.includes(gpu.model))) && enough(gpu),
      count: want.count,
      durationMs: request.durationMs,
    };
  }
  const count = want.gpus?.length ?? hostGpuCount(deps, want);
  return {
    fits: (gpu) => gpu.host === want.host && (want.gpus === null || want.gpus.includes(gpu.index)),
    count,
    durationMs: request.durationMs,
  };
}

/** Whether a GPU's stored memory reaches `floorMiB` (`meetsMemoryFloor`; always, without a floor). */
function memoryFloor(
  deps: EtaDeps,
  floorMiB: number | undefined,
): (gpu: { host: string; index: number }) => boolean {
  if (floorMiB === undefined) return () => true;
  const memory = storedMemory(deps);
  return (gpu) => meetsMemoryFloor(memory.get(`${gpu.host}:${gpu.index}`) ?? null, floorMiB);
}

function hostGpuCount(deps: EtaDeps, want: Extract<QueueWant, { kind: "slots" }>): number {
  return deps.metrics.hosts().find((host) => host.name === want.host)?.gpus.length ?? 1;
}

/** When each of `hosts` is usually free again (every GPU of it), from the profile. */
export function usualFreeOf(deps: EtaDeps, hosts: readonly string[], nowMs: number): Map<string, Estimate> {
  const profiles = readWeekProfiles(deps, nowMs);
  const records = new Map(deps.metrics.hosts().map((host) => [host.name, host.gpus]));
  return new Map(
    hosts.map((host) => {
      const members = (records.get(host) ?? []).map((gpu) => ({ host, index: gpu.index }));
      return [host, nextUsuallyFree(profiles, members, nowMs)];
    }),
  );
}

/** Per GPU model: how many GPUs, and when one is usually free next. */
export interface ModelLine {
  model: string;
  gpus: number;
  estimate: Estimate;
}

/** The line for each GPU model: when one GPU of it is usually free next. */
export function modelLines(deps: EtaDeps, nowMs: number): ModelLine[] {
  const profiles = readWeekProfiles(deps, nowMs);
  const byModel = new Map<string, number>();
  for (const host of deps.metrics.hosts()) {
    for (const gpu of host.gpus) {
      if (gpu.model !== null) byModel.set(gpu.model, (byModel.get(gpu.model) ?? 0) + 1);
    }
  }
  return [...byModel.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([model, gpus]) => ({
      model,
      gpus,
      estimate: estimateTurn(
        profiles,
        [{ fits: (gpu) => gpu.model === model, count: 1, durationMs: HOUR_MS }],
        nowMs,
      ),
    }));
}

/** What App Home shows of the waiting list: the reader's requests in line with estimates, and each model's line. */
export interface HomeQueue {
  mine: QueueEstimate[];
  models: ModelLine[];
}

/** `user`'s waiting requests with their places and estimates, and the line for each GPU model. */
export function readHomeQueue(
  deps: EtaDeps & { state: { queue: Pick<QueueStore, "waiting">; claims: Pick<ClaimStore, "activeAt"> } },
  user: string,
  nowMs: number,
): HomeQueue {
  const waiting = deps.state.queue.waiting();
  if (!waiting.some((request) => request.user === user)) return { mine: [], models: modelLines(deps, nowMs) };
  const claims = deps.state.claims.activeAt(nowMs);
  const mine = estimateQueue(deps, waiting, nowMs, claims).filter(
    (estimate) => estimate.request.user === user,
  );
  return { mine, models: modelLines(deps, nowMs) };
}
