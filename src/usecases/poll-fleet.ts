import { failed, type HostObservation } from "../domain/observation.ts";
import type { Source } from "../domain/source.ts";
import type { BotMetrics } from "../observability/metrics.ts";
import type { Clock } from "../shared/clock.ts";
import type { Logger } from "../shared/logger.ts";

/** Where a poll cycle goes: written in one transaction by the store. */
export interface CycleWriter {
  writeCycle(observations: readonly HostObservation[], atMs: number): unknown;
}

export interface PollFleetDeps {
  sources: readonly Source[];
  store: CycleWriter | null;
  clock: Clock;
  logger: Logger;
  metrics: BotMetrics | null;
  /** A source still running after this long is aborted; its hosts become unknown. */
  timeoutMs: number;
}

export interface PollResult {
  atMs: number;
  observations: HostObservation[];
  durationMs: number;
  gpuSamples: number;
}

/**
 * One poll cycle: every source in parallel under one deadline, one observation per host (a source that
 * throws or overruns makes its hosts unknown), then one store write.
 */
export async function pollFleet(deps: PollFleetDeps): Promise<PollResult> {
  const { sources, clock, logger } = deps;
  const atMs = clock.now();
  const startedAt = performance.now();
  // NOTE: a signal per source: each of a source's commands and requests listens for the deadline on
  // it, so listeners grow with one source's concurrency, not with the size of the fleet.
  const controllers = sources.map(() => new AbortController());
  const timer = setTimeout(() => {
    for (const controller of controllers) controller.abort(new Error("poll deadline"));
  }, deps.timeoutMs);
  let settled: PromiseSettledResult<HostObservation[]>[];
  try {
    settled = await Promise.allSettled(sources.map((source, i) => source.poll(controllers[i]!.signal)));
  } finally {
    clearTimeout(timer);
  }

  const byHost = new Map<string, HostObservation>();
  settled.forEach((result, i) => {
    const source = sources[i]!;
    const observations =
      result.status === "fulfilled"
        ? result.value
        : source.hosts.map((host) =>
            failed(
              host,
              source.kind,
              atMs,
              "error",
              // words-ok: a source's diagnostic, quoted as the sources' own error text is
              `${host}: ${source.kind} source failed: ${reason(result.reason)}`,
            ),
          );
    if (result.status === "rejected") {
      logger.error(
        { source: source.kind, err: reason(result.reason) },
        "source failed; its hosts are unknown",
      );
    }
    for (const observation of observations) {
      const existing = byHost.get(observation.host);
      if (existing && existing.source !== observation.source) {
        logger.warn(
          { host: observation.host, kept: existing.source, dropped: observation.source },
          "host reported by two sources; keeping the first",
        );
        continue;
      }
      byHost.set(observation.host, observation);
    }
  });

  const observations = [...byHost.values()];
  const gpuSamples = observations.reduce((sum, obs) => sum + (obs.ok ? obs.gpus.length : 0), 0);
  deps.store?.writeCycle(observations, atMs);
  const durationMs = performance.now() - startedAt;

  const metrics = deps.metrics;
  if (metrics) {
    metrics.pollDuration.observe({ result: "ok" }, durationMs / 1000);
    metrics.samplesWritten.inc(deps.store ? gpuSamples : 0);
    let unknown = 0;
    for (const obs of observations) {
      if (obs.ok) continue;
      unknown++;
      metrics.sourceFailures.inc({ host: obs.host, source: obs.source, cause: obs.cause });
    }
    metrics.hostsObserved.set({ state: "ok" }, observations.length - unknown);
    metrics.hostsObserved.set({ state: "unknown" }, unknown);
  }
  return { atMs, observations, durationMs, gpuSamples };
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
