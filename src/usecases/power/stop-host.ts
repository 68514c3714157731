import { claimOutlived } from "../../checks/autopilot-plan.ts";
import { claimIdleStartMs } from "../../checks/claim-due.ts";
import { withoutDone } from "../../checks/done-holders.ts";
import type { IdlePolicy } from "../../checks/idle-policy.ts";
import { type RecentInput, recentInputOf } from "../../checks/recent-input.ts";
import { recentInputMinutes } from "../../checks/working-hours.ts";
import type { ActionConfig } from "../../config/schema.ts";
import type { LatestObservation } from "../../domain/metrics.ts";
import type { GpuReading } from "../../domain/observation.ts";
import type { StopRun } from "../../domain/stop-run.ts";
import { type ActionOutcome, describeAction, runAction } from "../../executors/run-action.ts";
import {
  authorityFor,
  doneOn,
  type HostActionDeps,
  holdsEverythingOn,
  isAdmin,
  mayAct,
} from "../authorise.ts";
import { teamCalendarOf } from "../autopilot/autopilot-policy.ts";
import { unknownHostFacts } from "../fleet/known-hosts.ts";
import { BOT_ACTOR } from "./action-text.ts";
import { assessHostNow } from "./assess-host-now.ts";
import { endInterruptedStops, enteredStopRun, isStaleStopRun, leftStopRun } from "./interrupted-stops.ts";
import { stepRun } from "./step-run.ts";
import type { HostNowFacts, StopNote, StopRefusalFacts } from "./stop-facts.ts";

export type { HostNowFacts, StopNote, StopRefusalFacts } from "./stop-facts.ts";

export interface StopHostDeps extends HostActionDeps {
  /** The idle rules the checks use: the re-check classifies the latest observation with them. */
  idlePolicy: IdlePolicy;
  /** The executor of webhook stop actions (production: the global `fetch`). */
  fetch: typeof fetch;
}

export interface StopRequest {
  host: string;
  /** Slack user id, or {@link BOT_ACTOR} for automatic stops. */
  actor: string;
  /** The alert whose button was pressed (or whose countdown ran out). */
  alertId?: number | undefined;
  /** An admin stops a host the re-check finds busy, in use, suspect or without data; recorded as forced. */
  force?: boolean;
  /** Why, for the audit and the webhook body: `alert button`, `/gpu stop`, `auto-stop after 30 min`. */
  reason: string;
  /**
   * The autopilot's stop of a host empty since then: outside working hours a claim made or confirmed
   * before it no longer holds the stop (see `claimOutlived`).
   */
  emptySinceMs?: number | undefined;
}

/** Why a stop did not start. */
export type StopRefusalKind =
  | "unknown-host"
  | "never-stop"
  | "not-allowed"
  | "no-stop-action"
  | "already-running"
  | "already-stopped"
  | "busy"
  | "in-use"
  | "no-data"
  | "suspect"
  | "kept"
  | "claimed"
  | "not-idle";

export interface StopRefusal {
  kind: "refused";
  reason: StopRefusalKind;
  host: string;
  /** The facts behind the refusal, for the surfaces' words. */
  facts: StopRefusalFacts;
  /** An admin may force it (busy, in use, no data). */
  forceable: boolean;
}

/** A stop that passed every check and, unless a dry run, holds its exactly-once key. */
export interface StopPlan {
  kind: "begun";
  host: string;
  actor: string;
  alertId: number | null;
  /** The exactly-once key (`alert:12`, `host:gpu-a:<episode start ms>`); `null` for a dry run. */
  key: string | null;
  runId: number | null;
  forced: boolean;
  /** What the forced stop overrode (busy, in use, no data, suspect). */
  overrode: HostNowFacts | null;
  dryRun: boolean;
  preStop: ActionConfig | null;
  stop: ActionConfig;
  reason: string;
  /** What the thread is told as it begins (who, what runs). */
  note: StopNote;
  /** The GPUs of the latest observation (memory and its holders: what a stop may lose). */
  gpus: readonly GpuReading[];
  /**
   * People who typed on the host recently (`recentInputMinutes`: within `policy.autopilot.stale_hours`,
   * or since the latest working day began if their person has had no whole working day to come
   * back since): the autopilot would leave their sessions alone; the confirm and the preview name them.
   */
  recent: readonly RecentInput[];
}

export type StopResult =
  | StopRefusal
  | { kind: "dry-run"; host: string; note: StopNote }
  | { kind: "stopped"; host: string; forced: boolean; outcome: ActionOutcome; note: StopNote }
  | {
      kind: "failed";
      host: string;
      stage: "pre_stop" | "stop";
      forced: boolean;
      outcome: ActionOutcome;
      note: StopNote;
    };

/**
 * The synchronous half of a stop: the checks, then the exactly-once key. Checks, in order: the host
 * exists; it is not `never_stop`; the actor may stop it (owners, claimants, warden, admins, or a person
 * whose logins hold everything on it, `team.logins`); it has
 * a `stop` action; nobody is stopping it or has stopped it since it was last seen; and the latest
 * observation shows it idle now (an admin may force past busy, in use or no data). Automatic stops
 * also need the host in an idle episode, not kept and not claimed.
 *
 * Refusals (other than duplicates) are audited as `stop-refused`; those of automatic stops are also
 * posted in the alert thread. A begun plan is posted in the thread and the alert refreshed. A run
 * a dead process left `running` past its timeouts is ended as interrupted first, never a refusal.
 */
export function beginStop(deps: StopHostDeps, request: StopRequest): StopRefusal | StopPlan {
  if (unknownHostFacts(deps, request.host) === null) endInterruptedStops(deps, request.host);
  const check = previewStop(deps, request);
  if (check.kind === "refused") {
    if (
      check.reason !== "unknown-host" &&
      check.reason !== "already-running" &&
      check.reason !== "already-stopped"
    ) {
      deps.state.audit.record({
        atMs: deps.clock.now(),
        actor: request.actor,
        action: "stop-refused",
        host: request.host,
        detail: { reason: check.reason, facts: check.facts, alertId: request.alertId ?? null },
      });
      if (request.actor === BOT_ACTOR) {
        deps.alerts.postNote(request.host, {
          kind: "stop-cancelled",
          host: request.host,
          refusal: check.facts,
        });
      }
    }
    return check;
  }
  if (check.dryRun) return check;
  const begun = deps.state.stopRuns.begin({
    key: check.key!,
    host: check.host,
    alertId: check.alertId,
    actor: check.actor,
    forced: check.forced,
    dryRun: false,
    startedAtMs: deps.clock.now(),
  });
  if (!begun.started) return duplicateRefusal(deps, check.host, begun.run);
  const plan = { ...check, runId: begun.run.id };
  enteredStopRun(deps.state.stopRuns, begun.run.id);
  deps.alerts.refresh(plan.host);
  deps.alerts.postNote(plan.host, plan.note);
  return plan;
}

/**
 * The slow half: runs `pre_stop` (a failure cancels the stop) and `stop` with their timeouts,
 * audits each, posts the outcome in the thread and resolves the alert as stopped on success. A
 * failure frees the key so Stop can be tried again. A dry run runs nothing and says what would run.
 */
export async function runStop(deps: StopHostDeps, plan: StopPlan): Promise<StopResult> {
  if (plan.dryRun) return dryRun(deps, plan);
  try {
    return await execute(deps, plan);
  } catch (error) {
    deps.state.stopRuns.finish(plan.runId!, "failed", deps.clock.now());
    throw error;
  } finally {
    leftStopRun(deps.state.stopRuns, plan.runId!);
  }
}

/** The whole stop: {@link beginStop}, then {@link runStop}. */
export async function stopHost(deps: StopHostDeps, request: StopRequest): Promise<StopResult> {
  const plan = beginStop(deps, request);
  return plan.kind === "begun" ? runStop(deps, plan) : plan;
}

/**
 * What the alert lifecycle calls when an auto-stop countdown runs out: the same stop, with the bot
 * as the actor (`gpu-warden`), refused unless the host is still in its idle episode.
 */
export function stopAutomatically(
  deps: StopHostDeps,
  host: string,
  alertId: number,
  reason = "auto-stop: nobody kept the host", // words-ok: audit reason code
  emptySinceMs?: number,
): Promise<StopResult> {
  return stopHost(deps, { host, actor: BOT_ACTOR, alertId, reason, emptySinceMs });
}

function refusal(
  reason: StopRefusalKind,
  host: string,
  facts: StopRefusalFacts,
  forceable = false,
): StopRefusal {
  return { kind: "refused", reason, host, facts, forceable };
}

/**
 * The checks of {@link beginStop} without taking the key or writing anything: what a stop would do
 * now (`begun` with no run), or why it would be refused.
 */
export function previewStop(deps: StopHostDeps, request: StopRequest): StopRefusal | StopPlan {
  const { config, state, fleet, clock } = deps;
  const { host, actor } = request;
  const nowMs = clock.now();
  const automatic = actor === BOT_ACTOR;
  const unknown = unknownHostFacts(deps, host);
  if (unknown !== null) return refusal("unknown-host", host, { reason: "unknown-host", unknown });
  const settings = config.hosts[host];
  if (settings?.never_stop === true) return refusal("never-stop", host, { reason: "never-stop" });
  const latest = fleet.latest(host);
  const done = doneOn(deps, host, latest?.observation ?? null);
  if (!automatic) {
    const authority = authorityFor(deps, host, nowMs);
    if (!mayAct(actor, authority) && !holdsEverythingOn(deps, host, actor, nowMs, done)) {
      return refusal("not-allowed", host, { reason: "not-allowed", authority });
    }
  }
  const stop = settings?.stop;
  if (stop === undefined) return refusal("no-stop-action", host, { reason: "no-stop-action" });
  const last = state.stopRuns.latestFor(host);
  if (last !== null) {
    const duplicate = duplicateOf(deps, host, last, latest);
    if (duplicate !== null) return duplicate;
  }
  const episode = fleet.state(host);
  if (automatic) {
    const held = automaticStopHeld(deps, host, episode?.status, nowMs, request.emptySinceMs ?? null);
    if (held !== null) return held;
  }
  const now = assessHostNow(host, latest, nowMs, deps.idlePolicy);
  const forced = now.kind !== "idle" && request.force === true && isAdmin(actor, config);
  if (now.kind !== "idle" && !forced) return refusal(now.kind, host, now.facts, !automatic);
  const dryRun = settings?.dry_run ?? config.dry_run;
  const preStop = settings?.pre_stop ?? null;
  const alertId = request.alertId ?? state.alerts.openFor(host, "idle")?.id ?? null;
  const episodeStartMs =
    episode?.episodeStartedAtMs ??
    episode?.idleSinceMs ??
    episode?.busyStartedAtMs ??
    episode?.unknownSinceMs ??
    latest?.observation.atMs ??
    0;
  const overrode = now.kind === "idle" ? null : now.facts;
  const steps = (preStop === null ? [stop] : [preStop, stop]).map(describeAction);
  return {
    kind: "begun",
    host,
    actor,
    alertId,
    key: dryRun ? null : alertId !== null ? `alert:${alertId}` : `host:${host}:${episodeStartMs}`,
    runId: null,
    forced,
    overrode,
    dryRun,
    preStop,
    stop,
    reason: request.reason,
    note: { kind: "stop-running", host, actor: automatic ? null : actor, steps, overrode },
    gpus: latest?.observation.ok === true ? latest.observation.gpus : [],
    recent: withoutDone(
      recentInputOf(
        latest?.observation ?? null,
        recentInputMinutes(teamCalendarOf(config), config.policy.autopilot.stale_hours, nowMs),
      ),
      done,
      config.team.logins,
    ),
  };
}

/** Why an automatic stop does not go ahead now (kept, claimed, no longer idle), or `null`. */
function automaticStopHeld(
  deps: StopHostDeps,
  host: string,
  status: string | undefined,
  nowMs: number,
  emptySinceMs: number | null,
): StopRefusal | null {
  const { state } = deps;
  const snooze = state.snoozes.activeAt(host, nowMs);
  if (snooze !== null) {
    return refusal("kept", host, { reason: "kept", user: snooze.byUser, untilMs: snooze.untilMs, nowMs });
  }
  const calendar = teamCalendarOf(deps.config);
  const claim = state.claims
    .activeOn(host, nowMs)
    .find((held) => !claimOutlived(claimIdleStartMs(held), emptySinceMs, calendar, nowMs));
  if (claim !== undefined) {
    return refusal("claimed", host, { reason: "claimed", user: claim.user, untilMs: claim.untilMs, nowMs });
  }
  if (status !== "idle") return refusal("not-idle", host, { reason: "not-idle", status: status ?? null });
  return null;
}

/**
 * A run in progress, or a stop done since the host was last seen answering. A run a dead process
 * left `running` past its timeouts is neither ({@link beginStop} ends it as interrupted).
 */
function duplicateOf(
  deps: StopHostDeps,
  host: string,
  run: StopRun,
  latest: LatestObservation | null,
): StopRefusal | null {
  if (run.state === "running") {
    return isStaleStopRun(deps, run, deps.clock.now()) ? null : duplicateRefusal(deps, host, run);
  }
  if (run.state !== "done" || run.dryRun) return null;
  const seenSince = latest?.lastOkAtMs != null && latest.lastOkAtMs > (run.finishedAtMs ?? run.startedAtMs);
  return seenSince ? null : duplicateRefusal(deps, host, run);
}

function duplicateRefusal(deps: StopHostDeps, host: string, run: StopRun): StopRefusal {
  const nowMs = deps.clock.now();
  if (run.state === "running") {
    return refusal("already-running", host, {
      reason: "already-running",
      actor: run.actor,
      atMs: run.startedAtMs,
      nowMs,
    });
  }
  const atMs = run.finishedAtMs ?? run.startedAtMs;
  return refusal("already-stopped", host, { reason: "already-stopped", actor: run.actor, atMs, nowMs });
}

async function execute(deps: StopHostDeps, plan: StopPlan): Promise<StopResult> {
  const { host } = plan;
  if (plan.preStop !== null) {
    const outcome = await act(deps, plan, plan.preStop);
    deps.state.transaction(() => {
      audit(deps, plan, outcome.ok ? "pre-stop" : "pre-stop-failed", outcome);
      if (!outcome.ok) deps.state.stopRuns.finish(plan.runId!, "failed", deps.clock.now());
    });
    if (!outcome.ok) {
      const note: StopNote = {
        kind: "stop-failed",
        host,
        stage: "pre_stop",
        step: stepRun(outcome, plan.preStop),
      };
      deps.alerts.postNote(host, note);
      deps.alerts.refresh(host);
      return { kind: "failed", host, stage: "pre_stop", forced: plan.forced, outcome, note };
    }
  }
  const outcome = await act(deps, plan, plan.stop);
  // NOTE: one transaction: a crash between the audit and the end would leave a run to interrupt whose stop was audited.
  deps.state.transaction(() => {
    audit(deps, plan, outcome.ok ? "stop" : "stop-failed", outcome);
    deps.state.stopRuns.finish(plan.runId!, outcome.ok ? "done" : "failed", deps.clock.now());
  });
  if (!outcome.ok) {
    const note: StopNote = { kind: "stop-failed", host, stage: "stop", step: stepRun(outcome, plan.stop) };
    deps.alerts.postNote(host, note);
    deps.alerts.refresh(host);
    return { kind: "failed", host, stage: "stop", forced: plan.forced, outcome, note };
  }
  const note: StopNote = {
    kind: "stopped",
    host,
    actor: plan.actor === BOT_ACTOR ? null : plan.actor,
    forced: plan.forced,
    step: stepRun(outcome, plan.stop),
  };
  deps.alerts.postNote(host, note);
  deps.alerts.resolve(host, "stopped");
  return { kind: "stopped", host, forced: plan.forced, outcome, note };
}

async function dryRun(deps: StopHostDeps, plan: StopPlan): Promise<StopResult> {
  const steps = plan.preStop === null ? [plan.stop] : [plan.preStop, plan.stop];
  const outcomes: ActionOutcome[] = [];
  for (const step of steps) outcomes.push(await act(deps, plan, step));
  deps.state.audit.record({
    atMs: deps.clock.now(),
    actor: plan.actor,
    action: "stop",
    host: plan.host,
    detail: {
      alertId: plan.alertId,
      reason: plan.reason,
      description: outcomes.map((outcome) => outcome.description),
      overrode: plan.overrode,
    },
    exitCode: null,
    outputTail: null,
    forced: plan.forced,
    dryRun: true,
  });
  const note: StopNote = {
    kind: "stop-dry-run",
    host: plan.host,
    actor: plan.actor,
    forced: plan.forced,
    steps: outcomes.map((outcome) => outcome.description),
  };
  deps.alerts.postNote(plan.host, note);
  return { kind: "dry-run", host: plan.host, note };
}

function act(deps: StopHostDeps, plan: StopPlan, action: ActionConfig): Promise<ActionOutcome> {
  const options = { dryRun: plan.dryRun, fetch: deps.fetch };
  return runAction(
    action,
    { host: plan.host, actor: plan.actor, reason: plan.reason, forced: plan.forced, atMs: deps.clock.now() },
    options,
  );
}

function audit(deps: StopHostDeps, plan: StopPlan, action: string, outcome: ActionOutcome): void {
  deps.state.audit.record({
    atMs: deps.clock.now(),
    actor: plan.actor,
    action,
    host: plan.host,
    detail: {
      alertId: plan.alertId,
      key: plan.key,
      reason: plan.reason,
      description: outcome.description,
      timedOut: outcome.timedOut,
      durationMs: Math.round(outcome.durationMs),
      overrode: plan.overrode,
    },
    exitCode: outcome.exitCode,
    outputTail: outcome.outputTail,
    forced: plan.forced,
    dryRun: false,
  });
}
