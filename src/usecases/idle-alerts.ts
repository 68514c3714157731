import { bucketUtil } from "../checks/bucket-util.ts";
import type { HostSample } from "../checks/classify-host.ts";
import { hostCostBasis, hostHourCost } from "../checks/cost-model.ts";
import { type EpisodeEndReason, evaluateHost, type IdleEpisodeState } from "../checks/idle-episode.ts";
import { DEFAULT_HOST_CONTEXT, type HostContext } from "../checks/idle-policy.ts";
import { type IdleTransition, noDataExpected, sweep } from "../checks/sweep.ts";
import { tariffOf } from "../checks/tariff-price.ts";
import type { Config } from "../config/schema.ts";
import { type Clock, MINUTE_MS } from "../shared/clock.ts";
import type { Logger } from "../shared/logger.ts";
import type { AlertKind, AlertRecord, AlertResolution } from "../store/alert-store.ts";
import type { BotStateStore } from "../store/bot-state-store.ts";
import type { LatestObservation, MetricsStore } from "../store/metrics-types.ts";
import { samplesFromHistory } from "./alert-history.ts";
import { idlePolicyOf, restoreWindowMinutes } from "./alert-policy.ts";
import type {
  AlertDirectMessageView,
  AlertEnding,
  AlertGpu,
  AlertWords,
  IdleAlertView,
} from "./alert-words.ts";
import type { PollResult } from "./poll-fleet.ts";
import {
  type AlertPort,
  alertTs,
  type FleetView,
  type Notifier,
  type RenderedMessage,
  type WardenLookup,
} from "./ports.ts";
import { type PriorHistory, priorSamples } from "./seed-history.ts";
import { followUpStop, latestStopVerdict } from "./stop-follow-up.ts";
import { noticeSuspectReadings } from "./suspect-notices.ts";

/**
 * An open alert is edited at most this often while nothing but its figures (idle time, money,
 * sparkline) change; a change people act on (holders, sessions, claims, keep, countdown, warden,
 * a stop starting) edits it at the next poll.
 */
export const ALERT_REFRESH_MS = 5 * MINUTE_MS;
/** The sparkline covers this much history… */
export const SPARKLINE_MINUTES = 180;
/** …in this many marks (5 min each). */
export const SPARKLINE_MARKS = 36;
/** The least time an automatic-stop countdown is shown before the stop (the design's warning). */
export const AUTO_STOP_WARNING_MS = 30 * MINUTE_MS;

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
  /** The stop use-case with the bot as the actor, for hosts with `auto_stop`; none: no automatic stops. */
  stopAutomatically?: (host: string, alertId: number) => Promise<void>;
  /** The host's owners now (a reclaim decision may have lent it); default `hosts.<host>.owners`. */
  owners?: (host: string) => readonly string[];
  /** A Slack message's permalink; `null` (or none) when the workspace URL is not known. */
  messageLink?: (channel: string, ts: string) => string | null;
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
   * Runs the idle checks on a poll already written to the store, then opens, edits, escalates and
   * resolves alerts and starts due automatic stops (which run on; see {@link settled}).
   */
  onPoll(result: Pick<PollResult, "atMs" | "observations">): void;
  /** Resolves once every automatic stop started so far has finished (tests, shutdown). */
  settled(): Promise<void>;
}

interface UtilReading {
  atMs: number;
  utilPct: number | null;
}

/** Facts of an open alert that decide whether it needs editing (everything but the figures). */
interface AlertFacts {
  alert: AlertRecord;
  latest: LatestObservation | null;
  owners: string[];
  claimants: string[];
  snooze: { untilMs: number; byUser: string } | null;
  stopping: { actor: string } | null;
  escalatedTo: string | null;
  stopDoubt: { stoppedAtMs: number; earlierAlertAtMs: number | null; earlierAlertLink: string | null } | null;
}

export function createIdleAlerts(deps: IdleAlertsDeps): IdleAlerts {
  const { config, metrics, state: store, notifier, warden, clock, logger, alertWords } = deps;
  const policy = idlePolicyOf(config);
  const channel = config.slack.channel;
  const timezone = config.team.timezone;
  const currency = config.team.currency;
  const escalateAfterMs = config.policy.escalate_after_minutes * MINUTE_MS;
  let states = new Map<string, IdleEpisodeState>();
  /** When `restore` ran: episodes that began before it are opened by the first poll without a warning. */
  let restoredAtMs: number | null = null;
  let latestCache: Map<string, LatestObservation> | null = null;
  /** When each open alert was last rendered, and the facts it showed. */
  const rendered = new Map<number, { atMs: number; facts: string }>();
  const sparklineReadings = new Map<number, { readUpToMs: number; byGpu: Map<number, UtilReading[]> }>();
  const autoStopsStarted = new Set<number>();
  const inFlight = new Set<Promise<void>>();

  const settingsOf = (host: string) => config.hosts[host];
  const tariff = tariffOf(config.costs.electricity, timezone);
  /** The host's cost per hour now: a cloud or rental price, or amortisation + upkeep + rated power. */
  const costOf = (host: string) =>
    hostHourCost(hostCostBasis(settingsOf(host), config.costs), tariff, clock.now());
  const ownersOf = (host: string): string[] => [...(deps.owners?.(host) ?? settingsOf(host)?.owners ?? [])];
  const transaction = <T>(fn: () => T): T => store.transaction(fn);
  const suspectDeps = { config, state: store, notifier, warden, owners: ownersOf, alertWords };
  const followUpDeps = {
    config,
    state: store,
    metrics,
    notifier,
    alertWords,
    owners: ownersOf,
    staleAfterMs: policy.staleAfterMinutes * MINUTE_MS,
  };

  function latestByHost(): Map<string, LatestObservation> {
    latestCache ??= new Map(metrics.latestObservations().map((latest) => [latest.observation.host, latest]));
    return latestCache;
  }

  function stoppedAtMs(host: string): number | null {
    const run = store.stopRuns.latestFor(host);
    if (run === null || run.state !== "done" || run.dryRun) return null;
    return run.finishedAtMs ?? run.startedAtMs;
  }

  function contextsAt(atMs: number, hosts: Iterable<string>): Map<string, HostContext> {
    const snoozed = new Map(store.snoozes.allActiveAt(atMs).map((snooze) => [snooze.host, snooze.untilMs]));
    const contexts = new Map<string, HostContext>();
    for (const host of hosts) {
      contexts.set(host, {
        neverStop: settingsOf(host)?.never_stop ?? false,
        snoozedUntilMs: snoozed.get(host) ?? null,
        stoppedAtMs: stoppedAtMs(host),
      });
    }
    return contexts;
  }

  function claimantsOf(host: string, atMs: number): string[] {
    return [...new Set(store.claims.activeOn(host, atMs).map((claim) => claim.user))];
  }

  function factsOf(alert: AlertRecord, nowMs: number): AlertFacts {
    const { host } = alert;
    const snooze = store.snoozes.activeAt(host, nowMs);
    const run = store.stopRuns.latestFor(host);
    return {
      alert,
      latest: latestByHost().get(host) ?? null,
      owners: ownersOf(host),
      claimants: claimantsOf(host, nowMs),
      snooze: snooze === null ? null : { untilMs: snooze.untilMs, byUser: snooze.byUser },
      stopping:
        run !== null && run.state === "running" && run.alertId === alert.id ? { actor: run.actor } : null,
      escalatedTo: alert.escalated ? warden.current(nowMs) : null,
      stopDoubt: stopDoubtOf(alert),
    };
  }

  /** An earlier stop of the host that did not seem to take, for an alert opened after it. */
  function stopDoubtOf(alert: AlertRecord): AlertFacts["stopDoubt"] {
    const verdict = latestStopVerdict(store, alert.host);
    if (verdict?.kind !== "reporting" || alert.openedAtMs < verdict.stoppedAtMs) return null;
    const earlier = verdict.alertId === null ? null : store.alerts.byId(verdict.alertId);
    const link =
      earlier?.ts == null || earlier.channel === null
        ? null
        : (deps.messageLink?.(earlier.channel, earlier.ts) ?? null);
    return {
      stoppedAtMs: verdict.stoppedAtMs,
      earlierAlertAtMs: earlier?.openedAtMs ?? null,
      earlierAlertLink: link,
    };
  }

  function factsKey(facts: AlertFacts): string {
    const observation = facts.latest?.observation;
    return JSON.stringify([
      facts.owners,
      facts.claimants,
      facts.snooze,
      facts.stopping,
      facts.escalatedTo,
      facts.alert.autoStopAtMs,
      facts.stopDoubt,
      observation?.ok
        ? observation.gpus.map((gpu) => gpu.processes.map((p) => [p.pid, p.user, p.name]))
        : null,
      observation?.ok ? observation.sessions?.map((s) => [s.user, s.line, s.from]) : null,
    ]);
  }

  function idleView(facts: AlertFacts, nowMs: number): IdleAlertView {
    const { alert } = facts;
    const observation = facts.latest?.observation;
    const readings = observation?.ok ? observation.gpus : [];
    const fromMs = nowMs - SPARKLINE_MINUTES * MINUTE_MS;
    const history = recentUtil(alert, nowMs);
    const indexes = [...new Set([...readings.map((gpu) => gpu.index), ...history.keys()])].sort(
      (a, b) => a - b,
    );
    const gpus = indexes.map((index): AlertGpu => {
      const reading = readings.find((gpu) => gpu.index === index);
      return {
        index,
        utilPct: reading?.utilPct ?? null,
        memUsedMiB: reading?.memUsedMiB ?? null,
        memTotalMiB: reading?.memTotalMiB ?? null,
        processes: reading?.processes ?? [],
        history: bucketUtil(history.get(index) ?? [], fromMs + 1, nowMs + 1, SPARKLINE_MARKS),
      };
    });
    return {
      alertId: alert.id,
      host: alert.host,
      nowMs,
      idleSinceMs: alert.idleSinceMs ?? alert.openedAtMs,
      timezone,
      currency,
      costPerHour: costOf(alert.host),
      gpus,
      historyMinutes: SPARKLINE_MINUTES,
      sessions: observation?.ok ? observation.sessions : null,
      owners: facts.owners,
      claimants: facts.claimants,
      snooze: facts.snooze,
      autoStopAtMs: alert.autoStopAtMs,
      escalatedTo: facts.escalatedTo,
      stopping: facts.stopping,
      keepUntilTomorrowAt: config.policy.keep_until_tomorrow_at,
      dryRun: settingsOf(alert.host)?.dry_run ?? config.dry_run,
      stopDoubt: facts.stopDoubt,
    };
  }

  /**
   * The alert's GPU readings over the sparkline's span. Only the cycles since the last render are
   * read from the store: a 3 h read for a 16-GPU host is thousands of rows, every few minutes.
   */
  function recentUtil(alert: AlertRecord, nowMs: number): Map<number, UtilReading[]> {
    const fromMs = nowMs - SPARKLINE_MINUTES * MINUTE_MS;
    let cached = sparklineReadings.get(alert.id);
    if (cached === undefined || cached.readUpToMs < fromMs || cached.readUpToMs > nowMs) {
      cached = { readUpToMs: fromMs - 1, byGpu: new Map() };
      sparklineReadings.set(alert.id, cached);
    }
    for (const sample of metrics.gpuSamplesSince(alert.host, cached.readUpToMs + 1)) {
      const column = cached.byGpu.get(sample.index);
      const reading = { atMs: sample.atMs, utilPct: sample.utilPct };
      if (column === undefined) cached.byGpu.set(sample.index, [reading]);
      else column.push(reading);
    }
    cached.readUpToMs = nowMs;
    for (const [index, column] of cached.byGpu) {
      const keep = column.findIndex((reading) => reading.atMs > fromMs);
      if (keep === -1) cached.byGpu.delete(index);
      else if (keep > 0) column.splice(0, keep);
    }
    return cached.byGpu;
  }

  function sendUpdate(alert: AlertRecord, message: RenderedMessage): void {
    notifier.send(
      "chat.update",
      {
        channel: alert.channel ?? channel,
        ts: alertTs(alert.id),
        text: message.text,
        blocks: message.blocks,
      },
      { alertId: alert.id, role: "alert-update" },
    );
  }

  function postInAlertThread(alert: AlertRecord, text: string, blocks?: unknown[]): void {
    const args: Record<string, unknown> = {
      channel: alert.channel ?? channel,
      thread_ts: alertTs(alert.id),
      text,
    };
    if (blocks !== undefined) args.blocks = blocks;
    notifier.send("chat.postMessage", args, { alertId: alert.id, role: "message" });
  }

  function openIdle(host: string, state: IdleEpisodeState, nowMs: number): void {
    const idleSinceMs = state.idleSinceMs ?? nowMs;
    const startedAtMs = state.episodeStartedAtMs ?? nowMs;
    // NOTE: an episode that began before the bot started (history) is escalated counting from the start.
    const openedAtMs = Math.max(startedAtMs, restoredAtMs ?? startedAtMs);
    transaction(() => {
      const opened = store.alerts.open({ host, kind: "idle", openedAtMs, idleSinceMs, channel });
      if (!opened.created) return;
      let alert = opened.alert;
      const autoStop = settingsOf(host)?.auto_stop;
      if (autoStop !== undefined) {
        const stopAtMs = Math.max(
          startedAtMs + autoStop.after_minutes * MINUTE_MS,
          nowMs + AUTO_STOP_WARNING_MS,
        );
        store.alerts.setAutoStopAt(alert.id, stopAtMs);
        alert = { ...alert, autoStopAtMs: stopAtMs };
      }
      const facts = factsOf(alert, nowMs);
      const message = alertWords.idle(idleView(facts, nowMs));
      const dm: Omit<AlertDirectMessageView, "role" | "reader"> = {
        host,
        idleSinceMs,
        nowMs,
        timezone,
        currency,
        costPerHour: costOf(host),
        channel,
      };
      for (const user of new Set([...facts.owners, ...facts.claimants])) {
        const direct = alertWords.direct({
          ...dm,
          reader: user,
          role: facts.owners.includes(user) ? "owner" : "claimant",
        });
        notifier.send("chat.postMessage", { channel: user, text: direct.text, blocks: direct.blocks });
      }
      notifier.send(
        "chat.postMessage",
        { channel, text: message.text, blocks: message.blocks },
        { alertId: alert.id, role: "alert-post" },
      );
      rendered.set(alert.id, { atMs: nowMs, facts: factsKey(facts) });
      logger.info(
        { host, alertId: alert.id, idleSinceMs, autoStopAtMs: alert.autoStopAtMs },
        "idle alert opened",
      );
    });
  }

  function refreshIdle(alert: AlertRecord, nowMs: number, force: boolean): void {
    const facts = factsOf(alert, nowMs);
    const key = factsKey(facts);
    const last = rendered.get(alert.id);
    if (!force && last !== undefined && last.facts === key && nowMs - last.atMs < ALERT_REFRESH_MS) return;
    sendUpdate(alert, alertWords.idle(idleView(facts, nowMs)));
    rendered.set(alert.id, { atMs: nowMs, facts: key });
  }

  function continueIdle(host: string, nowMs: number): void {
    let alert = store.alerts.openFor(host, "idle");
    if (alert === null) return;
    alert = escalate(alert, nowMs);
    startAutoStop(alert, nowMs);
    refreshIdle(alert, nowMs, false);
  }

  function escalate(alert: AlertRecord, nowMs: number): AlertRecord {
    if (alert.escalated || nowMs - alert.openedAtMs < escalateAfterMs) return alert;
    const who = warden.current(nowMs);
    transaction(() => {
      store.alerts.markEscalated(alert.id);
      if (who === null) return;
      const text = alertWords.escalation({
        host: alert.host,
        warden: who,
        idleSinceMs: alert.idleSinceMs ?? alert.openedAtMs,
        nowMs,
        currency,
        costPerHour: costOf(alert.host),
      });
      postInAlertThread(alert, text);
    });
    if (who === null)
      logger.warn({ host: alert.host, alertId: alert.id }, "escalation due but no cost warden");
    else logger.info({ host: alert.host, alertId: alert.id, warden: who }, "idle alert escalated");
    return { ...alert, escalated: true };
  }

  function startAutoStop(alert: AlertRecord, nowMs: number): void {
    const stop = deps.stopAutomatically;
    if (stop === undefined || alert.autoStopAtMs === null || nowMs < alert.autoStopAtMs) return;
    if (autoStopsStarted.has(alert.id) || store.snoozes.activeAt(alert.host, nowMs) !== null) return;
    autoStopsStarted.add(alert.id);
    const run = store.stopRuns.latestFor(alert.host);
    if (run !== null && run.alertId === alert.id && run.state !== "failed") return;
    const { host, id: alertId } = alert;
    logger.info({ host, alertId, dueAtMs: alert.autoStopAtMs }, "automatic stop due");
    const settled: Promise<void> = stop(host, alertId)
      .then(
        () => undefined,
        (error: unknown) => {
          logger.error({ err: error, host, alertId }, "automatic stop failed");
        },
      )
      .finally(() => inFlight.delete(settled));
    inFlight.add(settled);
  }

  function endingFor(
    reason: EpisodeEndReason | AlertResolution,
    host: string,
    state: IdleEpisodeState | undefined,
    nowMs: number,
  ): AlertEnding {
    switch (reason) {
      case "busy":
      case "data-back":
        return { kind: "busy" };
      case "suspect":
        return { kind: "suspect", gpus: suspectGpus(state?.latest ?? null) };
      case "stopped": {
        const run = store.stopRuns.latestFor(host);
        return { kind: "stopped", actor: run?.actor ?? null, dryRun: run?.dryRun ?? false };
      }
      case "unknown":
        return { kind: "unknown", cause: unknownCause(host, state?.latest ?? null) };
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

  function endIdle(host: string, ending: AlertEnding, endedAtMs: number, nowMs: number): void {
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
      });
      sendUpdate(alert, message);
    });
    rendered.delete(alert.id);
    sparklineReadings.delete(alert.id);
    logger.info({ host, alertId: alert.id, ending: ending.kind }, "idle alert resolved");
  }

  /**
   * When the host's latest real reading was taken: the latest of the idle checks' last known sample,
   * the time the source says it last had one, and (while the host does not answer) the store's last
   * answer, which may predate the bot's start.
   */
  function lastSampleAtMs(host: string, state: IdleEpisodeState): number | null {
    const latest = state.latest;
    const candidates = [state.lastKnownAtMs];
    if (latest !== null && !latest.ok) {
      candidates.push(latest.lastSampleAtMs ?? null);
      const stored = latestByHost().get(host);
      if (stored !== undefined && !stored.observation.ok) candidates.push(stored.lastOkAtMs);
    }
    const known = candidates.filter((ms): ms is number => ms !== null && ms <= (state.lastSampleAtMs ?? ms));
    return known.length === 0 ? null : Math.max(...known);
  }

  function openNoData(host: string, state: IdleEpisodeState, nowMs: number): void {
    transaction(() => {
      const unknownSinceMs = state.unknownSinceMs ?? nowMs;
      const lastMs = lastSampleAtMs(host, state);
      const opened = store.alerts.open({
        host,
        kind: "no-data",
        openedAtMs: nowMs,
        idleSinceMs: lastMs ?? unknownSinceMs,
        channel,
      });
      if (!opened.created) return;
      const latest = state.latest;
      // NOTE: a stale message only restates the last sample's time, in the source's words and zone
      // (Prometheus: UTC); the notice gives that time itself, in the team's zone.
      const stale = latest !== null && !latest.ok && latest.cause === "stale";
      const message = alertWords.noData({
        host,
        sinceMs: unknownSinceMs,
        lastSampleAtMs: lastMs,
        cause: stale ? null : unknownCause(host, latest),
        nowMs,
        timezone,
        backAtMs: null,
      });
      notifier.send(
        "chat.postMessage",
        { channel, text: message.text, blocks: message.blocks },
        { alertId: opened.alert.id, role: "alert-post" },
      );
      logger.info(
        { host, alertId: opened.alert.id, unknownSinceMs, lastSampleAtMs: lastMs },
        "no-data notice opened",
      );
    });
  }

  function endNoData(host: string, nowMs: number): void {
    const alert = store.alerts.openFor(host, "no-data");
    if (alert === null) return;
    transaction(() => {
      if (!store.alerts.resolve(alert.id, "data-back", nowMs)) return;
      const message = alertWords.noData({
        host,
        sinceMs: alert.idleSinceMs ?? alert.openedAtMs,
        lastSampleAtMs: null,
        cause: null,
        nowMs,
        timezone,
        backAtMs: nowMs,
      });
      sendUpdate(alert, message);
    });
    logger.info({ host, alertId: alert.id }, "no-data notice resolved");
  }

  function alertedSince(host: string, kind: AlertKind, sinceMs: number): boolean {
    return store.alerts
      .recent(host, 20)
      .some((alert) => alert.kind === kind && (alert.resolvedAtMs ?? Number.POSITIVE_INFINITY) > sinceMs);
  }

  function apply(transition: IdleTransition, nowMs: number): void {
    const { host } = transition;
    switch (transition.kind) {
      case "episode-started":
        openIdle(host, transition.state, nowMs);
        return;
      case "episode-continued":
        continueIdle(host, nowMs);
        return;
      case "episode-ended": {
        const { episode } = transition;
        endIdle(host, endingFor(episode.reason, host, transition.state, nowMs), episode.endedAtMs, nowMs);
        return;
      }
      case "no-data":
        openNoData(host, transition.state, nowMs);
        return;
      case "data-restored":
        endNoData(host, nowMs);
        return;
      default:
        transition satisfies never;
    }
  }

  /**
   * Makes the stored alerts agree with the states where the transitions did not (a restart that
   * fell between a poll's write and its alerts, a state rebuilt differently from history).
   */
  function reconcile(nowMs: number, contexts: ReadonlyMap<string, HostContext>): void {
    const open = new Map(store.alerts.allOpen().map((alert) => [`${alert.kind}:${alert.host}`, alert]));
    for (const alert of open.values()) {
      const state = states.get(alert.host);
      if (alert.kind === "idle" && state?.status !== "idle") {
        logger.warn(
          { host: alert.host, alertId: alert.id, status: state?.status },
          "open alert for a host not idle",
        );
        endIdle(alert.host, endingFromState(alert, state, nowMs), state?.lastSampleAtMs ?? nowMs, nowMs);
      } else if (alert.kind === "no-data" && state !== undefined && state.unknownPolls === 0) {
        endNoData(alert.host, nowMs);
      }
    }
    for (const [host, state] of states) {
      if (
        state.status === "idle" &&
        !open.has(`idle:${host}`) &&
        !alertedSince(host, "idle", state.idleSinceMs ?? nowMs)
      ) {
        if (restoredAtMs !== null && (state.episodeStartedAtMs ?? nowMs) <= restoredAtMs)
          logger.info({ host }, "idle since before the start; opening its alert");
        else logger.warn({ host }, "idle episode without an alert; opening it");
        openIdle(host, state, nowMs);
      }
      if (
        state.unknownPolls >= policy.noDataPolls &&
        !open.has(`no-data:${host}`) &&
        !noDataExpected(state, contexts.get(host) ?? DEFAULT_HOST_CONTEXT) &&
        !alertedSince(host, "no-data", state.unknownSinceMs ?? nowMs)
      ) {
        openNoData(host, state, nowMs);
      }
    }
  }

  function endingFromState(
    alert: AlertRecord,
    state: IdleEpisodeState | undefined,
    nowMs: number,
  ): AlertEnding {
    if (state === undefined) return { kind: "unknown", cause: null };
    const episode = state.lastEpisode;
    if (episode !== null && episode.endedAtMs >= alert.openedAtMs) {
      return endingFor(episode.reason, alert.host, state, nowMs);
    }
    switch (state.status) {
      case "busy":
      case "suspect":
      case "snoozed":
      case "exempt":
      case "unknown":
        return endingFor(state.status, alert.host, state, nowMs);
      case "idle":
      case "idle-pending":
      case "protected":
        return { kind: "unknown", cause: null };
      default:
        return state.status satisfies never;
    }
  }

  function knownHosts(): string[] {
    const names = new Set([...states.keys(), ...Object.keys(config.hosts), ...latestByHost().keys()]);
    return [...names].sort();
  }

  return {
    restore(prior) {
      const nowMs = clock.now();
      const sinceMs = prior?.untilMs ?? nowMs - restoreWindowMinutes(policy) * MINUTE_MS;
      const priorPolicy = prior ? { ...policy, staleAfterMinutes: prior.stepMs / MINUTE_MS } : policy;
      latestCache = null;
      const latest = latestByHost();
      const records = metrics.hosts();
      const contexts = contextsAt(
        sinceMs,
        records.map((record) => record.name),
      );
      const next = new Map<string, IdleEpisodeState>();
      for (const record of records) {
        const samples = samplesFromHistory(
          {
            record,
            hostSamples: metrics.hostSamplesSince(record.name, sinceMs),
            gpuSamples: metrics.gpuSamplesSince(record.name, sinceMs),
            latest: latest.get(record.name)?.observation ?? null,
          },
          policy,
        );
        if (samples.length === 0) continue;
        const context = contexts.get(record.name) ?? DEFAULT_HOST_CONTEXT;
        const history = prior?.byHost.get(record.name);
        const start =
          history === undefined
            ? undefined
            : evaluateHost(priorSamples(record.name, history, policy), priorPolicy, context);
        next.set(record.name, evaluateHost(samples, policy, context, start));
      }
      states = next;
      restoredAtMs = nowMs;
      rendered.clear();
      sparklineReadings.clear();
      const idle = [...next.values()].filter((state) => state.status === "idle").length;
      logger.info(
        { hosts: next.size, idle, openAlerts: store.alerts.allOpen().length },
        "idle states rebuilt from history",
      );
    },

    onPoll(result) {
      const nowMs = result.atMs;
      latestCache = null;
      const hosts = new Set([
        ...states.keys(),
        ...Object.keys(config.hosts),
        ...result.observations.map((observation) => observation.host),
      ]);
      const contexts = contextsAt(nowMs, hosts);
      const swept = sweep({
        nowMs,
        policy,
        previous: states,
        observations: result.observations,
        expectedHosts: Object.keys(config.hosts),
        contexts,
      });
      const before = states;
      states = swept.states;
      for (const transition of swept.transitions) apply(transition, nowMs);
      for (const [host, state] of states) {
        // NOTE: a sweep returns the same state object for a host whose sample it did not apply.
        if (state.latest !== null && state !== before.get(host)) {
          noticeSuspectReadings(suspectDeps, host, state.latest, nowMs);
          followUpStop(followUpDeps, host, state.latest, nowMs);
        }
      }
      reconcile(nowMs, contexts);
    },

    async settled() {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },

    hosts: knownHosts,
    latest: (host) => latestByHost().get(host) ?? null,
    state: (host) => states.get(host) ?? null,

    refresh(host) {
      const alert = store.alerts.openFor(host, "idle");
      if (alert !== null) refreshIdle(alert, clock.now(), true);
    },

    resolve(host, resolution) {
      const nowMs = clock.now();
      if (resolution === "data-back") endNoData(host, nowMs);
      else endIdle(host, endingFor(resolution, host, states.get(host), nowMs), nowMs, nowMs);
    },

    postNote(host, note) {
      this.postInThread(host, alertWords.note(note));
    },
    postInThread(host, text, blocks) {
      const alert = store.alerts.openFor(host, "idle") ?? store.alerts.latest(host);
      if (alert !== null) {
        postInAlertThread(alert, text, blocks);
        return;
      }
      const args: Record<string, unknown> = { channel, text };
      if (blocks !== undefined) args.blocks = blocks;
      notifier.send("chat.postMessage", args);
    },
  };
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

/** The one line that says why a host is unknown: the failed observation's message, or what was missing. */
function unknownCause(host: string, latest: HostSample | null): string | null {
  if (latest === null) return null;
  if (!latest.ok) return latest.message;
  if (latest.gpus.length === 0) return `${host}: no GPUs reported`;
  const unknown = latest.gpus.filter((gpu) => gpu.class === "unknown").length;
  if (unknown > 0) return `${host}: ${unknown} of ${latest.gpus.length} GPUs report no utilisation`;
  return `${host}: a gap in the readings`;
}

/** The GPUs of a sample whose readings are suspect. */
function suspectGpus(latest: HostSample | null): number[] {
  return latest?.ok === true
    ? latest.gpus.filter((gpu) => gpu.class === "suspect").map((gpu) => gpu.index)
    : [];
}
