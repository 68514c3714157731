import {
  type AutopilotInput,
  type AutopilotPlan,
  keepOutlived,
  nextEmptySinceMs,
  planAutopilot,
} from "../../checks/autopilot-plan.ts";
import { peopleOfLogins } from "../../checks/login-people.ts";
import type { HostObservation } from "../../domain/observation.ts";
import type { Snooze } from "../../domain/snooze.ts";
import { postInAlertThread } from "../alerts/alert-thread.ts";
import { type AlertRun, claimantsOf, latestByHost, stoppedAtMs } from "../alerts/idle-alert-run.ts";
import { keepTomorrowUntilMs } from "../alerts/keep-host.ts";
import { refreshIdle } from "../alerts/open-idle-alert.ts";
import { BOT_ACTOR } from "../power/action-text.ts";
import { type AutopilotLookups, autopilotLookups } from "./autopilot-lookups.ts";
import { autopilotPolicyOf, teamCalendarOf } from "./autopilot-policy.ts";

/** The audit's reason for the autopilot's stops, per evidence class. */
export const AUTOPILOT_REASONS = {
  empty: "autopilot: nothing on the host", // words-ok: audit reason code
  stale: "autopilot: only stale sessions left", // words-ok: audit reason code
} as const;

/**
 * The autopilot after a poll (the idle checks and alerts have run): for every host, the check's
 * decision ({@link planAutopilot}), then what follows from it: a new plan is recorded, shown on the
 * alert as its countdown and sent once to the owners (and claimants; for a stale session also the
 * people whose sessions it names and the cost warden) with Keep; a plan that no longer holds is dropped; a due plan is stopped through the
 * stop use-case (re-checked, run once, audited), after the alert's thread is told the evidence.
 */
export function runAutopilot(run: AlertRun, nowMs: number): void {
  const plans = new Map(run.store.autopilot.all().map((plan) => [plan.host, plan]));
  const latest = latestByHost(run);
  const calendar = teamCalendarOf(run.config);
  const lookups = autopilotLookups(run, nowMs);
  for (const host of new Set([...run.states.keys(), ...plans.keys()])) {
    const observation = latest.get(host)?.observation ?? null;
    const emptySinceMs = nextEmptySinceMs(emptySinceBefore(run, host), observation);
    const emptiedAtMs = trackEmpty(run, host, emptySinceMs, observation);
    const policy = autopilotPolicyOf(run.config, host);
    const keep = lookups.keepOf(host);
    const byPerson = keep !== null && keep.byUser !== BOT_ACTOR;
    if (byPerson && keepOutlived(keep.setAtMs, emptiedAtMs, policy, calendar, nowMs)) {
      endKeep(run, keep!, emptiedAtMs!, nowMs);
      continue;
    }
    const plan = plans.get(host) ?? null;
    if (!policy.enabled && plan === null) continue;
    const decision = planAutopilot(
      inputFor(run, host, nowMs, lookups, {
        policy,
        plan,
        emptySinceMs,
        emptiedAtMs,
        calendar,
        latest: observation,
      }),
    );
    switch (decision.kind) {
      case "none":
      case "wait":
        break;
      case "warn":
        warn(run, decision.plan, nowMs);
        break;
      case "cancel":
        cancel(run, decision.plan, nowMs, decision.hold);
        break;
      case "stop":
        stop(run, decision.plan, nowMs);
        break;
      default:
        decision satisfies never;
    }
  }
}

/**
 * Records the host's empty stretch and whether the bot saw it begin (a reading with something on the
 * host just before); returns when it began if so, else `null`.
 */
function trackEmpty(
  run: AlertRun,
  host: string,
  emptySinceMs: number | null,
  observation: HostObservation | null,
): number | null {
  if (emptySinceMs === null) {
    run.emptySince.delete(host);
    run.emptiedSeen.delete(host);
    if (observation?.ok === true) run.occupied.add(host);
    else run.occupied.delete(host);
    return null;
  }
  if (run.emptySince.get(host) !== emptySinceMs) {
    if (run.occupied.has(host)) run.emptiedSeen.add(host);
    else run.emptiedSeen.delete(host);
  }
  run.emptySince.set(host, emptySinceMs);
  run.occupied.delete(host);
  return run.emptiedSeen.has(host) ? emptySinceMs : null;
}

/** The host's empty stretch so far; a stop since it began ends it (a host that reports again was started again). */
function emptySinceBefore(run: AlertRun, host: string): number | null {
  const sinceMs = run.emptySince.get(host) ?? null;
  const stopMs = stoppedAtMs(run, host);
  return sinceMs !== null && (stopMs === null || stopMs < sinceMs) ? sinceMs : null;
}

function inputFor(
  run: AlertRun,
  host: string,
  nowMs: number,
  lookups: AutopilotLookups,
  known: Pick<AutopilotInput, "policy" | "plan" | "emptySinceMs" | "emptiedAtMs" | "calendar" | "latest">,
): AutopilotInput {
  const { store } = run;
  const state = run.states.get(host) ?? null;
  const alertId = lookups.alertIdOf(host);
  const stopRun = store.stopRuns.latestFor(host);
  // NOTE: named one by one: spreading `known` here cost ~50 µs a call (a tenth of a simulated month).
  return {
    policy: known.policy,
    plan: known.plan,
    emptySinceMs: known.emptySinceMs,
    emptiedAtMs: known.emptiedAtMs,
    calendar: known.calendar,
    latest: known.latest,
    host,
    nowMs,
    episode: state === null ? null : { status: state.status, idleSinceMs: state.idleSinceMs },
    alertId,
    stopTried:
      alertId !== null &&
      (run.autoStopsStarted.has(alertId) || (stopRun !== null && stopRun.alertId === alertId)),
    claimants: lookups.claimantsOf(host),
    claimedSinceMs: lookups.claimedSinceMs(host),
    reservedSoon: lookups.reservedSoon(host),
    keptUntilMs: lookups.keptUntilMs(host),
  };
}

/**
 * Who hears of the plan: owners and claimants; for a stale session also the people whose processes
 * or sessions it names (`team.logins`) and the cost warden.
 */
function readersOf(run: AlertRun, plan: AutopilotPlan, nowMs: number): string[] {
  const people = [...run.ownersOf(plan.host), ...claimantsOf(run, plan.host, nowMs)];
  if (plan.evidence.class !== "stale") return [...new Set(people)];
  const { holders, sessions } = plan.evidence;
  const logins = new Set(sessions.map((session) => session.user));
  for (const holder of holders) if (holder.user !== null) logins.add(holder.user);
  const holding = peopleOfLogins(run.config.team.logins, logins);
  const warden = run.warden.current(nowMs);
  return [...new Set([...people, ...holding, ...(warden === null ? [] : [warden])])];
}

function warn(run: AlertRun, plan: AutopilotPlan, nowMs: number): void {
  const { store, notifier, alertWords, config, logger } = run;
  const settings = config.hosts[plan.host];
  const dryRun = settings?.dry_run ?? config.dry_run;
  const preStop = settings?.pre_stop !== undefined;
  run.transaction(() => {
    store.autopilot.put(plan);
    store.alerts.setAutoStopAt(plan.alertId, plan.stopAtMs);
    store.audit.record({
      atMs: nowMs,
      actor: BOT_ACTOR,
      action: "autopilot-warned",
      host: plan.host,
      detail: { alertId: plan.alertId, evidence: plan.evidence, stopAtMs: plan.stopAtMs },
    });
    const keepUntilTomorrowAt = config.policy.keep_until_tomorrow_at;
    const keepUntilMs = keepTomorrowUntilMs(config, nowMs);
    for (const reader of readersOf(run, plan, nowMs)) {
      const message = alertWords.autopilotWarning({
        reader,
        plan,
        nowMs,
        keepUntilTomorrowAt,
        keepTomorrowUntilMs: keepUntilMs,
        dryRun,
        preStop,
      });
      notifier.send("chat.postMessage", { channel: reader, text: message.text, blocks: message.blocks });
    }
  });
  refreshAlert(run, plan, nowMs);
  logger.info({ host: plan.host, alertId: plan.alertId, stopAtMs: plan.stopAtMs }, "autopilot stop planned");
}

/**
 * Ends a person's Keep whose host has had nothing on it since after it was pressed (outside working
 * hours; the start-ahead's own Keep of a host it started is left alone): the keeper hears of it; the
 * next poll opens the idle alert, and the empty host is warned and stopped as any other.
 */
function endKeep(run: AlertRun, keep: Snooze, emptySinceMs: number, nowMs: number): void {
  const { store, notifier, alertWords, logger } = run;
  run.transaction(() => {
    store.snoozes.set({ ...keep, untilMs: nowMs });
    store.audit.record({
      atMs: nowMs,
      actor: BOT_ACTOR,
      action: "keep-ended",
      host: keep.host,
      detail: { keptBy: keep.byUser, keptAtMs: keep.setAtMs, keptUntilMs: keep.untilMs, emptySinceMs },
    });
    const text = alertWords.autopilotKeepEnded({
      reader: keep.byUser,
      host: keep.host,
      keptUntilMs: keep.untilMs,
      emptySinceMs,
      nowMs,
    });
    notifier.send("chat.postMessage", { channel: keep.byUser, text });
  });
  logger.info({ host: keep.host, keptBy: keep.byUser }, "autopilot ended a keep: nothing left on the host");
}

function cancel(run: AlertRun, plan: AutopilotPlan, nowMs: number, hold: string): void {
  const { store } = run;
  run.transaction(() => {
    store.autopilot.remove(plan.host);
    const alert = store.alerts.openFor(plan.host, "idle");
    if (alert?.id === plan.alertId && alert.autoStopAtMs === plan.stopAtMs) {
      store.alerts.setAutoStopAt(alert.id, null);
    }
  });
  refreshAlert(run, plan, nowMs);
  run.logger.info({ host: plan.host, alertId: plan.alertId, hold }, "autopilot stop called off");
}

function stop(run: AlertRun, plan: AutopilotPlan, nowMs: number): void {
  const { store, logger, inFlight } = run;
  const { host, alertId } = plan;
  const alert = store.alerts.openFor(host, "idle");
  run.transaction(() => {
    store.autopilot.remove(host);
    if (alert !== null) store.alerts.setAutoStopAt(alert.id, null);
  });
  const stopAutomatically = run.deps.stopAutomatically;
  if (alert === null || stopAutomatically === undefined || run.autoStopsStarted.has(alertId)) return;
  run.autoStopsStarted.add(alertId);
  postInAlertThread(run, alert, run.alertWords.autopilotStopping({ plan, nowMs }));
  logger.info({ host, alertId, evidence: plan.evidence.class }, "autopilot stop due");
  const { evidence } = plan;
  const overClaimsMs =
    evidence.class === "empty" && evidence.outlivedClaims ? evidence.emptySinceMs : undefined;
  const settled: Promise<void> = stopAutomatically(
    host,
    alertId,
    AUTOPILOT_REASONS[evidence.class],
    overClaimsMs,
  )
    .then(
      () => undefined,
      (error: unknown) => {
        logger.error({ err: error, host, alertId }, "autopilot stop failed");
      },
    )
    .finally(() => inFlight.delete(settled));
  inFlight.add(settled);
}

function refreshAlert(run: AlertRun, plan: AutopilotPlan, nowMs: number): void {
  const alert = run.store.alerts.openFor(plan.host, "idle");
  if (alert !== null) refreshIdle(run, alert, nowMs, true);
}
