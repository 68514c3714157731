import type { HostSample } from "../../checks/classify-host.ts";
import type { EpisodeEndReason, IdleEpisodeState } from "../../checks/idle-episode.ts";
import type { AlertRecord, AlertResolution } from "../../domain/alert-record.ts";
import { sendUpdate } from "./alert-thread.ts";
import type { AlertEnding, UnknownCause } from "./alert-words.ts";
import type { AlertRun } from "./idle-alert-run.ts";

/** How an alert ended, with what its message says about it. */
export function endingFor(
  run: AlertRun,
  reason: EpisodeEndReason | AlertResolution,
  host: string,
  state: IdleEpisodeState | undefined,
  nowMs: number,
): AlertEnding {
  const { store } = run;
  switch (reason) {
    case "busy":
    case "data-back":
      return { kind: "busy" };
    case "suspect":
      return { kind: "suspect", gpus: suspectGpus(state?.latest ?? null) };
    case "stopped": {
      const stopRun = store.stopRuns.latestFor(host);
      return { kind: "stopped", actor: stopRun?.actor ?? null, dryRun: stopRun?.dryRun ?? false };
    }
    case "unknown":
      return { kind: "unknown", cause: unknownCause(state?.latest ?? null) };
    case "snoozed": {
      const snooze = store.snoozes.activeAt(host, nowMs);
      return { kind: "snoozed", untilMs: snooze?.untilMs ?? null, byUser: snooze?.byUser ?? null };
    }
    case "exempt":
      return { kind: "exempt" };
    case "policy":
      return { kind: "policy" };
    default:
      return reason satisfies never;
  }
}

/** Resolves the host's open idle alert and rewrites its message. */
export function endIdle(
  run: AlertRun,
  host: string,
  ending: AlertEnding,
  endedAtMs: number,
  nowMs: number,
): void {
  const { store, logger, alertWords, timezone, currency, rendered, sparklineReadings, costOf, transaction } =
    run;
  const alert = store.alerts.openFor(host, "idle");
  if (alert === null) return;
  transaction(() => {
    if (!store.alerts.resolve(alert.id, resolutionOf(ending), nowMs)) return;
    const message = alertWords.resolved({
      host,
      idleSinceMs: alert.idleSinceMs ?? alert.openedAtMs,
      endedAtMs,
      nowMs,
      timezone,
      currency,
      costPerHour: costOf(host),
      ending,
      startable: run.config.hosts[host]?.start !== undefined,
    });
    sendUpdate(run, alert, message);
  });
  rendered.delete(alert.id);
  sparklineReadings.delete(alert.id);
  logger.info({ host, alertId: alert.id, ending: ending.kind }, "idle alert resolved");
}

/** The ending of an alert whose host is no longer idle, from its state. */
export function endingFromState(
  run: AlertRun,
  alert: AlertRecord,
  state: IdleEpisodeState | undefined,
  nowMs: number,
): AlertEnding {
  if (state === undefined) return { kind: "unknown", cause: null };
  const episode = state.lastEpisode;
  if (episode !== null && episode.endedAtMs >= alert.openedAtMs) {
    return endingFor(run, episode.reason, alert.host, state, nowMs);
  }
  switch (state.status) {
    case "busy":
    case "suspect":
    case "snoozed":
    case "exempt":
    case "unknown":
      return endingFor(run, state.status, alert.host, state, nowMs);
    case "idle":
    case "idle-pending":
    case "protected":
      return { kind: "unknown", cause: null };
    default:
      return state.status satisfies never;
  }
}

function resolutionOf(ending: AlertEnding): AlertResolution {
  switch (ending.kind) {
    case "busy":
    case "stopped":
    case "unknown":
    case "snoozed":
    case "exempt":
      return ending.kind;
    case "suspect":
      return "unknown";
    case "policy":
      return "exempt";
    default:
      return ending satisfies never;
  }
}

/** Why a host is unknown: the failed observation's message, or what was missing. */
export function unknownCause(latest: HostSample | null): UnknownCause | null {
  if (latest === null) return null;
  if (!latest.ok) return { kind: "failed", message: latest.message };
  if (latest.gpus.length === 0) return { kind: "no-gpus" };
  const unknown = latest.gpus.filter((gpu) => gpu.class === "unknown").length;
  if (unknown > 0) return { kind: "no-reading", count: unknown, total: latest.gpus.length };
  return { kind: "gap" };
}

/** The GPUs of a sample whose readings are suspect. */
function suspectGpus(latest: HostSample | null): number[] {
  return latest?.ok === true
    ? latest.gpus.filter((gpu) => gpu.class === "suspect").map((gpu) => gpu.index)
    : [];
}
