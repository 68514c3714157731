import type { HostObservation } from "../../domain/observation.ts";
import { hasHistory, type Source } from "../../domain/source.ts";
import { MINUTE_MS } from "../../shared/clock.ts";
import type { AlertRun } from "../alerts/idle-alert-run.ts";
import { SPARKLINE_MINUTES } from "../alerts/idle-alert-run.ts";
import type { UtilReading } from "../alerts/idle-alert-view.ts";
import type { PollResult } from "./poll-fleet.ts";

/** Hosts' recent utilisation per GPU as the time-series engine keeps it, read at `atMs`. */
export interface EngineHistory {
  atMs: number;
  byHost: Map<string, Map<number, UtilReading[]>>;
  /** Why sources that were asked did not answer (their hosts' sparklines come from the store). */
  failures: string[];
}

/** An engine read for a host is not repeated within this long (its alert's sparkline is seeded once). */
const ASKED_AGAIN_AFTER_MS = 30 * MINUTE_MS;

/**
 * The engine hosts of this poll whose alert may be drawn now without a sparkline to continue: an idle
 * stretch that reaches `idle_for` by this poll, or an open alert not drawn since the bot started.
 */
export function historyWanted(run: AlertRun, result: Pick<PollResult, "atMs" | "observations">): string[] {
  const reachMs =
    result.atMs - run.policy.idleForMinutes * MINUTE_MS + run.config.poll.interval_seconds * 1000;
  let openIds: Map<string, number> | undefined;
  return result.observations
    .filter((observation) => observation.ok && observation.source === "prometheus")
    .map((observation) => observation.host)
    .filter((host) => {
      const asked = run.engineHistory.get(host);
      if (asked !== undefined && result.atMs - asked.atMs < ASKED_AGAIN_AFTER_MS) return false;
      openIds ??= openIdleAlertIds(run);
      const openId = openIds.get(host);
      if (openId !== undefined) return !run.sparklineReadings.has(openId);
      const idleSinceMs = run.states.get(host)?.idleSinceMs ?? null;
      return idleSinceMs !== null && idleSinceMs <= reachMs;
    });
}

function openIdleAlertIds(run: AlertRun): Map<string, number> {
  const ids = new Map<string, number>();
  for (const alert of run.store.alerts.allOpen()) if (alert.kind === "idle") ids.set(alert.host, alert.id);
  return ids;
}

/** Keeps what the engine said, for the sparklines drawn next (see `recentUtil`). */
export function useHistory(run: AlertRun, history: EngineHistory): void {
  for (const [host, byGpu] of history.byHost) run.engineHistory.set(host, { atMs: history.atMs, byGpu });
  for (const [host, kept] of run.engineHistory) {
    if (history.atMs - kept.atMs > SPARKLINE_MINUTES * MINUTE_MS) run.engineHistory.delete(host);
  }
}

/**
 * The hosts' utilisation per GPU over the sparkline's span, one step a minute, each from the source that
 * reports it (a few queries per source for all its hosts, under the source's poll deadline).
 */
export async function readEngineHistory(
  sources: readonly Source[],
  hosts: readonly string[],
  atMs: number,
  signal: AbortSignal,
): Promise<EngineHistory> {
  const request = { fromMs: atMs - SPARKLINE_MINUTES * MINUTE_MS, toMs: atMs, stepMs: MINUTE_MS };
  const settled = await Promise.allSettled(
    sources.map((source) => {
      const reported = new Set(source.hosts);
      const own = hosts.filter((host) => reported.has(host));
      if (own.length === 0 || !hasHistory(source) || !source.hostsHistory) return Promise.resolve([]);
      const deadline =
        source.pollDeadlineMs === undefined
          ? signal
          : AbortSignal.any([signal, AbortSignal.timeout(source.pollDeadlineMs)]);
      return source.hostsHistory(own, request, deadline);
    }),
  );
  const answers: HostObservation[] = [];
  const failures: string[] = [];
  for (const result of settled) {
    if (result.status === "fulfilled") answers.push(...result.value);
    else failures.push(result.reason instanceof Error ? result.reason.message : String(result.reason));
  }
  const byHost = new Map<string, Map<number, UtilReading[]>>();
  for (const observation of answers) {
    if (!observation.ok) continue;
    let byGpu = byHost.get(observation.host);
    if (byGpu === undefined) {
      byGpu = new Map();
      byHost.set(observation.host, byGpu);
    }
    for (const gpu of observation.gpus) {
      const reading = { atMs: observation.atMs, utilPct: gpu.utilPct };
      const column = byGpu.get(gpu.index);
      if (column === undefined) byGpu.set(gpu.index, [reading]);
      else column.push(reading);
    }
  }
  return { atMs, byHost, failures };
}
