import { type HostClass, type HostSample, hostClass, nothingOn } from "./classify-host.ts";
import type { HostContext, IdlePolicy } from "./idle-policy.ts";

const MINUTE_MS = 60_000;

/**
 * Where a host stands after its latest sample:
 * - `busy`: a GPU is busy, or all GPUs are idle but someone is logged in (`sampleClass` tells which);
 * - `idle-pending`: idle, but not yet for the whole idle window;
 * - `protected`: idle for the window, but busy work started less than `protectMinutes` ago and
 *   something is still on the host (a process, GPU memory or a session: see `nothingOn`): with
 *   nothing left, there is no work to protect;
 * - `snoozed`: idle, but someone kept the host until `snoozedUntilMs`;
 * - `idle`: in an idle episode: the one status an alert is about;
 * - `suspect`: no GPU busy, but one reports an implausible reading (full utilisation with no memory at
 *   idle-level power): neither busy nor idle, so no episode, no protection and no "no data" notice;
 * - `unknown`: the latest sample is unknown (failed, stale, missing, a GPU without reading);
 * - `exempt`: a `never_stop` host; it is tracked but never idle.
 */
export type HostStatus =
  | "busy"
  | "idle-pending"
  | "idle"
  | "suspect"
  | "unknown"
  | "protected"
  | "snoozed"
  | "exempt";

/**
 * Why an idle episode ended: a busy sample (GPU work or an active session), a suspect reading, an
 * unknown sample or a gap in the samples, the stop workflow, a snooze, the host turned `never_stop`, or a policy change that
 * puts the episode back under its window or protection.
 */
export type EpisodeEndReason = "busy" | "suspect" | "unknown" | "stopped" | "snoozed" | "exempt" | "policy";

export interface EndedEpisode {
  idleSinceMs: number;
  startedAtMs: number;
  /** The sample that ended it. */
  endedAtMs: number;
  reason: EpisodeEndReason;
}

/**
 * The idle-episode state of one host. Instants are epoch ms of sample times, never of the clock.
 *
 * Invariants: `status === "idle"` ⇔ `episodeStartedAtMs !== null`; then
 * `episodeStartedAtMs − idleSinceMs ≥ idleForMinutes` and, when `busyStartedAtMs` is set and the
 * sample that began the episode had something on the host (`nothingOn`),
 * `episodeStartedAtMs − busyStartedAtMs ≥ protectMinutes`; and every sample from `idleSinceMs` on
 * was idle, with no gap longer than `staleAfterMinutes`.
 */
export interface IdleEpisodeState {
  status: HostStatus;
  /** What the latest sample said; `null` before the first one. */
  sampleClass: HostClass | null;
  /** Time of the latest sample applied; a sample at or before it is ignored. */
  lastSampleAtMs: number | null;
  /** Time of the latest sample that was not unknown. */
  lastKnownAtMs: number | null;
  /** First sample of the current unbroken idle stretch; `null` unless the latest sample is idle. */
  idleSinceMs: number | null;
  /** The sample at which the current episode began; `null` unless `status` is `idle`. */
  episodeStartedAtMs: number | null;
  /** Latest sample with a busy GPU. */
  lastBusyAtMs: number | null;
  /** First sample of the latest unbroken stretch of busy-GPU samples (the protection window's start). */
  busyStartedAtMs: number | null;
  /** Latest sample with all GPUs idle but an active login session. */
  lastSessionAtMs: number | null;
  /** First sample of the current run of unknown samples; `null` when the latest is known. */
  unknownSinceMs: number | null;
  /** Number of consecutive unknown samples up to the latest. */
  unknownPolls: number;
  /** The latest episode that ended, kept for the alert that resolves it. */
  lastEpisode: EndedEpisode | null;
  /** The latest sample, as evidence (GPU classes, utilisation, memory holders, sessions, failure). */
  latest: HostSample | null;
}

/** A host nothing is known about yet: unknown, never idle. */
export const INITIAL_IDLE_EPISODE: Readonly<IdleEpisodeState> = {
  status: "unknown",
  sampleClass: null,
  lastSampleAtMs: null,
  lastKnownAtMs: null,
  idleSinceMs: null,
  episodeStartedAtMs: null,
  lastBusyAtMs: null,
  busyStartedAtMs: null,
  lastSessionAtMs: null,
  unknownSinceMs: null,
  unknownPolls: 0,
  lastEpisode: null,
  latest: null,
};

/**
 * Advances a host's state by one sample.
 *
 * - A sample at or before `lastSampleAtMs` (a replay or a late arrival) is ignored: the same state
 *   object comes back.
 * - The idle stretch runs over consecutive idle samples. Anything else breaks it: a busy GPU, an
 *   active session, an unknown sample (unknown never starts or continues a stretch, so an episode
 *   never spans one), a gap longer than `staleAfterMinutes`, or a stop (`context.stoppedAtMs`)
 *   between the previous sample and this one. An idle sample after a break starts a new stretch.
 * - The busy stretch (protection) is broken the same way; its start is kept until a new one begins.
 * - The episode starts at the first idle sample at which the stretch is `idleForMinutes` old, busy
 *   work started at least `protectMinutes` ago, the host is not snoozed and not `never_stop`, and it
 *   is not within `stopGraceMinutes` of a stop with no busy GPU or session since; it lasts while
 *   every sample keeps all of that true.
 */
export function stepIdleEpisode(
  state: IdleEpisodeState,
  sample: HostSample,
  policy: IdlePolicy,
  context: HostContext,
): IdleEpisodeState {
  const atMs = sample.atMs;
  const previousAtMs = state.lastSampleAtMs;
  if (previousAtMs !== null && !(atMs > previousAtMs)) return state;
  const stopped =
    previousAtMs !== null &&
    context.stoppedAtMs !== null &&
    context.stoppedAtMs > previousAtMs &&
    context.stoppedAtMs <= atMs;
  const unbroken =
    previousAtMs !== null && atMs - previousAtMs <= policy.staleAfterMinutes * MINUTE_MS && !stopped;

  const sampleClass = hostClass(sample);
  const continues = unbroken && state.sampleClass === sampleClass;
  let idleSinceMs: number | null = null;
  let lastBusyAtMs = state.lastBusyAtMs;
  let busyStartedAtMs = state.busyStartedAtMs;
  let lastSessionAtMs = state.lastSessionAtMs;
  switch (sampleClass) {
    case "busy":
      lastBusyAtMs = atMs;
      busyStartedAtMs = continues ? state.busyStartedAtMs : atMs;
      break;
    case "session":
      lastSessionAtMs = atMs;
      break;
    case "idle":
      idleSinceMs = continues ? state.idleSinceMs : atMs;
      break;
    case "suspect":
    case "unknown":
      break;
    default:
      sampleClass satisfies never;
  }

  const afterStop = inStopGrace(atMs, lastBusyAtMs, lastSessionAtMs, policy, context);
  // NOTE: an episode begun on an empty host goes on when something appears on it while it stays idle.
  const unprotected = nothingOn(sample) || (state.status === "idle" && state.idleSinceMs === idleSinceMs);
  const status = statusOf(
    sampleClass,
    atMs,
    idleSinceMs,
    unprotected ? null : busyStartedAtMs,
    policy,
    context,
    afterStop,
  );
  const sameEpisode = state.status === "idle" && status === "idle" && state.idleSinceMs === idleSinceMs;
  const episodeStartedAtMs = status !== "idle" ? null : sameEpisode ? state.episodeStartedAtMs : atMs;
  const ended = state.status === "idle" && !sameEpisode;
  const unknown = sampleClass === "unknown";

  return {
    status,
    sampleClass,
    lastSampleAtMs: atMs,
    lastKnownAtMs: unknown ? state.lastKnownAtMs : atMs,
    idleSinceMs,
    episodeStartedAtMs,
    lastBusyAtMs,
    busyStartedAtMs,
    lastSessionAtMs,
    unknownSinceMs: unknown ? (state.unknownSinceMs ?? atMs) : null,
    unknownPolls: unknown ? state.unknownPolls + 1 : 0,
    lastEpisode: ended
      ? {
          idleSinceMs: state.idleSinceMs!,
          startedAtMs: state.episodeStartedAtMs!,
          endedAtMs: atMs,
          reason: stopped ? "stopped" : endReason(status, unbroken),
        }
      : state.lastEpisode,
    latest: sample,
  };
}

/**
 * The state after `samples`, in time order, starting from `initial`: the fold of
 * {@link stepIdleEpisode}, used to rebuild states from stored history after a restart.
 */
export function evaluateHost(
  samples: Iterable<HostSample>,
  policy: IdlePolicy,
  context: HostContext,
  initial: IdleEpisodeState = INITIAL_IDLE_EPISODE,
): IdleEpisodeState {
  let state = initial;
  for (const sample of samples) state = stepIdleEpisode(state, sample, policy, context);
  return state;
}

function statusOf(
  sampleClass: HostClass,
  atMs: number,
  idleSinceMs: number | null,
  busyStartedAtMs: number | null,
  policy: IdlePolicy,
  context: HostContext,
  afterStop: boolean,
): HostStatus {
  if (context.neverStop) return "exempt";
  switch (sampleClass) {
    case "busy":
    case "session":
      return "busy";
    case "suspect":
      return "suspect";
    case "unknown":
      return "unknown";
    case "idle":
      if (context.snoozedUntilMs !== null && atMs < context.snoozedUntilMs) return "snoozed";
      if (idleSinceMs === null || atMs - idleSinceMs < policy.idleForMinutes * MINUTE_MS || afterStop)
        return "idle-pending";
      if (busyStartedAtMs !== null && atMs - busyStartedAtMs < policy.protectMinutes * MINUTE_MS) {
        return "protected";
      }
      return "idle";
    default:
      return sampleClass satisfies never;
  }
}

/** Within the stop grace of the host's latest stop, with no busy GPU or session since it. */
function inStopGrace(
  atMs: number,
  lastBusyAtMs: number | null,
  lastSessionAtMs: number | null,
  policy: IdlePolicy,
  context: HostContext,
): boolean {
  const stoppedAtMs = context.stoppedAtMs;
  const graceMs = (policy.stopGraceMinutes ?? 0) * MINUTE_MS;
  if (stoppedAtMs === null || atMs < stoppedAtMs || atMs - stoppedAtMs >= graceMs) return false;
  return (lastBusyAtMs ?? -1) < stoppedAtMs && (lastSessionAtMs ?? -1) < stoppedAtMs;
}

function endReason(status: HostStatus, unbroken: boolean): EpisodeEndReason {
  switch (status) {
    case "busy":
      return "busy";
    case "suspect":
      return "suspect";
    case "unknown":
      return "unknown";
    case "snoozed":
      return "snoozed";
    case "exempt":
      return "exempt";
    case "idle":
    case "idle-pending":
    case "protected":
      return unbroken ? "policy" : "unknown";
    default:
      return status satisfies never;
  }
}
