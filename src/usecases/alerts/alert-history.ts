import { classifyHost, type HostSample } from "../../checks/classify-host.ts";
import type { IdlePolicy } from "../../checks/idle-policy.ts";
import type {
  HostRecord,
  GpuSample as StoredGpuSample,
  HostSample as StoredHostSample,
} from "../../domain/metrics.ts";
import type { GpuReading, HostObservation, LoginSession } from "../../domain/observation.ts";

const MINUTE_MS = 60_000;

export interface HostHistory {
  record: HostRecord;
  /** `hostSamplesSince`, oldest first. */
  hostSamples: readonly StoredHostSample[];
  /** `gpuSamplesSince` over the same span, oldest first, then by GPU index. */
  gpuSamples: readonly StoredGpuSample[];
  /** The host's latest observation, with its processes and sessions. */
  latest: HostObservation | null;
}

/**
 * The idle checks' samples of a host rebuilt from stored history, for `evaluateHost` after a restart.
 *
 * The store keeps readings but, for past polls, only the number of login sessions. A session's
 * idle time then is the latest observation's, taken back in time when the latest shows as many
 * sessions; otherwise the sessions count as active (unknown age), which never makes a host idle.
 */
export function samplesFromHistory(history: HostHistory, policy: IdlePolicy): HostSample[] {
  const { record, hostSamples, gpuSamples, latest } = history;
  const migByIndex = new Map(record.gpus.map((gpu) => [gpu.index, gpu]));
  const out: HostSample[] = [];
  let g = 0;
  for (let i = 0; i < hostSamples.length; i++) {
    const stored = hostSamples[i]!;
    const readings: GpuReading[] = [];
    const seen = new Set<number>();
    while (g < gpuSamples.length) {
      const sample = gpuSamples[g]!;
      if (sample.atMs !== stored.atMs || seen.has(sample.index)) break;
      seen.add(sample.index);
      g++;
      const gpu = migByIndex.get(sample.index);
      readings.push({
        index: sample.index,
        uuid: gpu?.uuid ?? null,
        model: gpu?.model ?? null,
        utilPct: sample.utilPct,
        memUsedMiB: sample.memUsedMiB,
        memTotalMiB: gpu?.memTotalMiB ?? null,
        powerW: sample.powerW,
        tempC: sample.tempC,
        mig: gpu?.mig ?? false,
        processes: [],
      });
    }
    if (!stored.ok) {
      out.push({
        atMs: stored.atMs,
        ok: false,
        cause: stored.cause ?? "error",
        message: stored.message ?? `${record.name}: ${stored.cause ?? "error"}`,
      });
      continue;
    }
    const isLatest =
      i === hostSamples.length - 1 && latest !== null && latest.ok && latest.atMs === stored.atMs;
    const observation: HostObservation = isLatest
      ? latest
      : {
          host: record.name,
          source: record.source,
          atMs: stored.atMs,
          ok: true,
          gpus: readings,
          sessions: sessionsAt(stored, latest),
          cpuLoad1: stored.cpuLoad1,
          cpuUtilPct: stored.cpuUtilPct,
          containers: [],
        };
    out.push(classifyHost(observation, policy));
  }
  return out;
}

function sessionsAt(stored: StoredHostSample, latest: HostObservation | null): LoginSession[] | null {
  if (stored.sessions === null) return null;
  const known = latest?.ok === true ? latest.sessions : null;
  if (known !== null && known.length === stored.sessions) {
    const agoMinutes = (latest!.atMs - stored.atMs) / MINUTE_MS;
    return known.map((session) => ({
      ...session,
      idleMinutes: session.idleMinutes === null ? null : Math.max(0, session.idleMinutes - agoMinutes),
    }));
  }
  return Array.from({ length: stored.sessions }, () => ({
    user: "?",
    line: "?",
    from: null,
    idleMinutes: null,
  }));
}
