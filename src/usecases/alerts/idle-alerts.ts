import { sweep } from "../../checks/sweep.ts";
import type { Config } from "../../config/schema.ts";
import type { Clock } from "../../shared/clock.ts";
import type { Logger } from "../../shared/logger.ts";
import type { BotStateStore } from "../../store/bot-state-store.ts";
import type { MetricsStore } from "../../store/metrics-types.ts";
import { runAutopilot } from "../autopilot/run-autopilot.ts";
import { type EngineHistory, historyWanted, useHistory } from "../fleet/engine-history.ts";
import type { PollResult } from "../fleet/poll-fleet.ts";
import type { PriorHistory } from "../fleet/seed-history.ts";
import type { AlertPort, FleetView, Notifier, WardenLookup } from "../ports.ts";
import { followUpStarts } from "../power/start-follow-up.ts";
import { followUpStop } from "../power/stop-follow-up.ts";
import { postInAlertThread } from "./alert-thread.ts";
import type { AlertWords } from "./alert-words.ts";
import { endIdle, endingFor } from "./end-idle-alert.ts";
import { type AlertRun, contextsAt, createAlertRun, latestByHost } from "./idle-alert-run.ts";
import { SNAPSHOT_EVERY_SWEEPS, saveIdleSnapshot } from "./idle-snapshot.ts";
import { endNoData } from "./no-data-notice.ts";
import { refreshIdle } from "./open-idle-alert.ts";
import { applyTransition, knownHosts, reconcile } from "./reconcile-alerts.ts";
import { restoreStates, restoreStatesInSlices } from "./restore-states.ts";
import { noticeSuspectReadings } from "./suspect-notices.ts";

export {
  ALERT_REFRESH_MS,
  AUTO_STOP_WARNING_MS,
  SPARKLINE_MARKS,
  SPARKLINE_MINUTES,
} from "./idle-alert-run.ts";

export interface IdleAlertsDeps {
  config: Config;
  metrics: MetricsStore;
  state: BotStateStore;
  notifier: Notifier;
  warden: WardenLookup;
  clock: Clock;
  logger: Logger;
  /** The alert messages' words (the bot's views: `alertWords`). */
  alertWords: AlertWords;
  /**
   * The stop use-case with the bot as the actor, for the autopilot and hosts with `auto_stop` whose
   * countdown ran out (`reason` for the audit).
   */
  stopAutomatically: (host: string, alertId: number, reason?: string, emptySinceMs?: number) => Promise<void>;
  /** The host's owners now: the person a reclaim decision lent it to, else `hosts.<host>.owners`. */
  owners: (host: string) => readonly string[];
  /** A Slack message's permalink; `null` while the workspace URL is not known. */
  messageLink: (channel: string, ts: string) => string | null;
}

/** The alert lifecycle: idle checks after each poll, and the channel messages that follow from them. */
export interface IdleAlerts extends FleetView, AlertPort {
  /**
   * Rebuilds the idle states from stored history (call once at start, before the first poll). Alerts
   * open in the store stay open and are edited, never posted again. With `prior` (a source's older
   * history), each host's prior samples are replayed first, at their own step, and the store's samples
   * from `prior.untilMs` on continue them.
   */
  restore(prior?: PriorHistory | null): void;
  /**
   * {@link restore}, yielding to the event loop every few hosts, so that `/healthz` and Slack answer
   * while it runs (the start's rebuild). Nothing else may rebuild or sweep until it resolves.
   */
  restoreInSlices(prior?: PriorHistory | null): Promise<void>;
  /**
   * Runs the idle checks on a poll already written to the store, then opens, edits, escalates and
   * resolves alerts, runs the autopilot and starts due automatic stops (which run on; see {@link settled}).
   */
  onPoll(result: Pick<PollResult, "atMs" | "observations">): void;
  /** Resolves once every automatic stop started so far has finished (tests, shutdown). */
  settled(): Promise<void>;
  /** Hosts of this poll whose recent past the engine should be asked for before `onPoll` (sparklines). */
  historyWanted(result: Pick<PollResult, "atMs" | "observations">): string[];
  /** What the engine said (see {@link historyWanted}): new sparklines start from it. */
  useHistory(history: EngineHistory): void;
}

export function createIdleAlerts(deps: IdleAlertsDeps): IdleAlerts {
  const run = createAlertRun(deps);
  const { store, clock } = run;
  const alerts: IdleAlerts = {
    restore: (prior) => restoreStates(run, prior),
    restoreInSlices: (prior) => restoreStatesInSlices(run, prior),
    onPoll: (result) => {
      sweepPoll(run, result);
      followUpStarts({ config: run.config, state: store, fleet: alerts, alerts }, result.atMs);
    },
    async settled() {
      while (run.inFlight.size > 0) await Promise.all([...run.inFlight]);
    },
    historyWanted: (result) => historyWanted(run, result),
    useHistory: (history) => useHistory(run, history),
    hosts: () => knownHosts(run),
    latest: (host) => latestByHost(run).get(host) ?? null,
    state: (host) => run.states.get(host) ?? null,
    refresh(host) {
      const alert = store.alerts.openFor(host, "idle");
      if (alert !== null) refreshIdle(run, alert, clock.now(), true);
    },
    resolve(host, resolution) {
      const nowMs = clock.now();
      if (resolution === "data-back") endNoData(run, host, nowMs);
      else endIdle(run, host, endingFor(run, resolution, host, run.states.get(host), nowMs), nowMs, nowMs);
    },
    postNote(host, note) {
      this.postInThread(host, run.deps.alertWords.note(note));
    },
    tell(user, note) {
      run.notifier.send("chat.postMessage", { channel: user, text: run.deps.alertWords.noteTo(user, note) });
    },
    postInThread(host, text, blocks) {
      const alert = store.alerts.openFor(host, "idle") ?? store.alerts.latest(host);
      if (alert !== null) {
        postInAlertThread(run, alert, text, blocks);
        return;
      }
      const args: Record<string, unknown> = { channel: run.channel, text };
      if (blocks !== undefined) args.blocks = blocks;
      run.notifier.send("chat.postMessage", args);
    },
  };
  return alerts;
}

/** The idle checks on a written poll, then the alerts that follow from them. */
function sweepPoll(run: AlertRun, result: Pick<PollResult, "atMs" | "observations">): void {
  const { config, policy } = run;
  const nowMs = result.atMs;
  run.latestCache = null;
  const hosts = new Set([
    ...run.states.keys(),
    ...Object.keys(config.hosts),
    ...result.observations.map((observation) => observation.host),
  ]);
  const contexts = contextsAt(run, nowMs, hosts);
  const swept = sweep({
    nowMs,
    policy,
    previous: run.states,
    observations: result.observations,
    expectedHosts: Object.keys(config.hosts),
    contexts,
  });
  const before = run.states;
  run.states = swept.states;
  // NOTE: a sweep returns the same state object for a host whose sample it did not apply.
  const sampled = [...run.states].filter(
    ([host, state]) => state.latest !== null && state !== before.get(host),
  );
  for (const [host, state] of sampled) followUpStop(run.followUpDeps, host, state.latest!, nowMs);
  for (const transition of swept.transitions) applyTransition(run, transition, nowMs);
  for (const [host, state] of sampled) noticeSuspectReadings(run.suspectDeps, host, state.latest!, nowMs);
  reconcile(run, nowMs, contexts);
  saveIdleSnapshot(run, SNAPSHOT_EVERY_SWEEPS, nowMs);
  runAutopilot(run, nowMs);
}
