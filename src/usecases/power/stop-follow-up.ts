import type { HostSample } from "../../checks/classify-host.ts";
import type { Config } from "../../config/schema.ts";
import type { HostSample as StoredHostSample } from "../../domain/metrics.ts";
import type { StopRun } from "../../domain/stop-run.ts";
import { MINUTE_MS } from "../../shared/clock.ts";
import type { BotStateStore } from "../../store/bot-state-store.ts";
import type { MetricsStore } from "../../store/metrics-types.ts";
import type { AlertWords } from "../alerts/alert-words.ts";
import { alertTs, type Notifier } from "../ports.ts";
import { BOT_ACTOR } from "./action-text.ts";

export interface StopFollowUpDeps {
  config: Config;
  state: BotStateStore;
  metrics: MetricsStore;
  notifier: Notifier;
  owners: (host: string) => readonly string[];
  /** A gap longer than this between two samples leaves the host unobserved: no verdict. */
  staleAfterMs: number;
  alertWords: Pick<AlertWords, "stopDoubtThread">;
}

/**
 * What became of a successful stop, once decided (kept in the store, so a restart neither repeats
 * nor forgets it):
 * - `silent`: the host went quiet (a failed poll, or GPUs without readings) after the stop;
 * - `reporting`: it reported readings at every poll for `stop_grace_minutes`: the stop may not have worked;
 * - `unobserved`: the bot did not watch the whole grace period (it was down), so it cannot tell.
 */
export type StopVerdict =
  | { kind: "silent" }
  | { kind: "unobserved" }
  | { kind: "reporting"; runId: number; stoppedAtMs: number; noticedAtMs: number; alertId: number | null };

/** Audit action of a stop after which the host kept reporting. */
export const STOP_UNCONFIRMED_AUDIT = "stop-unconfirmed";

const metaKey = (runId: number) => `stop-verdict:${runId}`;

/** The verdict on the host's latest successful stop; `null` when none or not decided yet. */
export function latestStopVerdict(state: BotStateStore, host: string): StopVerdict | null {
  const run = doneRun(state, host);
  if (run === null) return null;
  const stored = state.meta.get(metaKey(run.id));
  return stored === null ? null : (JSON.parse(stored) as StopVerdict);
}

/**
 * After a poll in which `host` reported readings: once `stop_grace_minutes` have passed since its
 * latest successful stop, decides whether the stop took. When the host reported at every poll
 * since, it says so once, in the stopped alert's thread, naming whoever pressed Stop (the owners after
 * an automatic stop) so that Slack notifies them there.
 */
export function followUpStop(deps: StopFollowUpDeps, host: string, sample: HostSample, nowMs: number): void {
  if (!reports(sample)) return;
  const { state } = deps;
  const run = doneRun(state, host);
  if (run === null || state.meta.get(metaKey(run.id)) !== null) return;
  const stoppedAtMs = run.finishedAtMs ?? run.startedAtMs;
  if (nowMs - stoppedAtMs < deps.config.policy.stop_grace_minutes * MINUTE_MS) return;
  const verdict = judge(deps, host, run, stoppedAtMs, sample.atMs);
  state.transaction(() => {
    state.meta.set(metaKey(run.id), JSON.stringify(verdict));
    if (verdict.kind === "reporting") tell(deps, host, run, stoppedAtMs, sample.atMs, nowMs);
  });
}

function judge(
  deps: StopFollowUpDeps,
  host: string,
  run: StopRun,
  stoppedAtMs: number,
  nowMs: number,
): StopVerdict {
  const samples = deps.metrics.hostSamplesSince(host, stoppedAtMs + 1);
  const readings = gpuReadingsUntilVerdict(deps, host, samples, stoppedAtMs);
  let previousMs = stoppedAtMs;
  for (const sample of samples) {
    if (!sample.ok || readings.get(sample.atMs) !== true) return { kind: "silent" };
    if (sample.atMs - previousMs > deps.staleAfterMs) return { kind: "unobserved" };
    previousMs = sample.atMs;
  }
  if (nowMs - previousMs > deps.staleAfterMs) return { kind: "unobserved" };
  return { kind: "reporting", runId: run.id, stoppedAtMs, noticedAtMs: nowMs, alertId: run.alertId };
}

/**
 * Per sample time, whether a GPU answered: read only when a sample the verdict looks at was `ok`
 * (the GPU rows of a host stopped for days are many, and a failed poll right after the stop decides).
 */
function gpuReadingsUntilVerdict(
  deps: StopFollowUpDeps,
  host: string,
  samples: readonly StoredHostSample[],
  stoppedAtMs: number,
): Map<number, boolean> {
  const readings = new Map<number, boolean>();
  let previousMs = stoppedAtMs;
  let needed = false;
  for (const sample of samples) {
    if (!sample.ok) break;
    needed = true;
    if (sample.atMs - previousMs > deps.staleAfterMs) break;
    previousMs = sample.atMs;
  }
  if (!needed) return readings;
  for (const gpu of deps.metrics.gpuSamplesSince(host, stoppedAtMs + 1)) {
    const read = gpu.utilPct !== null || gpu.memUsedMiB !== null || gpu.powerW !== null;
    readings.set(gpu.atMs, (readings.get(gpu.atMs) ?? false) || read);
  }
  return readings;
}

function tell(
  deps: StopFollowUpDeps,
  host: string,
  run: StopRun,
  stoppedAtMs: number,
  lastReportAtMs: number,
  nowMs: number,
): void {
  const { config, state, notifier } = deps;
  const owners = run.actor === BOT_ACTOR ? [...deps.owners(host)] : [];
  const view = {
    host,
    stoppedAtMs,
    actor: run.actor,
    owners,
    lastReportAtMs,
    nowMs,
    timezone: config.team.timezone,
  };
  state.audit.record({
    atMs: nowMs,
    actor: BOT_ACTOR,
    action: STOP_UNCONFIRMED_AUDIT,
    host,
    detail: { runId: run.id, alertId: run.alertId, stoppedAtMs, lastReportAtMs },
  });
  const alert = run.alertId === null ? state.alerts.latest(host) : state.alerts.byId(run.alertId);
  const channel = alert?.channel ?? config.slack.channel;
  const thread = deps.alertWords.stopDoubtThread(view);
  notifier.send(
    "chat.postMessage",
    alert === null ? { channel, text: thread } : { channel, thread_ts: alertTs(alert.id), text: thread },
    alert === null ? {} : { alertId: alert.id, role: "message" },
  );
}

function doneRun(state: BotStateStore, host: string): StopRun | null {
  const run = state.stopRuns.latestFor(host);
  return run === null || run.state !== "done" || run.dryRun ? null : run;
}

/** A sample with at least one GPU reading: the host is up and its GPUs answer. */
function reports(sample: HostSample): boolean {
  return sample.ok && sample.gpus.some((gpu) => gpu.class !== "unknown" || gpu.memUsedMiB !== null);
}
