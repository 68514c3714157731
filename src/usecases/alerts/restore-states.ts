import type { HostSample } from "../../checks/classify-host.ts";
import { evaluateHost, type IdleEpisodeState } from "../../checks/idle-episode.ts";
import { DEFAULT_HOST_CONTEXT, type HostContext } from "../../checks/idle-policy.ts";
import type { HostRecord } from "../../domain/metrics.ts";
import { MINUTE_MS } from "../../shared/clock.ts";
import { type PriorHistory, priorSamples } from "../fleet/seed-history.ts";
import { samplesFromHistory } from "./alert-history.ts";
import { restoreWindowMinutes } from "./alert-policy.ts";
import { type AlertRun, contextsAt, latestByHost } from "./idle-alert-run.ts";
import { resumeFrom, type SnapshotState, usableSnapshots } from "./idle-snapshot.ts";

/** Hosts rebuilt between two yields to the event loop by {@link restoreStatesInSlices}. */
export const RESTORE_SLICE_HOSTS = 100;

interface Rebuild {
  run: AlertRun;
  prior: PriorHistory | null | undefined;
  /** The policy the older history is read under (its step is its staleness). */
  priorPolicy: AlertRun["policy"];
  latest: ReturnType<typeof latestByHost>;
  nowMs: number;
  sinceMs: number;
  records: HostRecord[];
  contexts: Map<string, HostContext>;
  /** The snapshot's states usable at this restart: their hosts replay only the polls after them. */
  snapshots: Map<string, SnapshotState>;
  next: Map<string, IdleEpisodeState>;
  /** Hosts continued from the snapshot. */
  resumed: number;
}

/** Rebuilds the idle states from the store's history (and a source's older history), in one go. */
export function restoreStates(run: AlertRun, prior: PriorHistory | null | undefined): void {
  const rebuild = beginRebuild(run, prior);
  for (const record of rebuild.records) rebuildHost(rebuild, record);
  finishRebuild(rebuild);
}

/**
 * The same rebuild, yielding to the event loop after every {@link RESTORE_SLICE_HOSTS} hosts, so that
 * `/healthz` and Slack answer while it runs. The states built so far are not used until it is done.
 */
export async function restoreStatesInSlices(
  run: AlertRun,
  prior: PriorHistory | null | undefined,
): Promise<void> {
  await yieldToEventLoop();
  const rebuild = beginRebuild(run, prior);
  for (let i = 0; i < rebuild.records.length; i++) {
    if (i > 0 && i % RESTORE_SLICE_HOSTS === 0) await yieldToEventLoop();
    rebuildHost(rebuild, rebuild.records[i]!);
  }
  finishRebuild(rebuild);
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

function beginRebuild(run: AlertRun, prior: PriorHistory | null | undefined): Rebuild {
  const nowMs = run.clock.now();
  const windowStartMs = nowMs - restoreWindowMinutes(run.policy) * MINUTE_MS;
  const sinceMs = prior?.untilMs ?? windowStartMs;
  run.latestCache = null;
  const records = run.metrics.hosts();
  const contexts = contextsAt(
    run,
    sinceMs,
    records.map((record) => record.name),
  );
  const priorPolicy = prior ? { ...run.policy, staleAfterMinutes: prior.stepMs / MINUTE_MS } : run.policy;
  return {
    run,
    prior,
    priorPolicy,
    latest: latestByHost(run),
    nowMs,
    sinceMs,
    records,
    contexts,
    snapshots: usableSnapshots(run, windowStartMs, nowMs),
    next: new Map(),
    resumed: 0,
  };
}

function rebuildHost(rebuild: Rebuild, record: HostRecord): void {
  const snapshot = rebuild.snapshots.get(record.name);
  if (snapshot !== undefined && resumeHost(rebuild, record, snapshot)) return;
  const { run, prior, priorPolicy, sinceMs } = rebuild;
  const { policy } = run;
  const samples = storedSamples(rebuild, record, sinceMs);
  if (samples.length === 0) return;
  const context = rebuild.contexts.get(record.name) ?? DEFAULT_HOST_CONTEXT;
  const history = prior?.byHost.get(record.name);
  const start =
    history === undefined
      ? undefined
      : evaluateHost(priorSamples(record.name, history, policy), priorPolicy, context);
  rebuild.next.set(record.name, evaluateHost(samples, policy, context, start));
}

/** Continues the host's snapshot with the samples after it; `false` when the store lacks the snapshot's sample. */
function resumeHost(rebuild: Rebuild, record: HostRecord, snapshot: SnapshotState): boolean {
  const samples = storedSamples(rebuild, record, snapshot.atMs);
  const start = resumeFrom(snapshot, samples);
  if (start === null) return false;
  const context = rebuild.contexts.get(record.name) ?? DEFAULT_HOST_CONTEXT;
  rebuild.next.set(record.name, evaluateHost(samples, rebuild.run.policy, context, start));
  rebuild.resumed++;
  return true;
}

function storedSamples(rebuild: Rebuild, record: HostRecord, sinceMs: number): HostSample[] {
  const { metrics, policy } = rebuild.run;
  return samplesFromHistory(
    {
      record,
      hostSamples: metrics.hostSamplesSince(record.name, sinceMs),
      gpuSamples: metrics.gpuSamplesSince(record.name, sinceMs),
      latest: rebuild.latest.get(record.name)?.observation ?? null,
    },
    policy,
  );
}

function finishRebuild(rebuild: Rebuild): void {
  const { run, next } = rebuild;
  run.states = next;
  // NOTE: the latest observations read for the rebuild (80,000 GPU readings at that size) are not kept
  // through the first poll, which makes the most garbage of any; its sweep reads them again.
  run.latestCache = null;
  run.snapshot.written.clear();
  run.restoredAtMs = rebuild.nowMs;
  run.rendered.clear();
  run.sparklineReadings.clear();
  const idle = [...next.values()].filter((state) => state.status === "idle").length;
  run.logger.info(
    { hosts: next.size, fromSnapshot: rebuild.resumed, idle, openAlerts: run.store.alerts.allOpen().length },
    "idle states rebuilt from history",
  );
}
