import { onlyStaleInput } from "../../checks/autopilot-plan.ts";
import type { IdleEpisodeState } from "../../checks/idle-episode.ts";
import { mayStopSessionAt } from "../../checks/working-hours.ts";
import type { AlertRecord } from "../../domain/alert-record.ts";
import { MINUTE_MS } from "../../shared/clock.ts";
import { autopilotPolicyOf, teamCalendarOf } from "../autopilot/autopilot-policy.ts";
import { reservedSoon } from "../queue/reservations.ts";
import { postInAlertThread, sendUpdate } from "./alert-thread.ts";
import type { AlertDirectMessageView } from "./alert-words.ts";
import type { AlertRun } from "./idle-alert-run.ts";
import { ALERT_REFRESH_MS, AUTO_STOP_WARNING_MS, latestByHost } from "./idle-alert-run.ts";
import { factsKey, factsOf, idleView } from "./idle-alert-view.ts";

/** Opens the host's idle alert (once): sets its automatic stop, posts it, DMs owners and claimants. */
export function openIdle(run: AlertRun, host: string, state: IdleEpisodeState, nowMs: number): void {
  const {
    store,
    notifier,
    logger,
    alertWords,
    channel,
    timezone,
    currency,
    restoredAtMs,
    rendered,
    settingsOf,
    costOf,
    transaction,
  } = run;
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
    const facts = factsOf(run, alert, nowMs);
    const message = alertWords.idle(idleView(run, facts, nowMs));
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

/** Edits the alert when its facts changed, or its figures are {@link ALERT_REFRESH_MS} old, or `force`. */
export function refreshIdle(run: AlertRun, alert: AlertRecord, nowMs: number, force: boolean): void {
  const { alertWords, rendered } = run;
  const facts = factsOf(run, alert, nowMs);
  const key = factsKey(facts);
  const last = rendered.get(alert.id);
  if (!force && last !== undefined && last.facts === key && nowMs - last.atMs < ALERT_REFRESH_MS) return;
  sendUpdate(run, alert, alertWords.idle(idleView(run, facts, nowMs)));
  rendered.set(alert.id, { atMs: nowMs, facts: key });
}

/** An idle episode goes on: escalate when due, start a due automatic stop, refresh. */
export function continueIdle(run: AlertRun, host: string, nowMs: number): void {
  const { store } = run;
  let alert = store.alerts.openFor(host, "idle");
  if (alert === null) return;
  alert = escalate(run, alert, nowMs);
  startAutoStop(run, alert, nowMs);
  refreshIdle(run, alert, nowMs, false);
}

/**
 * Hands the alert to the cost warden once it has been open `escalate_after_minutes`, unless the
 * autopilot settles the host without anyone: not while its stop is planned, nor, where the autopilot
 * is on for the host, while it has nothing on it (it plans that stop after `empty_minutes`), nor
 * while nobody has typed on it for `stale_hours` at a time the autopilot would not stop a session
 * (working hours, the night before them, a day off): the warden is asked in a working day's evening,
 * not at the weekend about a session its person may come back to on Monday morning.
 */
export function escalate(run: AlertRun, alert: AlertRecord, nowMs: number): AlertRecord {
  const { store, warden, logger, alertWords, currency, escalateAfterMs, costOf, transaction } = run;
  if (alert.escalated || nowMs - alert.openedAtMs < escalateAfterMs) return alert;
  if (autopilotSettles(run, alert, nowMs)) return alert;
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
    postInAlertThread(run, alert, text);
  });
  if (who === null) logger.warn({ host: alert.host, alertId: alert.id }, "escalation due but no cost warden");
  else logger.info({ host: alert.host, alertId: alert.id, warden: who }, "idle alert escalated");
  return { ...alert, escalated: true };
}

function autopilotSettles(run: AlertRun, alert: AlertRecord, nowMs: number): boolean {
  if (run.store.autopilot.get(alert.host)?.alertId === alert.id) return true;
  const policy = autopilotPolicyOf(run.config, alert.host);
  if (!policy.enabled) return false;
  if (run.emptySince.has(alert.host)) return true;
  if (mayStopSessionAt(teamCalendarOf(run.config), nowMs)) return false;
  const latest = latestByHost(run).get(alert.host)?.observation ?? null;
  return latest !== null && onlyStaleInput(latest, policy.staleHours);
}

/** Starts the automatic stop once it is due, unless the host is kept or a stop for the alert ran. */
export function startAutoStop(run: AlertRun, alert: AlertRecord, nowMs: number): void {
  const { deps, store, logger, autoStopsStarted, inFlight } = run;
  const stop = deps.stopAutomatically;
  if (alert.autoStopAtMs === null || nowMs < alert.autoStopAtMs) return;
  if (autoStopsStarted.has(alert.id) || store.snoozes.activeAt(alert.host, nowMs) !== null) return;
  if (reservedSoon(deps, alert.host) !== null) return;
  if (store.autopilot.get(alert.host)?.alertId === alert.id) return;
  autoStopsStarted.add(alert.id);
  const stopRun = store.stopRuns.latestFor(alert.host);
  if (stopRun !== null && stopRun.alertId === alert.id && stopRun.state !== "failed") return;
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
