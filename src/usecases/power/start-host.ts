import type { IdlePolicy } from "../../checks/idle-policy.ts";
import type { ActionConfig } from "../../config/schema.ts";
import type { StopRun } from "../../domain/stop-run.ts";
import { describeAction, runAction } from "../../executors/run-action.ts";
import { authorityFor, type HostActionDeps, mayAct } from "../authorise.ts";
import { unknownHostFacts } from "../fleet/known-hosts.ts";
import { BOT_ACTOR } from "./action-text.ts";
import { assessHostNow } from "./assess-host-now.ts";
import type { StartNote, StartRefusalFacts, StartRun, StartTrigger } from "./start-facts.ts";
import { stepRun } from "./step-run.ts";

export type { StartNote, StartRefusalFacts, StartRun, StartTrigger } from "./start-facts.ts";

export interface StartHostDeps extends HostActionDeps {
  idlePolicy: IdlePolicy;
  /** For webhook start actions; default: the global fetch. */
  fetch?: typeof fetch;
}

export interface StartRequest {
  host: string;
  /** Slack user id, or {@link BOT_ACTOR} for a reservation's start. */
  actor: string;
  trigger: StartTrigger;
  /** Who is told when the host reports again; `null`: nobody. */
  user: string | null;
}

export interface StartRefusal {
  kind: "refused";
  host: string;
  facts: StartRefusalFacts;
}

/** A start that passed every check and holds the host's start (unless a dry run). */
export interface StartPlan {
  kind: "begun";
  host: string;
  actor: string;
  trigger: StartTrigger;
  start: ActionConfig;
  dryRun: boolean;
  note: StartNote;
}

/** What a start request came to: refused, begun, joined to a start already under way, or nothing to do. */
export type StartBegin =
  | StartRefusal
  | StartPlan
  | { kind: "joined"; host: string; run: StartRun }
  | { kind: "not-stopped"; host: string };

export type StartResult =
  | { kind: "dry-run"; host: string; note: StartNote }
  | { kind: "started" | "failed"; host: string; note: StartNote };

const metaKey = (host: string) => `start-run:${host}`;

// NOTE: the start follow-up and the claims job read every host's latest start each minute, and it
// rarely changes: one parse per stored text.
const parsedStarts = new Map<string, Readonly<StartRun>>();

/** The host's latest start, or `null`. Shared: read it, never change it. */
export function latestStart(deps: Pick<HostActionDeps, "state">, host: string): StartRun | null {
  const stored = deps.state.meta.get(metaKey(host));
  if (stored === null) return null;
  let run = parsedStarts.get(stored);
  if (run === undefined) {
    if (parsedStarts.size >= 1_024) parsedStarts.clear();
    run = JSON.parse(stored) as StartRun;
    parsedStarts.set(stored, run);
  }
  return run;
}

/** Saves the host's latest start. */
export function saveStart(deps: Pick<HostActionDeps, "state">, run: StartRun): void {
  deps.state.meta.set(metaKey(run.host), JSON.stringify(run));
}

/**
 * The bot's successful stop that left the host off: the latest done stop, not a dry run, with no
 * report from the host since. `null` when the host was not stopped by the bot (or came back).
 */
export function stoppedByBot(deps: Pick<HostActionDeps, "state" | "fleet">, host: string): StopRun | null {
  const run = deps.state.stopRuns.latestFor(host);
  if (run === null || run.state !== "done" || run.dryRun) return null;
  const lastOkAtMs = deps.fleet.latest(host)?.lastOkAtMs ?? null;
  return lastOkAtMs !== null && lastOkAtMs > (run.finishedAtMs ?? run.startedAtMs) ? null : run;
}

/** The configured projects `user` belongs to (each may claim any host, so its members may start it). */
export function projectsOf(deps: Pick<HostActionDeps, "config">, user: string): string[] {
  return Object.entries(deps.config.projects)
    .filter(([, project]) => project.members.includes(user))
    .map(([name]) => name);
}

/**
 * The checks of a start, without writing anything. A person's start (`/gpu start`, a button): the
 * host exists, has a `start` action, the person may start it (owners, claimants, members of a
 * project, the warden, admins) and the host does not report now. A claim's, grant's or
 * reservation's start happens only for a host the bot stopped (otherwise `not-stopped`).
 */
export function previewStart(
  deps: StartHostDeps,
  request: StartRequest,
): StartRefusal | StartPlan | { kind: "not-stopped"; host: string } {
  const { host } = request;
  const nowMs = deps.clock.now();
  const manual = request.trigger === "command" || request.trigger === "button";
  const unknown = unknownHostFacts(deps, host);
  if (unknown !== null) return manual ? refused(host, { reason: "unknown-host", unknown }) : notStopped(host);
  const start = deps.config.hosts[host]?.start;
  if (!manual && (start === undefined || stoppedByBot(deps, host) === null)) return notStopped(host);
  if (start === undefined) return refused(host, { reason: "no-start-action" });
  if (manual) {
    const authority = authorityFor(deps, host, nowMs);
    if (!mayAct(request.actor, authority) && projectsOf(deps, request.actor).length === 0) {
      const projects = Object.keys(deps.config.projects);
      return refused(host, { reason: "not-allowed", authority, projects });
    }
    const latest = deps.fleet.latest(host);
    const reporting = assessHostNow(host, latest, nowMs, deps.idlePolicy).kind !== "no-data";
    if (reporting && latest?.lastOkAtMs != null && stoppedByBot(deps, host) === null) {
      return refused(host, { reason: "already-up", lastOkAtMs: latest.lastOkAtMs, nowMs });
    }
  }
  const dryRun = deps.config.hosts[host]?.dry_run ?? deps.config.dry_run;
  const actor = request.actor;
  const steps = [describeAction(start)];
  const note: StartNote = dryRun
    ? { kind: "start-dry-run", host, actor, steps }
    : {
        kind: "start-running",
        host,
        actor: actor === BOT_ACTOR ? null : actor,
        trigger: request.trigger,
        user: request.user,
        steps,
      };
  return { kind: "begun", host, actor, trigger: request.trigger, start, dryRun, note };
}

/**
 * The synchronous half of a start: the checks, then, in one transaction, the host's start: a start
 * already running or waiting for the host to report for the same stop is joined (the person is told
 * with the others when the host reports), otherwise a new one is recorded. Each stop is thereby
 * undone once, however many requests arrive together. Refusals are audited as `start-refused`.
 */
export function beginStart(deps: StartHostDeps, request: StartRequest): StartBegin {
  const check = previewStart(deps, request);
  if (check.kind === "refused") {
    if (check.facts.reason !== "unknown-host") {
      deps.state.audit.record({
        atMs: deps.clock.now(),
        actor: request.actor,
        action: "start-refused",
        host: request.host,
        detail: { reason: check.facts.reason, trigger: request.trigger },
      });
    }
    return check;
  }
  if (check.kind === "not-stopped" || check.dryRun) return check;
  const began = deps.state.transaction((): StartBegin => {
    const stopRunId = stoppedByBot(deps, check.host)?.id ?? null;
    const current = latestStart(deps, check.host);
    const live = current !== null && isLive(current, check.start, deps.clock.now());
    if (live && current.stopRunId === stopRunId) {
      const waiters =
        request.user === null ? current.waiters : [...new Set([...current.waiters, request.user])];
      const run = { ...current, waiters };
      saveStart(deps, run);
      return { kind: "joined", host: check.host, run };
    }
    saveStart(deps, {
      host: check.host,
      stopRunId,
      state: "running",
      actor: check.actor,
      trigger: check.trigger,
      waiters: request.user === null ? [] : [request.user],
      startedAtMs: deps.clock.now(),
      finishedAtMs: null,
    });
    return check;
  });
  if (began.kind === "begun") deps.alerts.postNote(check.host, check.note);
  return began;
}

/**
 * The slow half: runs the `start` action with its timeout, audits it (`start`, `start-failed`),
 * says how it went in the alert's thread, and after a failure tells the people waiting. A dry run
 * runs nothing and says what would run.
 */
export async function runStart(deps: StartHostDeps, plan: StartPlan): Promise<StartResult> {
  const { host } = plan;
  const context = { host, actor: plan.actor, reason: `start: ${plan.trigger}`, forced: false };
  const outcome = await runAction(
    plan.start,
    { ...context, atMs: deps.clock.now() },
    deps.fetch === undefined ? { dryRun: plan.dryRun } : { dryRun: plan.dryRun, fetch: deps.fetch },
  );
  const nowMs = deps.clock.now();
  deps.state.audit.record({
    atMs: nowMs,
    actor: plan.actor,
    action: outcome.ok ? "start" : "start-failed",
    host,
    detail: {
      trigger: plan.trigger,
      description: outcome.description,
      timedOut: outcome.timedOut,
      durationMs: Math.round(outcome.durationMs),
    },
    exitCode: outcome.exitCode,
    outputTail: plan.dryRun ? null : outcome.outputTail,
    forced: false,
    dryRun: plan.dryRun,
  });
  if (plan.dryRun) {
    deps.alerts.postNote(host, plan.note);
    return { kind: "dry-run", host, note: plan.note };
  }
  const step = stepRun(outcome, plan.start);
  const graceMinutes = deps.config.policy.start_grace_minutes;
  const note: StartNote = outcome.ok
    ? { kind: "started", host, step, graceMinutes }
    : { kind: "start-failed", host, step };
  const run = deps.state.transaction(() => {
    const current = latestStart(deps, host);
    if (current === null) return null;
    const next: StartRun = { ...current, state: outcome.ok ? "started" : "failed", finishedAtMs: nowMs };
    saveStart(deps, next);
    return next;
  });
  deps.alerts.postNote(host, note);
  if (!outcome.ok) for (const user of run?.waiters ?? []) deps.alerts.tell(user, note);
  return { kind: outcome.ok ? "started" : "failed", host, note };
}

/**
 * For claims, queue grants and reservations: starts `host` for `user` when the bot stopped it (once
 * per stop; later requests join the first). The action runs on after this returns; failures are
 * logged. Does nothing for a host that is not stopped.
 */
export function startIfStopped(
  deps: StartHostDeps,
  host: string,
  user: string | null,
  trigger: Exclude<StartTrigger, "command" | "button">,
): StartBegin {
  const actor = trigger === "reservation" || user === null ? BOT_ACTOR : user;
  const began = beginStart(deps, { host, actor, trigger, user });
  if (began.kind === "begun") runStartInBackground(deps, began);
  return began;
}

/** Runs a begun start after the caller has answered; a failure to record it is logged. */
export function runStartInBackground(deps: StartHostDeps, plan: StartPlan): Promise<void> {
  return runStart(deps, plan).then(
    () => undefined,
    (error: unknown) => deps.logger.error({ err: error, host: plan.host }, "start failed to run"),
  );
}

/**
 * A start still under way: waiting for the host to report, or running within its action's timeout
 * (one left `running` by a crash is over once the timeout has passed, so it can be tried again).
 */
function isLive(run: StartRun, start: ActionConfig, nowMs: number): boolean {
  if (run.state === "started") return true;
  return run.state === "running" && nowMs - run.startedAtMs <= (start.timeout_seconds + 60) * 1000;
}

function refused(host: string, facts: StartRefusalFacts): StartRefusal {
  return { kind: "refused", host, facts };
}

function notStopped(host: string): { kind: "not-stopped"; host: string } {
  return { kind: "not-stopped", host };
}
