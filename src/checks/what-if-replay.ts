import type { HostObservation, SourceKind } from "../domain/observation.ts";
import type { WhatIfStop, WouldBeFalseStop } from "../domain/what-if-report.ts";
import { type AutopilotPlan, nextEmptySinceMs, planAutopilot } from "./autopilot-plan.ts";
import { type HostSample, hostClass } from "./classify-host.ts";
import { type IdleEpisodeState, INITIAL_IDLE_EPISODE, stepIdleEpisode } from "./idle-episode.ts";
import { DEFAULT_HOST_CONTEXT, type IdlePolicy } from "./idle-policy.ts";
import type { TeamCalendar } from "./working-hours.ts";

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** GPU memory above this on a GPU means a process holds it (the driver's own few MiB are not one). */
export const HELD_MEMORY_MIB = 256;

/** A stop is a would-be false stop when the host shows someone's work within this long after it. */
export const WOULD_BE_FALSE_STOP_HOURS = 2;

/**
 * The policies a replay knows:
 * - `process-autostop-N`: no GPU process (no GPU memory held, no GPU busy) for N minutes;
 * - `skypilot-autostop-N`: SkyPilot's `jobs_and_ssh`: no job and no SSH session for N minutes (the
 *   store knows no job queue: a GPU process stands in for a job);
 * - `nightly`: every host on at 19:00 (team time); `nightly-smart`: those without a GPU process;
 * - `autopilot`: the product's own autopilot ({@link planAutopilot}) with these thresholds
 *   (`policy.autopilot`), on for every host, nobody pressing Keep, claiming or reserving.
 */
export type WhatIfPolicy =
  | { kind: "process-autostop"; minutes: number }
  | { kind: "skypilot-autostop"; minutes: number }
  | { kind: "nightly"; smart: boolean }
  | { kind: "autopilot"; emptyMinutes: number; staleHours: number; warningMinutes: number };

/** Team time the replay needs: local minute of the day, and the team's working week. */
export interface ReplayCalendar {
  minuteOfDay(atMs: number): number;
  team: TeamCalendar;
}

/** One host's history as the idle checks see it, with what an hour of it costs. */
export interface ReplayHost {
  host: string;
  source: SourceKind;
  /** The idle checks' samples, oldest first (`samplesFromHistory`). */
  samples: readonly HostSample[];
  /** Per hour on; `null`: no price configured. */
  onPerHour: number | null;
  /** What a stop saves per hour (the cloud price, a bought host's power); `null`: unknown. */
  savedPerHour: number | null;
  /** Owners of the GPU processes and logins of the latest sample (the store keeps no older ones). */
  latestHolders: readonly string[];
}

interface Minute {
  atMs: number;
  known: boolean;
  busy: boolean;
  held: boolean;
  logins: number;
  activeLogins: number;
  /** In an idle episode (the idle checks' `idle` status), and since when the GPUs are idle. */
  episode: boolean;
  idleSinceMs: number | null;
}

/** The stops `policy` would have made over `host`'s history, nobody answering. Pure. */
export function replayHost(
  host: ReplayHost,
  policy: WhatIfPolicy,
  idlePolicy: IdlePolicy,
  calendar: ReplayCalendar,
): WhatIfStop[] {
  const minutes = minutesOf(host.samples, idlePolicy);
  const heldSince = heldSinceIndex(minutes);
  const stops: WhatIfStop[] = [];
  const rule = ruleOf(policy, calendar, host, idlePolicy);
  let floor = 0;
  for (let i = 0; i < minutes.length; i++) {
    if (!rule(minutes, i, floor)) continue;
    const stop = stopAt(host, minutes, i, heldSince);
    stops.push(stop);
    if (stop.backAtMs === null) break;
    floor = minutes.findIndex((m) => m.atMs === stop.backAtMs);
    i = floor - 1;
  }
  return stops;
}

function minutesOf(samples: readonly HostSample[], idlePolicy: IdlePolicy): Minute[] {
  let state = INITIAL_IDLE_EPISODE;
  return samples.map((sample) => {
    state = stepIdleEpisode(state, sample, idlePolicy, DEFAULT_HOST_CONTEXT);
    const cls = hostClass(sample);
    const ok = sample.ok;
    return {
      atMs: sample.atMs,
      known: cls !== "unknown",
      busy: cls === "busy",
      held: ok && sample.gpus.some((gpu) => (gpu.memUsedMiB ?? 0) > HELD_MEMORY_MIB),
      logins: ok ? (sample.sessions?.length ?? 0) : 0,
      activeLogins: ok ? (sample.activeSessions ?? 0) : 0,
      episode: state.status === "idle",
      idleSinceMs: state.idleSinceMs,
    };
  });
}

/** Whether to stop at minute `i`; nothing before `floor` (the replayed start) counts. */
type Rule = (minutes: readonly Minute[], i: number, floor: number) => boolean;

function ruleOf(
  policy: WhatIfPolicy,
  calendar: ReplayCalendar,
  host: ReplayHost,
  idlePolicy: IdlePolicy,
): Rule {
  switch (policy.kind) {
    case "process-autostop":
      return quietFor(policy.minutes, (m) => m.known && !m.busy && !m.held);
    case "skypilot-autostop":
      return quietFor(policy.minutes, empty);
    case "nightly":
      return (minutes, i) => {
        const m = minutes[i]!;
        const due = m.known && crossesSeven(calendar, minutes, i);
        return due && (!policy.smart || (!m.busy && !m.held));
      };
    case "autopilot":
      return autopilotRule(policy, calendar.team, host, idlePolicy);
    default:
      return policy satisfies never;
  }
}

const empty = (m: Minute) => m.known && !m.busy && !m.held && m.logins === 0;

/** The first sample at or after 19:00 local on its day. */
function crossesSeven(calendar: ReplayCalendar, minutes: readonly Minute[], i: number): boolean {
  const now = calendar.minuteOfDay(minutes[i]!.atMs);
  if (now < 19 * 60) return false;
  if (i === 0) return true;
  const before = calendar.minuteOfDay(minutes[i - 1]!.atMs);
  return before < 19 * 60 || before > now || minutes[i]!.atMs - minutes[i - 1]!.atMs >= 24 * HOUR_MS;
}

/** True when `quiet` has held at every minute of the last `minutes` (none of them before `floor`). */
function quietFor(minutes: number, quiet: (m: Minute) => boolean): Rule {
  return (all, i, floor) => {
    const sinceMs = all[i]!.atMs - minutes * MINUTE_MS;
    if (all[floor]!.atMs > sinceMs) return false;
    for (let j = i; j >= floor && all[j]!.atMs >= sinceMs; j--) if (!quiet(all[j]!)) return false;
    return true;
  };
}

/** The live autopilot's state for one host, from the replayed start (`floor`) on. */
interface AutopilotRun {
  floor: number;
  episode: IdleEpisodeState;
  alerts: number;
  emptySinceMs: number | null;
  plan: AutopilotPlan | null;
}

/**
 * The product's autopilot ({@link planAutopilot}) minute by minute, as the live bot runs it after
 * each poll: the idle episode (an idle alert opens with each one), the host's empty stretch, the
 * plan it warned of; a replayed start (`floor`) begins afresh, as a host that reports again after a
 * stop does. Called for each minute in order from `floor`; true when the plan's stop is due.
 */
function autopilotRule(
  thresholds: Extract<WhatIfPolicy, { kind: "autopilot" }>,
  team: TeamCalendar,
  host: ReplayHost,
  idlePolicy: IdlePolicy,
): Rule {
  const { emptyMinutes, staleHours, warningMinutes } = thresholds;
  const policy = { enabled: true, emptyMinutes, staleHours, warningMinutes };
  let run: AutopilotRun | null = null;
  return (minutes, i, floor) => {
    if (run === null || run.floor !== floor) {
      run = {
        floor,
        episode: INITIAL_IDLE_EPISODE,
        alerts: run?.alerts ?? 0,
        emptySinceMs: null,
        plan: null,
      };
    }
    const sample = host.samples[i]!;
    const wasIdle = run.episode.status === "idle";
    run.episode = stepIdleEpisode(run.episode, sample, idlePolicy, DEFAULT_HOST_CONTEXT);
    const idle = run.episode.status === "idle";
    if (idle && !wasIdle) run.alerts++;
    const latest = observationOf(host, sample);
    run.emptySinceMs = nextEmptySinceMs(run.emptySinceMs, latest);
    const decision = planAutopilot({
      host: host.host,
      nowMs: minutes[i]!.atMs,
      policy,
      calendar: team,
      episode: { status: run.episode.status, idleSinceMs: run.episode.idleSinceMs },
      alertId: idle ? run.alerts : null,
      latest,
      emptySinceMs: run.emptySinceMs,
      claimants: [],
      claimedSinceMs: null,
      emptiedAtMs: null,
      reservedSoon: false,
      keptUntilMs: null,
      stopTried: false,
      plan: run.plan,
    });
    if (decision.kind === "warn") run.plan = decision.plan;
    if (decision.kind === "cancel") run.plan = null;
    return decision.kind === "stop";
  };
}

/** The observation a sample was classified from, as far as the idle checks kept it. */
function observationOf(host: ReplayHost, sample: HostSample): HostObservation {
  const { atMs } = sample;
  if (!sample.ok)
    return {
      host: host.host,
      source: host.source,
      atMs,
      ok: false,
      cause: sample.cause,
      message: sample.message,
    };
  return {
    host: host.host,
    source: host.source,
    atMs,
    ok: true,
    gpus: sample.gpus.map((gpu) => ({
      index: gpu.index,
      uuid: null,
      model: null,
      utilPct: gpu.utilPct,
      memUsedMiB: gpu.memUsedMiB,
      memTotalMiB: null,
      powerW: gpu.powerW,
      tempC: null,
      mig: false,
      processes: [...gpu.processes],
    })),
    sessions: sample.sessions === null ? null : [...sample.sessions],
    cpuLoad1: null,
    cpuUtilPct: null,
    containers: [],
  };
}

function stopAt(host: ReplayHost, minutes: readonly Minute[], i: number, heldSince: number): WhatIfStop {
  const at = minutes[i]!;
  let back = -1;
  let onMinutes = 0;
  for (let j = i + 1; j < minutes.length; j++) {
    const m = minutes[j]!;
    if (m.busy || (m.activeLogins > 0 && at.activeLogins === 0)) {
      back = j;
      break;
    }
    if (m.known) onMinutes++;
  }
  const offHours = onMinutes / 60;
  return {
    host: host.host,
    atMs: at.atMs,
    idleSinceMs: at.busy ? null : at.idleSinceMs,
    backAtMs: back === -1 ? null : minutes[back]!.atMs,
    offHours,
    capacityFreed: host.onPerHour === null ? null : offHours * host.onPerHour,
    moneySaved: host.savedPerHour === null ? null : offHours * host.savedPerHour,
    falseStop: falseStopOf(host, minutes, i, heldSince),
  };
}

function falseStopOf(
  host: ReplayHost,
  minutes: readonly Minute[],
  i: number,
  heldSince: number,
): WouldBeFalseStop | null {
  const at = minutes[i]!;
  const owners = i >= heldSince ? holders(host) : null;
  if (at.held || at.busy) return { reason: "process", atMs: at.atMs, owners };
  if (at.logins > 0) return { reason: "login", atMs: at.atMs, owners };
  const untilMs = at.atMs + WOULD_BE_FALSE_STOP_HOURS * HOUR_MS;
  for (let j = i + 1; j < minutes.length && minutes[j]!.atMs <= untilMs; j++) {
    const m = minutes[j]!;
    if (m.busy || m.held || m.logins > 0)
      return { reason: "work-soon", atMs: m.atMs, owners: j >= heldSince ? holders(host) : null };
  }
  return null;
}

function holders(host: ReplayHost): readonly string[] | null {
  return host.latestHolders.length > 0 ? host.latestHolders : null;
}

/** The first index from which every minute to the end shows something held (memory or a login). */
function heldSinceIndex(minutes: readonly Minute[]): number {
  let i = minutes.length;
  while (i > 0 && (minutes[i - 1]!.held || minutes[i - 1]!.logins > 0)) i--;
  return i;
}
