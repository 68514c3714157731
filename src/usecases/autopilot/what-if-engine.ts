import type { HostObservation } from "../../domain/observation.ts";
import { type HistorySource, hasHistory, type Source } from "../../domain/source.ts";

/** A source that can give a replay its hosts' past readings (a Prometheus-compatible engine). */
export type ReplaySource = HistorySource & Required<Pick<HistorySource, "hostsIn" | "readingsHistory">>;

export function canReplay(source: Source): source is ReplaySource {
  return hasHistory(source) && source.hostsIn !== undefined && source.readingsHistory !== undefined;
}

/** The span a replay reads from an engine: steps at `fromMs + i × stepMs` up to `toMs`. */
export interface EngineSpan {
  fromMs: number;
  toMs: number;
  stepMs: number;
}

/** GPU readings (GPUs × steps) of one group of hosts held at once: what bounds a long replay's memory. */
export const GROUP_GPU_STEPS = 500_000;
/** GPU readings one request asks for at most (its answer is held whole while it is read). */
export const REQUEST_GPU_STEPS = 80_000;
/** Hosts named in one request (one regex matcher). */
const MAX_GROUP_HOSTS = 500;
/** GPUs a host is assumed to have when the store does not know it. */
const ASSUMED_GPUS = 8;

/** The span `[sinceMs, untilMs]` on a grid of `stepMs`. */
export function engineSpan(sinceMs: number, untilMs: number, stepMs: number): EngineSpan {
  return {
    fromMs: Math.ceil(sinceMs / stepMs) * stepMs,
    toMs: Math.floor(untilMs / stepMs) * stepMs,
    stepMs,
  };
}

/**
 * Reads the hosts' history from `source` in groups of hosts (about {@link GROUP_GPU_STEPS} GPU readings
 * each), each group in requests of about {@link REQUEST_GPU_STEPS}: each request's observations go to
 * the host's `sampler` and are dropped, and each host's samples go to `each` when its group is read, so
 * memory does not grow with the fleet, and with the span only as the samples of one group.
 */
export async function readEngineGroups<T>(
  source: ReplaySource,
  hosts: readonly string[],
  options: { span: EngineSpan; gpusOf: (host: string) => number | null; signal: AbortSignal },
  sampler: () => { add(observation: HostObservation): void; finish(): T },
  each: (host: string, samples: T) => void,
): Promise<void> {
  const { span, signal } = options;
  const steps = Math.floor((span.toMs - span.fromMs) / span.stepMs) + 1;
  for (const group of hostGroups(hosts, steps, options.gpusOf)) {
    const byHost = new Map(group.hosts.map((host) => [host, sampler()]));
    const perRequest = Math.max(1, Math.floor(REQUEST_GPU_STEPS / group.gpus));
    for (let fromMs = span.fromMs; fromMs <= span.toMs; fromMs += perRequest * span.stepMs) {
      const toMs = Math.min(span.toMs, fromMs + (perRequest - 1) * span.stepMs);
      const answer = await source.readingsHistory(group.hosts, { fromMs, toMs, stepMs: span.stepMs }, signal);
      for (const observation of answer) byHost.get(observation.host)?.add(observation);
    }
    for (const [host, samples] of byHost) {
      byHost.delete(host);
      each(host, samples.finish());
    }
  }
}

function hostGroups(
  hosts: readonly string[],
  steps: number,
  gpusOf: (host: string) => number | null,
): { hosts: string[]; gpus: number }[] {
  const groups: { hosts: string[]; gpus: number }[] = [];
  let current: { hosts: string[]; gpus: number } = { hosts: [], gpus: 0 };
  for (const host of hosts) {
    const gpus = Math.max(1, gpusOf(host) ?? ASSUMED_GPUS);
    const full = current.hosts.length >= MAX_GROUP_HOSTS || (current.gpus + gpus) * steps > GROUP_GPU_STEPS;
    if (current.hosts.length > 0 && full) {
      groups.push(current);
      current = { hosts: [], gpus: 0 };
    }
    current.hosts.push(host);
    current.gpus += gpus;
  }
  if (current.hosts.length > 0) groups.push(current);
  return groups;
}
