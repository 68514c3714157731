import type { IdlePolicy } from "../../checks/idle-policy.ts";
import { tariffOf } from "../../checks/tariff-price.ts";
import {
  type ReplayCalendar,
  type ReplayHost,
  replayHost,
  type WhatIfPolicy,
} from "../../checks/what-if-replay.ts";
import type { Config } from "../../config/schema.ts";
import type { HostRecord } from "../../domain/metrics.ts";
import type { HostObservation } from "../../domain/observation.ts";
import type { Source } from "../../domain/source.ts";
import type {
  WhatIfHistory,
  WhatIfPolicyReport,
  WhatIfReport,
  WhatIfStop,
} from "../../domain/what-if-report.ts";
import { HOUR_MS, MINUTE_MS } from "../../shared/clock.ts";
import { localParts } from "../../shared/time.ts";
import type { MetricsStore } from "../../store/metrics-types.ts";
import { idlePolicyOf } from "../alerts/alert-policy.ts";
import { teamCalendarOf } from "./autopilot-policy.ts";
import { canReplay, engineSpan, readEngineGroups } from "./what-if-engine.ts";
import { engineSampler, type ReplayPricing, replayHostOf, storeReplayHost } from "./what-if-hosts.ts";

/**
 * What a replay reads: the configuration (prices, time zone, idle rules), the store's readings, and the
 * configured sources (those that keep history are asked for their hosts' past).
 */
export interface WhatIfDeps {
  config: Config;
  metrics: Pick<MetricsStore, "hosts" | "hostSamplesSince" | "gpuSamplesSince" | "latestObservations">;
  sources?: readonly Source[];
  signal?: AbortSignal;
}

/** The policies a replay runs when none is named. */
export const DEFAULT_WHAT_IF_POLICIES = [
  "autopilot",
  "skypilot-autostop-30",
  "process-autostop-30",
  "nightly",
  "nightly-smart",
] as const;

/** A policy name the replay does not know. */
export class WhatIfPolicyError extends Error {
  readonly policy: string;
  constructor(policy: string) {
    super(`unknown what-if policy ${policy}`);
    this.policy = policy;
  }
}

/** The policy a name stands for (`process-autostop-30`, `skypilot-autostop-5`, `nightly`, `nightly-smart`, `autopilot`). */
export function whatIfPolicyOf(name: string, config: Pick<Config, "policy">): WhatIfPolicy {
  const timed = /^(process|skypilot)-autostop-([1-9][0-9]{0,4})$/.exec(name);
  if (timed !== null) {
    const kind = timed[1] === "process" ? "process-autostop" : "skypilot-autostop";
    return { kind, minutes: Number(timed[2]) };
  }
  if (name === "nightly" || name === "nightly-smart")
    return { kind: "nightly", smart: name === "nightly-smart" };
  if (name === "autopilot") {
    const { empty_minutes, stale_hours, warning_minutes } = config.policy.autopilot;
    return {
      kind: "autopilot",
      emptyMinutes: empty_minutes,
      staleHours: stale_hours,
      warningMinutes: warning_minutes,
    };
  }
  throw new WhatIfPolicyError(name);
}

/**
 * Replays the fleet's history in `[sinceMs, untilMs]` under each policy, nobody answering: the stops each
 * would have made, the capacity freed, the money saved, and each would-be false stop. The hosts of a
 * source that keeps history (a Prometheus-compatible engine) are read from the engine at the poll
 * interval (a minute at least: the policies count minutes), a group of hosts at a time; every other host, and an engine's host it did not give, from the
 * store's raw readings.
 */
export async function replayWhatIf(
  deps: WhatIfDeps,
  input: { sinceMs: number; untilMs: number; policies: readonly string[] },
): Promise<WhatIfReport> {
  const { config, metrics } = deps;
  const run = replayRun(config, input.policies);
  const latest = new Map(metrics.latestObservations().map((l) => [l.observation.host, l.observation]));
  const records = new Map(metrics.hosts().map((record) => [record.name, record]));
  const engine = await replayEngines(deps, input, { run, latest, records });
  let storeHosts = 0;
  for (const record of records.values()) {
    if (engine.replayed.has(record.name)) continue;
    storeHosts++;
    run.add(storeReplayHost(run.pricing, metrics, record, latest.get(record.name) ?? null, input.sinceMs));
  }
  return run.report(input.sinceMs, {
    engineHosts: engine.replayed.size,
    engineStepMs: engine.stepMs,
    storeHosts,
    engineFailures: engine.failures,
  });
}

/** The hosts of every source that can replay, read from its engine; failures leave hosts to the store. */
async function replayEngines(
  deps: WhatIfDeps,
  input: { sinceMs: number; untilMs: number },
  context: {
    run: ReplayRun;
    latest: Map<string, HostObservation>;
    records: Map<string, HostRecord>;
  },
): Promise<{ replayed: Set<string>; stepMs: number | null; failures: string[] }> {
  const { run, latest, records } = context;
  const sources = (deps.sources ?? []).filter(canReplay);
  const replayed = new Set<string>();
  const failures: string[] = [];
  if (sources.length === 0) return { replayed, stepMs: null, failures };
  const stepMs = Math.max(MINUTE_MS, deps.config.poll.interval_seconds * 1000);
  const span = engineSpan(input.sinceMs, input.untilMs, stepMs);
  const signal = deps.signal ?? new AbortController().signal;
  const gpusOf = (host: string) => records.get(host)?.gpus.length || null;
  for (const source of sources) {
    try {
      const hosts = (await source.hostsIn(span, signal)).filter((host) => !replayed.has(host));
      const sampler = () => engineSampler(span.stepMs, run.pricing.idlePolicy);
      await readEngineGroups(source, hosts, { span, gpusOf, signal }, sampler, (host, samples) => {
        const observation = latest.get(host) ?? null;
        replayed.add(host);
        run.add(
          replayHostOf(
            run.pricing,
            { name: host, source: source.kind, samples, latest: observation },
            input.sinceMs,
          ),
        );
      });
    } catch (error) {
      failures.push(error instanceof Error ? error.message : String(error));
    }
  }
  return { replayed, stepMs: span.stepMs, failures };
}

/** The replay's running totals: each host is replayed under every policy as it comes, then dropped. */
interface ReplayRun {
  pricing: ReplayPricing & { idlePolicy: IdlePolicy };
  add(host: ReplayHost): void;
  report(askedFromMs: number, history: WhatIfHistory): WhatIfReport;
}

function replayRun(config: Config, names: readonly string[]): ReplayRun {
  const policies = names.map((name) => ({ name, policy: whatIfPolicyOf(name, config) }));
  const calendar = calendarOf(config);
  const idlePolicy = idlePolicyOf(config);
  const pricing = { config, tariff: tariffOf(config.costs.electricity, config.team.timezone), idlePolicy };
  const stops = policies.map((): WhatIfStop[] => []);
  const hosts: string[] = [];
  const unpriced = new Set<string>();
  let fromMs: number | null = null;
  let toMs: number | null = null;
  return {
    pricing,
    add(host) {
      hosts.push(host.host);
      if (host.onPerHour === null) unpriced.add(host.host);
      const first = host.samples[0]?.atMs;
      const last = host.samples.at(-1)?.atMs;
      if (first !== undefined) fromMs = fromMs === null ? first : Math.min(fromMs, first);
      if (last !== undefined) toMs = toMs === null ? last : Math.max(toMs, last);
      policies.forEach(({ policy }, i) => {
        for (const stop of replayHost(host, policy, idlePolicy, calendar)) stops[i]!.push(stop);
      });
    },
    report: (askedFromMs, history) => ({
      fromMs,
      toMs,
      askedFromMs,
      timezone: config.team.timezone,
      currency: config.team.currency,
      hosts: hosts.sort(),
      history,
      policies: policies.map(({ name }, i) => policyReport(name, stops[i]!, unpriced)),
    }),
  };
}

function policyReport(name: string, stops: WhatIfStop[], unpriced: ReadonlySet<string>): WhatIfPolicyReport {
  stops.sort((a, b) => a.atMs - b.atMs || a.host.localeCompare(b.host));
  return {
    policy: name,
    stops,
    offHours: stops.reduce((sum, stop) => sum + stop.offHours, 0),
    capacityFreed: stops.reduce((sum, stop) => sum + (stop.capacityFreed ?? 0), 0),
    moneySaved: stops.reduce((sum, stop) => sum + (stop.moneySaved ?? 0), 0),
    unpricedHosts: [...new Set(stops.map((stop) => stop.host))].filter((host) => unpriced.has(host)),
    falseStops: stops.filter((stop) => stop.falseStop !== null).length,
  };
}

/** Team time for the replay: its time zone, and its working week (`team.working_hours`, `team.holidays`). */
function calendarOf(config: Config): ReplayCalendar {
  const zone = config.team.timezone;
  const hourStarts = new Map<number, number>();
  return {
    minuteOfDay(atMs) {
      const hourMs = Math.floor(atMs / HOUR_MS) * HOUR_MS;
      let start = hourStarts.get(hourMs);
      if (start === undefined) {
        const parts = localParts(hourMs, zone);
        start = parts.hour * 60 + parts.minute;
        hourStarts.set(hourMs, start);
      }
      return (start + Math.floor((atMs - hourMs) / 60_000)) % 1440;
    },
    team: teamCalendarOf(config),
  };
}
