import type { IdleEpisodeState } from "../../checks/idle-episode.ts";
import { sendUpdate } from "./alert-thread.ts";
import { unknownCause } from "./end-idle-alert.ts";
import type { AlertRun } from "./idle-alert-run.ts";
import { latestByHost } from "./idle-alert-run.ts";

/**
 * When the host's latest real reading was taken: the latest of the idle checks' last known sample,
 * the time the source says it last had one, and (while the host does not answer) the store's last
 * answer, which may predate the bot's start.
 */
export function lastSampleAtMs(run: AlertRun, host: string, state: IdleEpisodeState): number | null {
  const latest = state.latest;
  const candidates = [state.lastKnownAtMs];
  if (latest !== null && !latest.ok) {
    candidates.push(latest.lastSampleAtMs ?? null);
    const stored = latestByHost(run).get(host);
    if (stored !== undefined && !stored.observation.ok) candidates.push(stored.lastOkAtMs);
  }
  const known = candidates.filter((ms): ms is number => ms !== null && ms <= (state.lastSampleAtMs ?? ms));
  return known.length === 0 ? null : Math.max(...known);
}

/** Opens the host's no-data notice (once) and posts it. */
export function openNoData(run: AlertRun, host: string, state: IdleEpisodeState, nowMs: number): void {
  const { store, notifier, logger, alertWords, channel, timezone, transaction } = run;
  transaction(() => {
    const unknownSinceMs = state.unknownSinceMs ?? nowMs;
    const lastMs = lastSampleAtMs(run, host, state);
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
      cause: stale ? null : unknownCause(latest),
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

/** Resolves the host's no-data notice: the data is back. */
export function endNoData(run: AlertRun, host: string, nowMs: number): void {
  const { store, logger, alertWords, timezone, transaction } = run;
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
    sendUpdate(run, alert, message);
  });
  logger.info({ host, alertId: alert.id }, "no-data notice resolved");
}
