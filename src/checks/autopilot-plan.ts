import type { AutopilotEvidence, AutopilotPlan, StaleHolder } from "../domain/autopilot-plan.ts";
import type { HostObservation } from "../domain/observation.ts";
import { holdsNothing } from "./classify-host.ts";
import type { HostStatus } from "./idle-episode.ts";
import {
  mayStopSessionAt,
  nextSessionStopAt,
  type TeamCalendar,
  withinWorkingHours,
} from "./working-hours.ts";

export type {
  AutopilotEvidence,
  AutopilotPlan,
  EvidenceClass,
  StaleHolder,
} from "../domain/autopilot-plan.ts";

/**
 * The autopilot's decision for one host at one instant: whether the evidence lets the bot stop it
 * without anyone's answer, after a warning with Keep. Pure: the same input gives the same decision,
 * so the live bot, the simulation and a what-if replay over stored history share it.
 *
 * Evidence classes, each with its own threshold:
 * - `empty`: the host is in an idle episode and has nothing on it (no GPU process, no GPU memory held,
 *   no login session at all) for `emptyMinutes`: warned, then stopped `warningMinutes` later, at any
 *   hour;
 * - `stale`: in an idle episode whose GPUs have been idle for `staleHours`, with only processes or
 *   sessions left whose input is at least `staleHours` old: warned in the evening (`warningMinutes`
 *   before a working day's hours end, or at once in such an evening), then stopped at the first instant
 *   at least `warningMinutes` after the warning in the evening of a working day — never in the night
 *   or morning before working hours, nor on a day off (see `mayStopSessionAt`): a session left on a
 *   Friday waits for Monday evening, when its person has had a working day to come back to it.
 * Anything else (a GPU busy, a login with recent input or of unknown age, no data, a stall, a stage
 * gap inside protection) is never the autopilot's: the episode is not idle or the evidence fails.
 * A claim, a reservation starting within the hour or a Keep holds every class, with one exception:
 * outside working hours a claim made (or last confirmed with *Still using it*) before the host became
 * empty no longer holds an empty host: the work it was made for has ended, the claimant is warned
 * with the owners, and the claim itself stays (the GPUs are still theirs; a start brings the host back).
 */

/** The autopilot's rules for one host (`policy.autopilot`, with the host's own switch folded in). */
export interface AutopilotPolicy {
  /** Off for this host: fleet switch off, host switch off, no `stop` action, or `never_stop`. */
  enabled: boolean;
  /** Nothing on the host for this long before the warning. */
  emptyMinutes: number;
  /** GPUs idle and no input on the host for this long before the warning. */
  staleHours: number;
  /** The least time between the warning and the stop. */
  warningMinutes: number;
}

/** What the autopilot sees of one host at `nowMs`. */
export interface AutopilotInput {
  host: string;
  nowMs: number;
  policy: AutopilotPolicy;
  calendar: TeamCalendar;
  /** The idle checks' state of the host; `null`: never seen. */
  episode: { status: HostStatus; idleSinceMs: number | null } | null;
  /** The open idle alert; `null`: none. */
  alertId: number | null;
  /** The host's latest observation; `null`: none. */
  latest: HostObservation | null;
  /** Since when the host has been empty without a break (see {@link nextEmptySinceMs}); `null`: not empty now. */
  emptySinceMs: number | null;
  /**
   * When the host was seen becoming empty (this stretch began after a reading with something on it);
   * `null` when it is not empty or its stretch began unseen (as the bot started, or as the host booted):
   * then no claim or Keep is taken to have outlived its work.
   */
  emptiedAtMs: number | null;
  /** Slack users with a claim on the host now. */
  claimants: readonly string[];
  /** The latest instant a claim on the host now was made or confirmed (*Still using it*); `null`: none. */
  claimedSinceMs: number | null;
  /** Someone's reservation window is in force or starts within the hour. */
  reservedSoon: boolean;
  /** A Keep in force until then; `null`: none. */
  keptUntilMs: number | null;
  /** A stop was already tried for the open alert (running, done or failed): the alert's stop is not tried twice. */
  stopTried: boolean;
  /** The plan on record for the host; `null`: none. */
  plan: AutopilotPlan | null;
}

/** Why the autopilot does nothing to the host now. */
export type AutopilotHold =
  | "off"
  | "not-idle"
  | "no-alert"
  | "stop-tried"
  | "kept"
  | "claimed"
  | "reserved"
  | "in-use"
  | "not-yet";

/**
 * - `none`: no plan, nothing to do (`hold` says why);
 * - `warn`: a new plan: warn the owners (and the thread), persist it;
 * - `wait`: the plan stands, its stop is not due;
 * - `stop`: the plan is due and its evidence still holds: stop now (through the stop use-case);
 * - `cancel`: the plan on record no longer holds (`hold` says why): drop it.
 */
export type AutopilotDecision =
  | { kind: "none"; hold: AutopilotHold }
  | { kind: "warn"; plan: AutopilotPlan }
  | { kind: "wait"; plan: AutopilotPlan }
  | { kind: "stop"; plan: AutopilotPlan }
  | { kind: "cancel"; plan: AutopilotPlan; hold: AutopilotHold };

const MINUTE_MS = 60_000;

/** The autopilot's decision for one host; see the module comment for the rules. */
export function planAutopilot(input: AutopilotInput): AutopilotDecision {
  const hold = holdOf(input);
  const evidence = hold === null ? evidenceOf(input) : null;
  const { plan } = input;
  if (plan === null) {
    if (hold !== null) return { kind: "none", hold };
    if (evidence === null || !warnNow(input, evidence)) return { kind: "none", hold: "not-yet" };
    return { kind: "warn", plan: newPlan(input, input.alertId!, evidence) };
  }
  const why = hold ?? (evidence === null || evidence.class !== plan.evidence.class ? "in-use" : null);
  if (why !== null) return { kind: "cancel", plan, hold: why };
  if (input.nowMs < plan.stopAtMs) return { kind: "wait", plan };
  if (plan.evidence.class === "stale" && !mayStopSessionAt(input.calendar, input.nowMs)) {
    return { kind: "wait", plan };
  }
  return { kind: "stop", plan: { ...plan, evidence: evidence ?? plan.evidence } };
}

/**
 * Since when the host has been empty, after its latest observation: `previousMs` (or `atMs` when it
 * just became empty) while it shows nothing, `null` as soon as it shows anything or nothing is known.
 */
export function nextEmptySinceMs(previousMs: number | null, latest: HostObservation | null): number | null {
  if (latest === null || !isEmpty(latest)) return null;
  return previousMs ?? latest.atMs;
}

/**
 * Nothing on the host: every GPU read, no process and no memory held, and no login session. A source
 * that cannot see sessions (`null`) leaves it to the GPUs, as the idle checks do.
 */
export function isEmpty(observation: HostObservation): boolean {
  if (!observation.ok || observation.gpus.length === 0) return false;
  if (observation.sessions !== null && observation.sessions.length > 0) return false;
  return observation.gpus.every(holdsNothing);
}

function holdOf(input: AutopilotInput): AutopilotHold | null {
  if (!input.policy.enabled) return "off";
  if (input.episode?.status !== "idle") return "not-idle";
  if (input.alertId === null || (input.plan !== null && input.plan.alertId !== input.alertId)) {
    return "no-alert";
  }
  if (input.stopTried) return "stop-tried";
  if (input.keptUntilMs !== null && input.keptUntilMs > input.nowMs) return "kept";
  if (input.claimants.length > 0 && !claimsOutlived(input)) return "claimed";
  if (input.reservedSoon) return "reserved";
  return null;
}

/**
 * A claim made (or last confirmed) at `claimedSinceMs` was made for work that has ended: the host was
 * seen becoming empty (`emptiedAtMs`) after it, and it is outside working hours (in them, a claimant
 * between two runs is at work and the claim holds). The stop's re-check asks the same of each claim.
 */
export function claimOutlived(
  claimedSinceMs: number,
  emptiedAtMs: number | null,
  calendar: TeamCalendar,
  nowMs: number,
): boolean {
  if (emptiedAtMs === null || claimedSinceMs >= emptiedAtMs) return false;
  return !withinWorkingHours(calendar, nowMs);
}

/**
 * A Keep pressed at `keptAtMs` was for what was on the host then, and that has ended: the host was
 * seen becoming empty (`emptiedAtMs`) after the Keep, `emptyMinutes` ago or more, and it is outside
 * working hours. The Keep ends; the empty host is then warned and stopped as any other (a Keep pressed
 * on the empty host holds).
 */
export function keepOutlived(
  keptAtMs: number,
  emptiedAtMs: number | null,
  policy: AutopilotPolicy,
  calendar: TeamCalendar,
  nowMs: number,
): boolean {
  if (!policy.enabled || emptiedAtMs === null || keptAtMs >= emptiedAtMs) return false;
  if (nowMs - emptiedAtMs < policy.emptyMinutes * MINUTE_MS) return false;
  return !withinWorkingHours(calendar, nowMs);
}

function claimsOutlived(input: AutopilotInput): boolean {
  const { claimedSinceMs } = input;
  return (
    claimedSinceMs !== null && claimOutlived(claimedSinceMs, input.emptiedAtMs, input.calendar, input.nowMs)
  );
}

/** The evidence that holds now, or `null` (someone or something is on the host, or not for long enough). */
function evidenceOf(input: AutopilotInput): AutopilotEvidence | null {
  const { latest, nowMs, policy } = input;
  if (latest === null || !latest.ok) return null;
  const { emptySinceMs } = input;
  if (emptySinceMs !== null) {
    const planned = input.plan?.evidence.class === "empty";
    if (!planned && nowMs - emptySinceMs < policy.emptyMinutes * MINUTE_MS) return null;
    return input.claimants.length === 0
      ? { class: "empty", emptySinceMs }
      : { class: "empty", emptySinceMs, outlivedClaims: [...input.claimants] };
  }
  const idleSinceMs = input.episode?.idleSinceMs ?? null;
  const staleMinutes = policy.staleHours * 60;
  if (idleSinceMs === null || nowMs - idleSinceMs < staleMinutes * MINUTE_MS) return null;
  if (!onlyStaleInput(latest, policy.staleHours)) return null;
  const sessions = latest.sessions ?? [];
  return {
    class: "stale",
    idleSinceMs,
    holders: holdersOf(latest),
    sessions: sessions.map(({ user, line, idleMinutes }) => ({ user, line, idleMinutes: idleMinutes! })),
  };
}

/**
 * Nobody has typed on the host for `staleHours`: every login session's last input is known and at
 * least that old (a source that cannot see sessions leaves it to the GPUs). With the GPUs idle for as
 * long, what is left is the autopilot's `stale` class.
 */
export function onlyStaleInput(latest: HostObservation, staleHours: number): boolean {
  if (!latest.ok) return false;
  const staleMinutes = staleHours * 60;
  return (latest.sessions ?? []).every(
    (session) => session.idleMinutes !== null && session.idleMinutes >= staleMinutes,
  );
}

function holdersOf(latest: Extract<HostObservation, { ok: true }>): StaleHolder[] {
  const byProcess = new Map<string, StaleHolder & { gpus: number[] }>();
  for (const gpu of latest.gpus) {
    for (const process of gpu.processes) {
      const key = `${process.pid ?? process.name}:${process.user ?? ""}`;
      const holder = byProcess.get(key) ?? {
        user: process.user,
        name: process.name,
        pid: process.pid,
        gpus: [],
        memMiB: 0,
      };
      holder.gpus.push(gpu.index);
      holder.memMiB =
        holder.memMiB === null || process.usedMemoryMiB === null
          ? null
          : holder.memMiB + process.usedMemoryMiB;
      byProcess.set(key, holder);
    }
  }
  return [...byProcess.values()].sort((a, b) => (b.memMiB ?? 0) - (a.memMiB ?? 0));
}

/** A stale session is warned in the evening: no sooner than `warningMinutes` before it may be stopped. */
function warnNow(input: AutopilotInput, evidence: AutopilotEvidence): boolean {
  if (evidence.class === "empty") return true;
  const stopMs = nextSessionStopAt(input.calendar, input.nowMs);
  return stopMs - input.nowMs <= input.policy.warningMinutes * MINUTE_MS;
}

function newPlan(input: AutopilotInput, alertId: number, evidence: AutopilotEvidence): AutopilotPlan {
  const earliestMs = input.nowMs + input.policy.warningMinutes * MINUTE_MS;
  const stopAtMs = evidence.class === "empty" ? earliestMs : nextSessionStopAt(input.calendar, earliestMs);
  return { host: input.host, alertId, evidence, warnedAtMs: input.nowMs, stopAtMs };
}
