import type { HostObservation } from "../domain/observation.ts";
import { classifyHost, type HostSample } from "./classify-host.ts";
import {
  type EndedEpisode,
  type IdleEpisodeState,
  INITIAL_IDLE_EPISODE,
  stepIdleEpisode,
} from "./idle-episode.ts";
import { DEFAULT_HOST_CONTEXT, type HostContext, type IdlePolicy } from "./idle-policy.ts";

const MINUTE_MS = 60_000;

/** One poll's worth of input for the idle checks of a whole fleet. */
export interface SweepInput {
  /** The poll's instant: samples older than `staleAfterMinutes` at this time are unknown. */
  nowMs: number;
  policy: IdlePolicy;
  /** States after the previous sweep, by host; a host absent here starts from nothing known. */
  previous: ReadonlyMap<string, IdleEpisodeState>;
  /**
   * This poll's observations. Where two sources report the same host, a successful observation wins
   * over a failed one, then the later one.
   */
  observations: readonly HostObservation[];
  /** Hosts expected to report (configured ones); with those in `previous`, a host without an observation is unknown. */
  expectedHosts?: readonly string[];
  /** Per-host snooze, `never_stop` and stop records; a host absent here has {@link DEFAULT_HOST_CONTEXT}. */
  contexts?: ReadonlyMap<string, HostContext>;
}

/**
 * What the alert lifecycle acts on, with the host's new state:
 * - `episode-started`: post the alert;
 * - `episode-continued`: the host is still idle; update the alert in place;
 * - `episode-ended`: resolve the alert, saying why (`episode.reason`);
 * - `no-data`: `noDataPolls` consecutive unknown polls: post the one "no data from host since …"
 *   notice (`state.unknownSinceMs`, `state.lastKnownAtMs`, `state.latest` has the cause); not for
 *   `never_stop` hosts nor for a host that went dark after the bot stopped it and was not used since;
 * - `data-restored`: a known sample after such a notice was due.
 *
 * An episode that ends and a new one that starts in the same poll give `episode-ended` first.
 */
export type IdleTransition =
  | { kind: "episode-started"; host: string; atMs: number; state: IdleEpisodeState }
  | { kind: "episode-continued"; host: string; atMs: number; state: IdleEpisodeState }
  | { kind: "episode-ended"; host: string; atMs: number; episode: EndedEpisode; state: IdleEpisodeState }
  | { kind: "no-data"; host: string; atMs: number; state: IdleEpisodeState }
  | { kind: "data-restored"; host: string; atMs: number; unknownSinceMs: number; state: IdleEpisodeState };

export interface SweepResult {
  /** The new state of every host in `previous`, `observations` and `expectedHosts`. */
  states: Map<string, IdleEpisodeState>;
  transitions: IdleTransition[];
}

/** Runs the idle checks of every host for one poll. Pure: time comes from `input.nowMs`. */
export function sweep(input: SweepInput): SweepResult {
  const { nowMs, policy, previous, contexts } = input;
  const chosen = new Map<string, HostObservation>();
  for (const observation of input.observations) {
    const other = chosen.get(observation.host);
    if (other === undefined || prefer(observation, other)) chosen.set(observation.host, observation);
  }
  const states = new Map<string, IdleEpisodeState>();
  const transitions: IdleTransition[] = [];
  const visit = (host: string): void => {
    if (states.has(host)) return;
    const before = previous.get(host) ?? INITIAL_IDLE_EPISODE;
    const context = contexts?.get(host) ?? DEFAULT_HOST_CONTEXT;
    const sample = hostSampleAt(host, chosen.get(host), nowMs, policy);
    const after = stepIdleEpisode(before, sample, policy, context);
    states.set(host, after);
    if (after !== before) collectTransitions(host, before, after, policy, context, transitions);
  };
  for (const host of chosen.keys()) visit(host);
  for (const host of previous.keys()) visit(host);
  if (input.expectedHosts !== undefined) for (const host of input.expectedHosts) visit(host);
  return { states, transitions };
}

/**
 * The sample a sweep at `nowMs` uses for `host`: the observation, classified, or an unknown sample
 * at `nowMs` when the observation is missing (`missing`) or older than `staleAfterMinutes` (`stale`).
 */
export function hostSampleAt(
  host: string,
  observation: HostObservation | undefined,
  nowMs: number,
  policy: IdlePolicy,
): HostSample {
  if (observation === undefined) {
    return { atMs: nowMs, ok: false, cause: "missing", message: `${host}: no observation in this poll` };
  }
  const ageMs = nowMs - observation.atMs;
  if (ageMs > policy.staleAfterMinutes * MINUTE_MS) {
    const ageMinutes = Math.floor(ageMs / MINUTE_MS);
    const lastSampleAtMs = observation.ok ? observation.atMs : observation.lastSampleAtMs;
    const message = `${host}: latest observation is ${ageMinutes} min old`;
    return lastSampleAtMs === undefined
      ? { atMs: nowMs, ok: false, cause: "stale", message }
      : { atMs: nowMs, ok: false, cause: "stale", message, lastSampleAtMs };
  }
  return classifyHost(observation, policy);
}

/**
 * Whether a host's dark spell is expected, so no "no data" notice is due: `never_stop` hosts, and a
 * host that has been dark since the bot stopped it with no busy GPU or active session since.
 */
export function noDataExpected(state: IdleEpisodeState, context: HostContext): boolean {
  if (context.neverStop) return true;
  const stoppedAtMs = context.stoppedAtMs;
  if (stoppedAtMs === null || state.unknownSinceMs === null || state.unknownSinceMs < stoppedAtMs)
    return false;
  return (state.lastBusyAtMs ?? -1) < stoppedAtMs && (state.lastSessionAtMs ?? -1) < stoppedAtMs;
}

function prefer(candidate: HostObservation, current: HostObservation): boolean {
  if (candidate.ok !== current.ok) return candidate.ok;
  return candidate.atMs > current.atMs;
}

function collectTransitions(
  host: string,
  before: IdleEpisodeState,
  after: IdleEpisodeState,
  policy: IdlePolicy,
  context: HostContext,
  out: IdleTransition[],
): void {
  const atMs = after.lastSampleAtMs!;
  const wasIdle = before.status === "idle";
  const isIdle = after.status === "idle";
  const same = wasIdle && isIdle && before.episodeStartedAtMs === after.episodeStartedAtMs;
  if (same) {
    out.push({ kind: "episode-continued", host, atMs, state: after });
  } else {
    if (wasIdle) out.push({ kind: "episode-ended", host, atMs, episode: after.lastEpisode!, state: after });
    if (isIdle) out.push({ kind: "episode-started", host, atMs, state: after });
  }
  if (before.unknownPolls < policy.noDataPolls && after.unknownPolls >= policy.noDataPolls) {
    if (!noDataExpected(after, context)) out.push({ kind: "no-data", host, atMs, state: after });
  } else if (before.unknownPolls >= policy.noDataPolls && after.unknownPolls === 0) {
    if (!noDataExpected(before, context)) {
      out.push({ kind: "data-restored", host, atMs, unknownSinceMs: before.unknownSinceMs!, state: after });
    }
  }
}
