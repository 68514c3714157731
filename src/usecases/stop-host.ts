import { countActiveSessions, hostClass } from "../checks/classify-host.ts";
import type { IdlePolicy } from "../checks/idle-policy.ts";
import { hostSampleAt } from "../checks/sweep.ts";
import type { ActionConfig } from "../config/schema.ts";
import type { LatestObservation } from "../domain/metrics.ts";
import type { GpuReading } from "../domain/observation.ts";
import type { StopRun } from "../domain/stop-run.ts";
import { type ActionOutcome, describeAction, runAction } from "../executors/run-action.ts";
import { slotLabel } from "../shared/gpu-slot.ts";
import {
  BOT_ACTOR,
  listWords,
  localWhen,
  mention,
  slackEscape,
  type UnknownHost,
  unknownHost,
  unknownHostText,
} from "./action-text.ts";
import {
  authorityFor,
  type HostActionDeps,
  type HostAuthority,
  isAdmin,
  mayAct,
  refusalText,
} from "./authorise.ts";

export interface StopHostDeps extends HostActionDeps {
  /** The idle rules the checks use: the re-check classifies the latest observation with them. */
  idlePolicy: IdlePolicy;
  /** For webhook stop actions; default: the global fetch. */
  fetch?: typeof fetch;
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
  /** One or two sentences for the person who asked, in English (the audit, the thread). */
  text: string;
  /** The facts behind the refusal, for the surfaces' own words; absent where only `text` says it yet. */
  facts?: StopRefusalFacts;
  /** An admin may force it (busy, in use, no data). */
  forceable: boolean;
}

/** Why a stop was refused, as data (see {@link StopRefusal.facts}). */
export type StopRefusalFacts =
  | { reason: "unknown-host"; unknown: UnknownHost }
  | { reason: "not-allowed"; authority: HostAuthority }
  | { reason: "never-stop" | "no-stop-action" }
  | { reason: "already-running" | "already-stopped"; actor: string; atMs: number; nowMs: number }
  | { reason: "kept" | "claimed"; user: string; untilMs: number; nowMs: number };

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
  /** What the forced stop overrode, e.g. `gpu-a is busy now: GPU 3 at 97 %`. */
  overrode: string | null;
  dryRun: boolean;
  preStop: ActionConfig | null;
  stop: ActionConfig;
  reason: string;
  /** `<@U1> is stopping gpu-a: running `ssh gpu-a sudo poweroff`.` (posted in the thread). */
  text: string;
  /** The GPUs of the latest observation (memory and its holders: what a stop may lose). */
  gpus: readonly GpuReading[];
}

export type StopResult =
  | StopRefusal
  | { kind: "dry-run"; host: string; text: string }
  | { kind: "stopped"; host: string; forced: boolean; outcome: ActionOutcome; text: string }
  | {
      kind: "failed";
      host: string;
      stage: "pre_stop" | "stop";
      forced: boolean;
      outcome: ActionOutcome;
      text: string;
    };

/** What the latest observation says right now, for a stop. */
export type HostNow =
  | { kind: "idle" }
  | { kind: "busy" | "in-use" | "no-data" | "suspect"; text: string; sinceMs: number | null };

const NOT_SEEN = "not stopping a host I can't see";
const THREAD_TAIL_CHARS = 800;

/**
 * Re-checks a host at `nowMs` from its latest observation with the checks' classification: busy
 * (a GPU at or above the threshold), in use (an active login session), no data (failed, stale, never
 * seen, or a GPU without a reading) or idle. Pure.
 */
export function assessHostNow(
  host: string,
  latest: LatestObservation | null,
  nowMs: number,
  policy: IdlePolicy,
  zone: string,
): HostNow {
  const when = (ms: number) => localWhen(ms, nowMs, zone);
  if (latest === null) {
    return { kind: "no-data", text: `no data from ${host} yet: ${NOT_SEEN}`, sinceMs: null };
  }
  const sample = hostSampleAt(host, latest.observation, nowMs, policy);
  const sinceMs = latest.lastOkAtMs;
  if (!sample.ok) {
    const since = sinceMs === null ? "yet" : `since ${when(sinceMs)}`;
    const cause =
      sample.cause === "stale" || sample.cause === "missing"
        ? ""
        : ` (${slackEscape(sample.message.replace(`${host}: `, ""))})`;
    return { kind: "no-data", text: `no data from ${host} ${since}${cause}: ${NOT_SEEN}`, sinceMs };
  }
  const sampleClass = hostClass(sample);
  switch (sampleClass) {
    case "busy": {
      const busy = sample.gpus
        .filter((gpu) => gpu.class === "busy")
        .sort((a, b) => (b.utilPct ?? 0) - (a.utilPct ?? 0))
        .map((gpu) => `GPU ${slotLabel(gpu.index)} at ${Math.round(gpu.utilPct ?? 0)} %`);
      const shown = busy.length > 3 ? [...busy.slice(0, 2), `${busy.length - 2} more`] : busy;
      return { kind: "busy", text: `${host} is busy now: ${listWords(shown, "and")}`, sinceMs: null };
    }
    case "session": {
      const active = (sample.sessions ?? []).filter(
        (session) => countActiveSessions([session], policy.idleForMinutes) === 1,
      );
      const users = [...new Set(active.map((session) => slackEscape(session.user)))];
      const lines = [...new Set(active.map((session) => session.line))].slice(0, 3).join(", ");
      const who =
        users.length === 0 ? "someone is" : `${listWords(users, "and")} ${users.length === 1 ? "is" : "are"}`;
      return { kind: "in-use", text: `${host} is in use now: ${who} logged in (${lines})`, sinceMs: null };
    }
    case "unknown": {
      if (sample.gpus.length === 0) {
        return { kind: "no-data", text: `${host} reports no GPUs: ${NOT_SEEN}`, sinceMs };
      }
      const blind = sample.gpus.filter((gpu) => gpu.class === "unknown").map((gpu) => slotLabel(gpu.index));
      const gpus = blind.length === 1 ? `GPU ${blind[0]} has` : `GPUs ${blind.join(", ")} have`;
      return {
        kind: "no-data",
        text: `${host} ${gpus} no utilisation reading: ${NOT_SEEN}`,
        sinceMs,
      };
    }
    case "suspect": {
      const gpus = sample.gpus.filter((gpu) => gpu.class === "suspect").map((gpu) => slotLabel(gpu.index));
      const which = gpus.length === 1 ? `GPU ${gpus[0]} reports` : `GPUs ${gpus.join(", ")} report`;
      return {
        kind: "suspect",
        text: `${host} ${which} full utilisation with no memory held at idle power (a known driver fault): not stopping on suspect data`,
        sinceMs: null,
      };
    }
    case "idle":
      return { kind: "idle" };
    default:
      return sampleClass satisfies never;
  }
}

/** Every host the bot can act on: seen by a source or configured, sorted. */
export function knownHosts(deps: Pick<HostActionDeps, "fleet" | "config">): string[] {
  return [...new Set([...deps.fleet.hosts(), ...Object.keys(deps.config.hosts)])].sort();
}

/**
 * `null` when {@link knownHosts} has `host`, else what to tell the person (with the nearest name).
 * Checked without listing them all: the fleet knows exactly the hosts it has a reading or a state for.
 */
export function unknownHostFacts(
  deps: Pick<HostActionDeps, "config" | "fleet">,
  host: string,
): UnknownHost | null {
  return unknownHostProblem(deps, host) === null ? null : unknownHost(host, knownHosts(deps));
}

/** {@link unknownHostFacts} in English words, for the use-cases that still answer in words. */
export function unknownHostProblem(
  deps: Pick<HostActionDeps, "fleet" | "config">,
  host: string,
): string | null {
  const known =
    Object.hasOwn(deps.config.hosts, host) ||
    deps.fleet.latest(host) !== null ||
    deps.fleet.state(host) !== null;
  return known ? null : unknownHostText(host, knownHosts(deps));
}

/**
 * The synchronous half of a stop: the checks, then the exactly-once key. Checks, in order: the host
 * exists; it is not `never_stop`; the actor may stop it (owners, claimants, warden, admins); it has
 * a `stop` action; nobody is stopping it or has stopped it since it was last seen; and the latest
 * observation shows it idle now (an admin may force past busy, in use or no data). Automatic stops
 * also need the host in an idle episode, not kept and not claimed.
 *
 * Refusals (other than duplicates) are audited as `stop-refused`; those of automatic stops are also
 * posted in the alert thread. A begun plan is posted in the thread and the alert refreshed.
 */
export function beginStop(deps: StopHostDeps, request: StopRequest): StopRefusal | StopPlan {
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
        detail: { reason: check.reason, text: check.text, alertId: request.alertId ?? null },
      });
      if (request.actor === BOT_ACTOR) {
        deps.alerts.postInThread(request.host, `Automatic stop of ${request.host} cancelled: ${check.text}`);
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
  deps.alerts.refresh(plan.host);
  deps.alerts.postInThread(plan.host, plan.text);
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
  reason = "auto-stop: nobody kept the host",
): Promise<StopResult> {
  return stopHost(deps, { host, actor: BOT_ACTOR, alertId, reason });
}

function refusal(
  reason: StopRefusalKind,
  host: string,
  text: string,
  forceable = false,
  facts?: StopRefusalFacts,
): StopRefusal {
  return facts === undefined
    ? { kind: "refused", reason, host, text, forceable }
    : { kind: "refused", reason, host, text, facts, forceable };
}

/**
 * The checks of {@link beginStop} without taking the key or writing anything: what a stop would do
 * now (`begun` with no run), or why it would be refused.
 */
export function previewStop(deps: StopHostDeps, request: StopRequest): StopRefusal | StopPlan {
  const { config, state, fleet, clock } = deps;
  const { host, actor } = request;
  const nowMs = clock.now();
  const zone = config.team.timezone;
  const automatic = actor === BOT_ACTOR;
  const unknown = unknownHostProblem(deps, host);
  if (unknown !== null) {
    const facts = { reason: "unknown-host", unknown: unknownHost(host, knownHosts(deps)) } as const;
    return refusal("unknown-host", host, unknown, false, facts);
  }
  const settings = config.hosts[host];
  if (settings?.never_stop === true) {
    const text = `${host} is marked \`never_stop\` in the config: it is never stopped.`;
    return refusal("never-stop", host, text, false, { reason: "never-stop" });
  }
  if (!automatic) {
    const authority = authorityFor(deps, host, nowMs);
    if (!mayAct(actor, authority)) {
      const facts = { reason: "not-allowed", authority } as const;
      return refusal("not-allowed", host, refusalText(authority, "stop"), false, facts);
    }
  }
  const stop = settings?.stop;
  if (stop === undefined) {
    return refusal(
      "no-stop-action",
      host,
      `${host} has no stop action. Add one under \`hosts.${host}.stop\` in the config, e.g. ` +
        `\`stop: { command: [ssh, ${host}, sudo, poweroff] }\` or \`stop: { webhook: https://… }\`.`,
      false,
      { reason: "no-stop-action" },
    );
  }
  const latest = fleet.latest(host);
  const last = state.stopRuns.latestFor(host);
  if (last !== null) {
    const duplicate = duplicateOf(deps, host, last, latest);
    if (duplicate !== null) return duplicate;
  }
  const episode = fleet.state(host);
  if (automatic) {
    const held = automaticStopHeld(deps, host, episode?.status, nowMs);
    if (held !== null) return held;
  }
  const now = assessHostNow(host, latest, nowMs, deps.idlePolicy, zone);
  const forced = now.kind !== "idle" && request.force === true && isAdmin(actor, config);
  if (now.kind !== "idle" && !forced) {
    return refusal(now.kind, host, now.text, !automatic);
  }
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
  const overrode = now.kind === "idle" ? null : now.text;
  const running =
    preStop === null ? `\`${describe(stop)}\`` : `\`${describe(preStop)}\` then \`${describe(stop)}\``;
  const who = automatic
    ? `Stopping ${host} automatically (${request.reason})`
    : `${mention(actor)} is stopping ${host}`;
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
    text: `${who}: running ${running}${forced ? ` (forced by an admin: ${overrode})` : ""}.`,
    gpus: latest?.observation.ok === true ? latest.observation.gpus : [],
  };
}

/** Why an automatic stop does not go ahead now (kept, claimed, no longer idle), or `null`. */
function automaticStopHeld(
  deps: StopHostDeps,
  host: string,
  status: string | undefined,
  nowMs: number,
): StopRefusal | null {
  const { state } = deps;
  const zone = deps.config.team.timezone;
  const snooze = state.snoozes.activeAt(host, nowMs);
  if (snooze !== null) {
    return refusal(
      "kept",
      host,
      `${host} is kept by ${mention(snooze.byUser)} until ${localWhen(snooze.untilMs, nowMs, zone)}.`,
      false,
      { reason: "kept", user: snooze.byUser, untilMs: snooze.untilMs, nowMs },
    );
  }
  const claims = state.claims.activeOn(host, nowMs);
  const claim = claims[0];
  if (claim !== undefined) {
    return refusal(
      "claimed",
      host,
      `${host} is claimed by ${mention(claim.user)} until ${localWhen(claim.untilMs, nowMs, zone)}.`,
      false,
      { reason: "claimed", user: claim.user, untilMs: claim.untilMs, nowMs },
    );
  }
  if (status !== "idle") {
    return refusal("not-idle", host, `${host} is no longer in an idle episode (${status ?? "no state"}).`);
  }
  return null;
}

/** A run in progress, or a stop done since the host was last seen answering. */
function duplicateOf(
  deps: StopHostDeps,
  host: string,
  run: StopRun,
  latest: LatestObservation | null,
): StopRefusal | null {
  if (run.state === "running") return duplicateRefusal(deps, host, run);
  if (run.state !== "done" || run.dryRun) return null;
  const seenSince = latest?.lastOkAtMs != null && latest.lastOkAtMs > (run.finishedAtMs ?? run.startedAtMs);
  return seenSince ? null : duplicateRefusal(deps, host, run);
}

function duplicateRefusal(deps: StopHostDeps, host: string, run: StopRun): StopRefusal {
  const nowMs = deps.clock.now();
  const zone = deps.config.team.timezone;
  if (run.state === "running") {
    return refusal(
      "already-running",
      host,
      `${host} is already being stopped by ${mention(run.actor)} since ${localWhen(run.startedAtMs, nowMs, zone)}.`,
      false,
      { reason: "already-running", actor: run.actor, atMs: run.startedAtMs, nowMs },
    );
  }
  const atMs = run.finishedAtMs ?? run.startedAtMs;
  const at = localWhen(atMs, nowMs, zone);
  const text = `${host} was already stopped by ${mention(run.actor)} at ${at}.`;
  return refusal("already-stopped", host, text, false, {
    reason: "already-stopped",
    actor: run.actor,
    atMs,
    nowMs,
  });
}

async function execute(deps: StopHostDeps, plan: StopPlan): Promise<StopResult> {
  const { host } = plan;
  if (plan.preStop !== null) {
    const outcome = await act(deps, plan, plan.preStop);
    audit(deps, plan, outcome.ok ? "pre-stop" : "pre-stop-failed", outcome);
    if (!outcome.ok) {
      deps.state.stopRuns.finish(plan.runId!, "failed", deps.clock.now());
      const text =
        `Stop of ${host} cancelled: the pre-stop step \`${slackEscape(outcome.description)}\` ${how(outcome, plan.preStop)}. ` +
        `Nothing was stopped.${tailBlock(outcome)}`;
      deps.alerts.postInThread(host, text);
      deps.alerts.refresh(host);
      return { kind: "failed", host, stage: "pre_stop", forced: plan.forced, outcome, text };
    }
  }
  const outcome = await act(deps, plan, plan.stop);
  audit(deps, plan, outcome.ok ? "stop" : "stop-failed", outcome);
  if (!outcome.ok) {
    deps.state.stopRuns.finish(plan.runId!, "failed", deps.clock.now());
    const text =
      `Stopping ${host} failed: \`${slackEscape(outcome.description)}\` ${how(outcome, plan.stop)}. ` +
      `${host} may still be running; Stop can be tried again.${tailBlock(outcome)}`;
    deps.alerts.postInThread(host, text);
    deps.alerts.refresh(host);
    return { kind: "failed", host, stage: "stop", forced: plan.forced, outcome, text };
  }
  deps.state.stopRuns.finish(plan.runId!, "done", deps.clock.now());
  const by = plan.actor === BOT_ACTOR ? "automatically" : `by ${mention(plan.actor)}`;
  const forced = plan.forced ? " (forced)" : "";
  const text = `${host} stopped ${by}${forced}: \`${slackEscape(outcome.description)}\` ${how(outcome, plan.stop)}.${tailBlock(outcome)}`;
  deps.alerts.postInThread(host, text);
  deps.alerts.resolve(host, "stopped");
  return { kind: "stopped", host, forced: plan.forced, outcome, text };
}

async function dryRun(deps: StopHostDeps, plan: StopPlan): Promise<StopResult> {
  const steps = plan.preStop === null ? [plan.stop] : [plan.preStop, plan.stop];
  const outcomes: ActionOutcome[] = [];
  for (const step of steps) outcomes.push(await act(deps, plan, step));
  const described = outcomes.map((outcome) => `\`${slackEscape(outcome.description)}\``).join(" then ");
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
  const text =
    `Dry run: would run ${described} to stop ${plan.host} (asked by ${mention(plan.actor)}` +
    `${plan.forced ? ", forced" : ""}); nothing was changed.`;
  deps.alerts.postInThread(plan.host, text);
  return { kind: "dry-run", host: plan.host, text };
}

function act(deps: StopHostDeps, plan: StopPlan, action: ActionConfig): Promise<ActionOutcome> {
  const options =
    deps.fetch === undefined ? { dryRun: plan.dryRun } : { dryRun: plan.dryRun, fetch: deps.fetch };
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

/** `exited 0`, `answered HTTP 202`, `was killed after 5 s (timeout)`, `could not run`. */
function how(outcome: ActionOutcome, action: ActionConfig): string {
  if (outcome.timedOut) {
    return "command" in action
      ? `was killed after ${action.timeout_seconds} s (timeout)`
      : `got no answer within ${action.timeout_seconds} s`;
  }
  if (outcome.exitCode === null) return "could not run";
  return "command" in action ? `exited ${outcome.exitCode}` : `answered HTTP ${outcome.exitCode}`;
}

function tailBlock(outcome: ActionOutcome): string {
  const tail = outcome.outputTail.trim();
  if (tail === "") return "";
  const cut = tail.length > THREAD_TAIL_CHARS ? `…${tail.slice(-THREAD_TAIL_CHARS)}` : tail;
  return `\n\`\`\`\n${slackEscape(cut)}\n\`\`\``;
}

function describe(action: ActionConfig): string {
  return slackEscape(describeAction(action));
}
