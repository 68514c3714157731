import { failed, type HostObservation } from "../../domain/observation.ts";
import type { Source } from "../../domain/source.ts";
import type { BotMetrics } from "../../observability/metrics.ts";
import type { Clock } from "../../shared/clock.ts";
import type { Logger } from "../../shared/logger.ts";

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
 * One poll cycle: every source in parallel, each under its own deadline (its `pollDeadlineMs`, at most
 * the cycle's), one observation per host (a source that throws or overruns makes only its hosts
 * unknown; an overrunning one is aborted and not waited for), then one store write.
 */
export async function pollFleet(deps: PollFleetDeps): Promise<PollResult> {
  const { sources, clock, logger } = deps;
  const atMs = clock.now();
  const startedAt = performance.now();
  const settled = await Promise.allSettled(
    sources.map((source) =>
      pollWithin(source, Math.min(source.pollDeadlineMs ?? deps.timeoutMs, deps.timeoutMs)),
    ),
  );

  const byHost = new Map<string, HostObservation>();
  settled.forEach((result, i) => {
    const source = sources[i]!;
    const observations =
      result.status === "fulfilled" ? result.value : failedHosts(source, atMs, result.reason);
    if (result.status === "rejected") {
      logger.error(
        { source: source.kind, hosts: observations.length, err: reason(result.reason) },
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

/** A source's poll past its deadline: the poll was aborted and not waited for. */
export class SourceDeadlineError extends Error {
  constructor(readonly deadlineMs: number) {
    // words-ok: a source's diagnostic, quoted as the sources' own error text is
    super(`no answer within ${deadlineMs / 1000} s`);
    this.name = "SourceDeadlineError";
  }
}

/**
 * The source's poll with its own signal, given up at `deadlineMs`: the signal is aborted (its requests
 * and commands end) and the cycle goes on without waiting for the source to notice.
 */
async function pollWithin(source: Source, deadlineMs: number): Promise<HostObservation[]> {
  // NOTE: a signal per source: each of a source's commands and requests listens for the deadline on
  // it, so listeners grow with one source's concurrency, not with the size of the fleet.
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const cutOff = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      const error = new SourceDeadlineError(deadlineMs);
      controller.abort(error);
      reject(error);
    }, deadlineMs);
  });
  try {
    return await Promise.race([source.poll(controller.signal), cutOff]);
  } finally {
    clearTimeout(timer);
  }
}

function failedHosts(source: Source, atMs: number, error: unknown): HostObservation[] {
  const cause = error instanceof SourceDeadlineError ? "timeout" : "error";
  return source.hosts.map((host) =>
    // words-ok: a source's diagnostic, quoted as the sources' own error text is
    failed(host, source.kind, atMs, cause, `${host}: ${source.kind} source failed: ${reason(error)}`),
  );
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
