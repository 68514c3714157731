import { classifyHost, type HostSample } from "../../src/checks/classify-host.ts";
import type { HostContext, IdlePolicy } from "../../src/checks/idle-policy.ts";
import type {
  GpuProcess,
  GpuReading,
  HostObservation,
  LoginSession,
  SourceKind,
} from "../../src/domain/observation.ts";

export const MINUTE_MS = 60_000;
/** Monday 2026-01-05 09:00 UTC. */
export const T0 = Date.UTC(2026, 0, 5, 9, 0);
export const at = (minutes: number): number => T0 + minutes * MINUTE_MS;

export const POLICY: IdlePolicy = {
  idleUtilPct: 10,
  idleForMinutes: 30,
  protectMinutes: 120,
  staleAfterMinutes: 3,
  noDataPolls: 5,
};

export const CONTEXT: HostContext = { neverStop: false, snoozedUntilMs: null, stoppedAtMs: null };

export function gpuProcess(user: string, name: string, usedMemoryMiB: number): GpuProcess {
  return { pid: 4242, user, name, usedMemoryMiB, container: null, pod: null, namespace: null };
}

export function reading(index: number, utilPct: number | null, more: Partial<GpuReading> = {}): GpuReading {
  return {
    index,
    uuid: `GPU-${index}`,
    model: "NVIDIA H100 80GB HBM3",
    utilPct,
    memUsedMiB: 0,
    memTotalMiB: 81_559,
    powerW: 70,
    tempC: 30,
    mig: false,
    processes: [],
    ...more,
  };
}

export function session(user: string, idleMinutes: number | null): LoginSession {
  return { user, line: "pts/0", from: "10.0.0.9", idleMinutes };
}

/** An observation of `host` with one GPU per entry of `utilPcts`. */
export function observed(
  host: string,
  atMs: number,
  utilPcts: readonly (number | null)[],
  sessions: LoginSession[] | null = [],
  source: SourceKind = "ssh",
): Extract<HostObservation, { ok: true }> {
  return {
    host,
    source,
    atMs,
    ok: true,
    gpus: utilPcts.map((utilPct, index) => reading(index, utilPct)),
    sessions,
    cpuLoad1: 0.1,
    cpuUtilPct: 1,
    containers: [],
  };
}

export function failedAt(host: string, atMs: number): HostObservation {
  return {
    host,
    source: "ssh",
    atMs,
    ok: false,
    cause: "timeout",
    message: `${host}: ssh timed out after 20 s`,
  };
}

export const idle = (atMs: number, gpus = 8): HostSample =>
  classifyHost(observed("gpu-a", atMs, Array(gpus).fill(0)), POLICY);
export const busy = (atMs: number): HostSample =>
  classifyHost(observed("gpu-a", atMs, [95, 0, 0, 0, 0, 0, 0, 0]), POLICY);
export const withSession = (atMs: number, idleMinutes: number | null = 2): HostSample =>
  classifyHost(observed("gpu-a", atMs, [0, 0], [session("alice", idleMinutes)]), POLICY);
export const unknown = (atMs: number): HostSample => classifyHost(failedAt("gpu-a", atMs), POLICY);

/** One sample per minute from `fromMinute` to `toMinute` inclusive. */
export function everyMinute(
  fromMinute: number,
  toMinute: number,
  make: (atMs: number) => HostSample,
): HostSample[] {
  const samples: HostSample[] = [];
  for (let minute = fromMinute; minute <= toMinute; minute++) samples.push(make(at(minute)));
  return samples;
}
