import { hostCostBasis, hostHourCost } from "../../checks/cost-model.ts";
import { tariffOf } from "../../checks/tariff-price.ts";
import {
  type ReplayCalendar,
  type ReplayHost,
  replayHost,
  type WhatIfPolicy,
} from "../../checks/what-if-replay.ts";
import type { Config } from "../../config/schema.ts";
import type { HostRecord } from "../../domain/metrics.ts";
import type { WhatIfPolicyReport, WhatIfReport, WhatIfStop } from "../../domain/what-if-report.ts";
import { localParts } from "../../shared/time.ts";
import type { MetricsStore } from "../../store/metrics-types.ts";
import { samplesFromHistory } from "../alerts/alert-history.ts";
import { idlePolicyOf } from "../alerts/alert-policy.ts";
import { teamCalendarOf } from "./autopilot-policy.ts";

/** What a replay reads: the configuration (prices, time zone, idle rules) and the store's readings. */
export interface WhatIfDeps {
  config: Config;
  metrics: Pick<MetricsStore, "hosts" | "hostSamplesSince" | "gpuSamplesSince" | "latestObservations">;
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
 * Replays the store's raw readings since `sinceMs` under each policy, nobody answering: the stops
 * each would have made, the capacity freed, the money saved, and each would-be false stop.
 */
export function replayWhatIf(
  deps: WhatIfDeps,
  input: { sinceMs: number; policies: readonly string[] },
): WhatIfReport {
  const { config } = deps;
  const policies = input.policies.map((name) => ({ name, policy: whatIfPolicyOf(name, config) }));
  const hosts = replayHosts(deps, input.sinceMs);
  const times = hosts.flatMap((host) =>
    host.samples.length === 0 ? [] : [host.samples[0]!.atMs, host.samples.at(-1)!.atMs],
  );
  const calendar = calendarOf(config);
  const idlePolicy = idlePolicyOf(config);
  return {
    fromMs: times.length === 0 ? null : Math.min(...times),
    toMs: times.length === 0 ? null : Math.max(...times),
    askedFromMs: input.sinceMs,
    timezone: config.team.timezone,
    currency: config.team.currency,
    hosts: hosts.map((host) => host.host),
    policies: policies.map(({ name, policy }) =>
      policyReport(
        name,
        hosts.flatMap((host) => replayHost(host, policy, idlePolicy, calendar)),
        hosts,
      ),
    ),
  };
}

function replayHosts(deps: WhatIfDeps, sinceMs: number): ReplayHost[] {
  const { config, metrics } = deps;
  const latest = new Map(metrics.latestObservations().map((l) => [l.observation.host, l.observation]));
  const idlePolicy = idlePolicyOf(config);
  const tariff = tariffOf(config.costs.electricity, config.team.timezone);
  return metrics.hosts().map((record: HostRecord) => {
    const observation = latest.get(record.name) ?? null;
    const samples = samplesFromHistory(
      {
        record,
        hostSamples: metrics.hostSamplesSince(record.name, sinceMs),
        gpuSamples: metrics.gpuSamplesSince(record.name, sinceMs),
        latest: observation,
      },
      idlePolicy,
    );
    const basis = hostCostBasis(config.hosts[record.name], config.costs);
    const onPerHour = hostHourCost(basis, tariff, samples[0]?.atMs ?? sinceMs);
    const offPerHour =
      basis.kind === "owned"
        ? basis.capitalPerHour + basis.upkeepPerHour
        : basis.kind === "rate" && basis.billedWhenOff
          ? basis.costPerHour
          : 0;
    const holders = observation?.ok
      ? [
          ...observation.gpus.flatMap((gpu) =>
            gpu.processes.flatMap((p) => (p.user === null ? [] : [p.user])),
          ),
          ...(observation.sessions ?? []).map((session) => session.user),
        ]
      : [];
    return {
      host: record.name,
      source: record.source,
      samples,
      onPerHour,
      savedPerHour: onPerHour === null ? null : Math.max(0, onPerHour - offPerHour),
      latestHolders: [...new Set(holders)].sort(),
    };
  });
}

function policyReport(name: string, stops: WhatIfStop[], hosts: readonly ReplayHost[]): WhatIfPolicyReport {
  stops.sort((a, b) => a.atMs - b.atMs || a.host.localeCompare(b.host));
  const unpriced = new Set(hosts.filter((h) => h.onPerHour === null).map((h) => h.host));
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
  return {
    minuteOfDay(atMs) {
      const parts = localParts(atMs, zone);
      return parts.hour * 60 + parts.minute;
    },
    team: teamCalendarOf(config),
  };
}
