import { bucketUtil } from "../../checks/bucket-util.ts";
import { withoutDone } from "../../checks/done-holders.ts";
import { loginsOn } from "../../checks/login-people.ts";
import { recentInputOf } from "../../checks/recent-input.ts";
import { recentInputMinutes } from "../../checks/working-hours.ts";
import type { AlertRecord } from "../../domain/alert-record.ts";
import type { LatestObservation } from "../../domain/metrics.ts";
import type { ReservationWindow } from "../../domain/reservation.ts";
import { MINUTE_MS } from "../../shared/clock.ts";
import { doneOn } from "../authorise.ts";
import { teamCalendarOf } from "../autopilot/autopilot-policy.ts";
import { latestStopVerdict } from "../power/stop-follow-up.ts";
import { reservedSoon } from "../queue/reservations.ts";
import type { AlertGpu, IdleAlertView } from "./alert-words.ts";
import type { AlertRun } from "./idle-alert-run.ts";
import { claimantsOf, latestByHost, SPARKLINE_MARKS, SPARKLINE_MINUTES } from "./idle-alert-run.ts";
import { keepTomorrowUntilMs } from "./keep-host.ts";

/** One GPU utilisation reading for the sparkline. */
export interface UtilReading {
  atMs: number;
  utilPct: number | null;
}

/** Facts of an open alert that decide whether it needs editing (everything but the figures). */
export interface AlertFacts {
  alert: AlertRecord;
  latest: LatestObservation | null;
  owners: string[];
  claimants: string[];
  snooze: { untilMs: number; byUser: string } | null;
  stopping: { actor: string } | null;
  escalatedTo: string | null;
  stopDoubt: { stoppedAtMs: number; earlierAlertAtMs: number | null; earlierAlertLink: string | null } | null;
  /** The reservation holding the host now or within the hour (`null`: none): no automatic stop. */
  reserved: ReservationWindow | null;
  /** People whose *Done with mine* on the host still holds (see `doneOn`). */
  done: string[];
}

/** What an open alert shows now, apart from its figures. */
export function factsOf(run: AlertRun, alert: AlertRecord, nowMs: number): AlertFacts {
  const { store, warden, ownersOf } = run;
  const { host } = alert;
  const snooze = store.snoozes.activeAt(host, nowMs);
  const stopRun = store.stopRuns.latestFor(host);
  const latest = latestByHost(run).get(host) ?? null;
  return {
    alert,
    latest,
    owners: ownersOf(host),
    claimants: claimantsOf(run, host, nowMs),
    snooze: snooze === null ? null : { untilMs: snooze.untilMs, byUser: snooze.byUser },
    stopping:
      stopRun !== null && stopRun.state === "running" && stopRun.alertId === alert.id
        ? { actor: stopRun.actor }
        : null,
    escalatedTo: alert.escalated ? warden.current(nowMs) : null,
    stopDoubt: stopDoubtOf(run, alert),
    reserved: reservedSoon(run.deps, host),
    done: doneOn({ state: store, config: run.config }, host, latest?.observation ?? null),
  };
}

/** An earlier stop of the host that did not seem to take, for an alert opened after it. */
export function stopDoubtOf(run: AlertRun, alert: AlertRecord): AlertFacts["stopDoubt"] {
  const { deps, store } = run;
  const verdict = latestStopVerdict(store, alert.host);
  if (verdict?.kind !== "reporting" || alert.openedAtMs < verdict.stoppedAtMs) return null;
  const earlier = verdict.alertId === null ? null : store.alerts.byId(verdict.alertId);
  const link =
    earlier?.ts == null || earlier.channel === null ? null : deps.messageLink(earlier.channel, earlier.ts);
  return {
    stoppedAtMs: verdict.stoppedAtMs,
    earlierAlertAtMs: earlier?.openedAtMs ?? null,
    earlierAlertLink: link,
  };
}

/** The facts as one string: an alert is edited early only when it changes. */
export function factsKey(facts: AlertFacts): string {
  const observation = facts.latest?.observation;
  return JSON.stringify([
    facts.owners,
    facts.claimants,
    facts.snooze,
    facts.stopping,
    facts.escalatedTo,
    facts.alert.autoStopAtMs,
    facts.reserved?.fromMs ?? null,
    facts.stopDoubt,
    facts.done,
    observation?.ok ? observation.gpus.map((gpu) => gpu.processes.map((p) => [p.pid, p.user, p.name])) : null,
    observation?.ok ? observation.sessions?.map((s) => [s.user, s.line, s.from]) : null,
  ]);
}

/** The idle alert's data for its words: the facts, the figures and each GPU's sparkline. */
export function idleView(run: AlertRun, facts: AlertFacts, nowMs: number): IdleAlertView {
  const { config, timezone, currency, settingsOf, costOf, savesOf } = run;
  const { alert } = facts;
  const observation = facts.latest?.observation;
  const readings = observation?.ok ? observation.gpus : [];
  const fromMs = nowMs - SPARKLINE_MINUTES * MINUTE_MS;
  const history = recentUtil(run, alert, nowMs);
  const holdMs = 2 * config.poll.interval_seconds * 1000;
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
      history: bucketUtil(history.get(index) ?? [], fromMs + 1, nowMs + 1, SPARKLINE_MARKS, holdMs),
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
    savesPerHour: savesOf(alert.host),
    gpus,
    historyMinutes: SPARKLINE_MINUTES,
    sessions: observation?.ok ? observation.sessions : null,
    owners: facts.owners,
    claimants: facts.claimants,
    snooze: facts.snooze,
    autoStopAtMs: facts.reserved === null ? alert.autoStopAtMs : null,
    reservedSoon: facts.reserved,
    escalatedTo: facts.escalatedTo,
    stopping: facts.stopping,
    keepUntilTomorrowAt: config.policy.keep_until_tomorrow_at,
    keepTomorrowUntilMs: keepTomorrowUntilMs(config, nowMs),
    dryRun: settingsOf(alert.host)?.dry_run ?? config.dry_run,
    stopDoubt: facts.stopDoubt,
    recentInput: withoutDone(
      recentInputOf(
        observation ?? null,
        recentInputMinutes(teamCalendarOf(config), config.policy.autopilot.stale_hours, nowMs),
      ),
      facts.done,
      config.team.logins,
    ),
    sharedBy: loginsOn(observation ?? null).size,
  };
}

/** A new sparkline's readings up to when the engine was asked (the store's samples continue them). */
function fromEngine(
  run: AlertRun,
  host: string,
  fromMs: number,
  nowMs: number,
): { readUpToMs: number; byGpu: Map<number, UtilReading[]> } | null {
  const engine = run.engineHistory.get(host);
  if (engine === undefined || engine.atMs < fromMs || engine.atMs > nowMs) return null;
  const byGpu = new Map<number, UtilReading[]>();
  for (const [index, column] of engine.byGpu) byGpu.set(index, column.slice());
  return { readUpToMs: engine.atMs, byGpu };
}

/**
 * The alert's GPU readings over the sparkline's span. Only the cycles since the last render are
 * read from the store: a 3 h read for a 16-GPU host is thousands of rows, every few minutes.
 */
export function recentUtil(run: AlertRun, alert: AlertRecord, nowMs: number): Map<number, UtilReading[]> {
  const { metrics, sparklineReadings } = run;
  const fromMs = nowMs - SPARKLINE_MINUTES * MINUTE_MS;
  let cached = sparklineReadings.get(alert.id);
  if (cached === undefined || cached.readUpToMs < fromMs || cached.readUpToMs > nowMs) {
    cached = fromEngine(run, alert.host, fromMs, nowMs) ?? { readUpToMs: fromMs - 1, byGpu: new Map() };
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
