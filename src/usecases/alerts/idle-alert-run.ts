import { hostCostBasis, hostHourCost, hostHourSplit } from "../../checks/cost-model.ts";
import type { IdleEpisodeState } from "../../checks/idle-episode.ts";
import type { HostContext, IdlePolicy } from "../../checks/idle-policy.ts";
import { tariffOf } from "../../checks/tariff-price.ts";
import type { Config } from "../../config/schema.ts";
import type { LatestObservation } from "../../domain/metrics.ts";
import { type Clock, MINUTE_MS } from "../../shared/clock.ts";
import type { Logger } from "../../shared/logger.ts";
import type { BotStateStore } from "../../store/bot-state-store.ts";
import type { MetricsStore } from "../../store/metrics-types.ts";
import type { Notifier, WardenLookup } from "../ports.ts";
import type { StopFollowUpDeps } from "../power/stop-follow-up.ts";
import { idlePolicyOf } from "./alert-policy.ts";
import type { AlertWords } from "./alert-words.ts";
import type { UtilReading } from "./idle-alert-view.ts";
import type { IdleAlertsDeps } from "./idle-alerts.ts";
import type { SuspectNoticeDeps } from "./suspect-notices.ts";

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

/** What the alert lifecycle's steps share: the deps, the policy in force, and what is kept between polls. */
export interface AlertRun {
  deps: IdleAlertsDeps;
  config: Config;
  metrics: MetricsStore;
  store: BotStateStore;
  notifier: Notifier;
  warden: WardenLookup;
  clock: Clock;
  logger: Logger;
  alertWords: AlertWords;
  policy: IdlePolicy;
  channel: string;
  timezone: string;
  currency: string;
  escalateAfterMs: number;
  states: Map<string, IdleEpisodeState>;
  /**
   * The idle snapshot's writer: the state object last written per host (an unchanged one is not
   * written again), and the sweeps since the start (each writes its share of the hosts).
   */
  snapshot: { written: Map<string, IdleEpisodeState>; sweeps: number };
  /** When `restore` ran: episodes that began before it are opened by the first poll without a warning. */
  restoredAtMs: number | null;
  latestCache: Map<string, LatestObservation> | null;
  /** When each open alert was last rendered, and the facts it showed. */
  rendered: Map<number, { atMs: number; facts: string }>;
  sparklineReadings: Map<number, { readUpToMs: number; byGpu: Map<number, UtilReading[]> }>;
  /** What the time-series engine said of a host's recent utilisation, read at `atMs`: a new sparkline starts from it. */
  engineHistory: Map<string, { atMs: number; byGpu: Map<number, UtilReading[]> }>;
  autoStopsStarted: Set<number>;
  /** Since when each host has shown nothing at all (the autopilot's `empty` evidence); kept in memory. */
  emptySince: Map<string, number>;
  /** Hosts whose latest reading showed something on them; kept in memory. */
  occupied: Set<string>;
  /** Hosts seen becoming empty (their empty stretch began after a reading with something on them). */
  emptiedSeen: Set<string>;
  inFlight: Set<Promise<void>>;
  settingsOf(host: string): Config["hosts"][string] | undefined;
  /** The host's cost per hour now: a cloud or rental price, or amortisation + upkeep + rated power. */
  costOf(host: string): number | null;
  /** What stopping the host saves per hour now (cloud price, power, upkeep per hour on); `null` without a price. */
  savesOf(host: string): number | null;
  ownersOf(host: string): string[];
  transaction<T>(fn: () => T): T;
  suspectDeps: SuspectNoticeDeps;
  followUpDeps: StopFollowUpDeps;
}

/** The run of one bot: its deps and policy, and empty state until `restore`. */
export function createAlertRun(deps: IdleAlertsDeps): AlertRun {
  const { config, metrics, state: store, notifier, warden, clock, logger, alertWords } = deps;
  const policy = idlePolicyOf(config);
  const timezone = config.team.timezone;
  const settingsOf = (host: string) => config.hosts[host];
  const tariff = tariffOf(config.costs.electricity, timezone);
  const ownersOf = (host: string): string[] => [...deps.owners(host)];
  return {
    deps,
    config,
    metrics,
    store,
    notifier,
    warden,
    clock,
    logger,
    alertWords,
    policy,
    channel: config.slack.channel,
    timezone,
    currency: config.team.currency,
    escalateAfterMs: config.policy.escalate_after_minutes * MINUTE_MS,
    states: new Map(),
    snapshot: { written: new Map(), sweeps: 0 },
    restoredAtMs: null,
    latestCache: null,
    rendered: new Map(),
    sparklineReadings: new Map(),
    engineHistory: new Map(),
    autoStopsStarted: new Set(),
    emptySince: new Map(),
    occupied: new Set(),
    emptiedSeen: new Set(),
    inFlight: new Set(),
    settingsOf,
    costOf: (host) => hostHourCost(hostCostBasis(settingsOf(host), config.costs), tariff, clock.now()),
    savesOf: (host) =>
      hostHourSplit(hostCostBasis(settingsOf(host), config.costs), tariff, clock.now())?.stoppablePerHour ??
      null,
    ownersOf,
    transaction: (fn) => store.transaction(fn),
    suspectDeps: { config, state: store, notifier, warden, owners: ownersOf, alertWords },
    followUpDeps: {
      config,
      state: store,
      metrics,
      notifier,
      alertWords,
      owners: ownersOf,
      staleAfterMs: policy.staleAfterMinutes * MINUTE_MS,
    },
  };
}

/** Each host's latest stored observation, read once per poll. */
export function latestByHost(run: AlertRun): Map<string, LatestObservation> {
  run.latestCache ??= new Map(
    run.metrics.latestObservations().map((latest) => [latest.observation.host, latest]),
  );
  return run.latestCache;
}

/** When the host's last real (not dry-run) stop finished; `null` without one. */
export function stoppedAtMs(run: AlertRun, host: string): number | null {
  const { store } = run;
  const stopRun = store.stopRuns.latestFor(host);
  if (stopRun === null || stopRun.state !== "done" || stopRun.dryRun) return null;
  return stopRun.finishedAtMs ?? stopRun.startedAtMs;
}

/** Each host's never-stop, keep and last-stop facts at `atMs`, for the idle checks. */
export function contextsAt(run: AlertRun, atMs: number, hosts: Iterable<string>): Map<string, HostContext> {
  const { store, settingsOf } = run;
  const snoozed = new Map(store.snoozes.allActiveAt(atMs).map((snooze) => [snooze.host, snooze.untilMs]));
  const contexts = new Map<string, HostContext>();
  for (const host of hosts) {
    contexts.set(host, {
      neverStop: settingsOf(host)?.never_stop ?? false,
      snoozedUntilMs: snoozed.get(host) ?? null,
      stoppedAtMs: stoppedAtMs(run, host),
    });
  }
  return contexts;
}

/** Who holds a claim on the host at `atMs`, once each. */
export function claimantsOf(run: AlertRun, host: string, atMs: number): string[] {
  const { store } = run;
  return [...new Set(store.claims.activeOn(host, atMs).map((claim) => claim.user))];
}
