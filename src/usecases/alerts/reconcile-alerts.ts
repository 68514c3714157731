import { DEFAULT_HOST_CONTEXT, type HostContext } from "../../checks/idle-policy.ts";
import { type IdleTransition, noDataExpected } from "../../checks/sweep.ts";
import type { AlertKind } from "../../domain/alert-record.ts";
import { endIdle, endingFor, endingFromState } from "./end-idle-alert.ts";
import type { AlertRun } from "./idle-alert-run.ts";
import { latestByHost } from "./idle-alert-run.ts";
import { endNoData, openNoData } from "./no-data-notice.ts";
import { continueIdle, openIdle } from "./open-idle-alert.ts";

/** Whether an alert of `kind` for the host was open at some time since `sinceMs`. */
export function alertedSince(run: AlertRun, host: string, kind: AlertKind, sinceMs: number): boolean {
  const { store } = run;
  return store.alerts
    .recent(host, 20)
    .some((alert) => alert.kind === kind && (alert.resolvedAtMs ?? Number.POSITIVE_INFINITY) > sinceMs);
}

/** Opens, continues or ends the host's alert as the idle checks' transition says. */
export function applyTransition(run: AlertRun, transition: IdleTransition, nowMs: number): void {
  const { host } = transition;
  switch (transition.kind) {
    case "episode-started":
      openIdle(run, host, transition.state, nowMs);
      return;
    case "episode-continued":
      continueIdle(run, host, nowMs);
      return;
    case "episode-ended": {
      const { episode } = transition;
      endIdle(
        run,
        host,
        endingFor(run, episode.reason, host, transition.state, nowMs),
        episode.endedAtMs,
        nowMs,
      );
      return;
    }
    case "no-data":
      openNoData(run, host, transition.state, nowMs);
      return;
    case "data-restored":
      endNoData(run, host, nowMs);
      return;
    default:
      transition satisfies never;
  }
}

/**
 * Makes the stored alerts agree with the states where the transitions did not (a restart that
 * fell between a poll's write and its alerts, a state rebuilt differently from history).
 */
export function reconcile(run: AlertRun, nowMs: number, contexts: ReadonlyMap<string, HostContext>): void {
  const { store, logger, policy, states, restoredAtMs } = run;
  const open = new Map(store.alerts.allOpen().map((alert) => [`${alert.kind}:${alert.host}`, alert]));
  for (const alert of open.values()) {
    const state = states.get(alert.host);
    if (alert.kind === "idle" && state?.status !== "idle") {
      logger.warn(
        { host: alert.host, alertId: alert.id, status: state?.status },
        "open alert for a host not idle",
      );
      endIdle(
        run,
        alert.host,
        endingFromState(run, alert, state, nowMs),
        state?.lastSampleAtMs ?? nowMs,
        nowMs,
      );
    } else if (alert.kind === "no-data" && state !== undefined && state.unknownPolls === 0) {
      endNoData(run, alert.host, nowMs);
    }
  }
  for (const [host, state] of states) {
    if (
      state.status === "idle" &&
      !open.has(`idle:${host}`) &&
      !alertedSince(run, host, "idle", state.idleSinceMs ?? nowMs)
    ) {
      if (restoredAtMs !== null && (state.episodeStartedAtMs ?? nowMs) <= restoredAtMs)
        logger.info({ host }, "idle since before the start; opening its alert");
      else logger.warn({ host }, "idle episode without an alert; opening it");
      openIdle(run, host, state, nowMs);
    }
    if (
      state.unknownPolls >= policy.noDataPolls &&
      !open.has(`no-data:${host}`) &&
      !noDataExpected(state, contexts.get(host) ?? DEFAULT_HOST_CONTEXT) &&
      !alertedSince(run, host, "no-data", state.unknownSinceMs ?? nowMs)
    ) {
      openNoData(run, host, state, nowMs);
    }
  }
}

/** Every host the bot knows: with a state, in the config, or in the store. */
export function knownHosts(run: AlertRun): string[] {
  const { config } = run;
  const names = new Set([...run.states.keys(), ...Object.keys(config.hosts), ...latestByHost(run).keys()]);
  return [...names].sort();
}
