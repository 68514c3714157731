import { type IdleEpisodeState, INITIAL_IDLE_EPISODE } from "../src/checks/idle-episode.ts";
import { DEFAULT_HOST_CONTEXT, DEFAULT_IDLE_POLICY, type HostContext } from "../src/checks/idle-policy.ts";
import { sweep } from "../src/checks/sweep.ts";
import type { GpuReading, HostObservation, LoginSession } from "../src/domain/observation.ts";
import { median, percentile, report, round } from "./report.ts";

// Idle checks for a fleet of 1,250 hosts × 8 GPUs, one sweep per simulated 60 s poll.
const HOSTS = 1_250;
const GPUS_PER_HOST = 8;
const POLL_MS = 60_000;
const VARIANTS = 16;
const WARMUP_SWEEPS = 60;
const TIMED_SWEEPS = 300;
const T0 = Date.UTC(2026, 0, 5, 9, 0);

let seed = 42;
const random = (): number => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};

type Profile = "training" | "idle-held" | "idle-empty" | "partial" | "mig" | "flaky" | "session";
const PROFILES: [Profile, number][] = [
  ["training", 0.45],
  ["idle-held", 0.2],
  ["idle-empty", 0.12],
  ["partial", 0.1],
  ["session", 0.06],
  ["mig", 0.04],
  ["flaky", 0.03],
];

function pickProfile(): Profile {
  let r = random();
  for (const [profile, share] of PROFILES) {
    if (r < share) return profile;
    r -= share;
  }
  return "training";
}

function gpu(index: number, utilPct: number | null, held: boolean, mig = false): GpuReading {
  return {
    index,
    uuid: `GPU-${index}`,
    model: "NVIDIA A100-SXM4-80GB",
    utilPct,
    memUsedMiB: held ? 60_000 + Math.floor(random() * 20_000) : 4,
    memTotalMiB: 81_920,
    powerW: 60 + (utilPct ?? 0) * 3,
    tempC: 35,
    mig,
    processes: held
      ? [
          {
            pid: 1000 + index,
            user: "alice",
            name: "python train.py",
            usedMemoryMiB: 60_000,
            container: null,
            pod: null,
            namespace: null,
          },
        ]
      : [],
  };
}

/** A few plausible readings of one host, drawn per poll: its profile with some drift between polls. */
function variants(host: string, profile: Profile): (Omit<HostObservation & { ok: true }, "atMs"> | null)[] {
  const out: (Omit<HostObservation & { ok: true }, "atMs"> | null)[] = [];
  for (let v = 0; v < VARIANTS; v++) {
    const gpus: GpuReading[] = [];
    let sessions: LoginSession[] | null = [];
    for (let i = 0; i < GPUS_PER_HOST; i++) {
      switch (profile) {
        case "training":
          gpus.push(gpu(i, v === 0 && i === 0 ? 3 : 60 + random() * 40, true));
          break;
        case "idle-held":
          gpus.push(gpu(i, v === 15 ? 40 : random() * 2, true));
          break;
        case "idle-empty":
          gpus.push(gpu(i, 0, false));
          break;
        case "partial":
          gpus.push(gpu(i, i < 2 ? 50 + random() * 50 : 0, i < 2));
          break;
        case "session":
          gpus.push(gpu(i, random() * 5, false));
          sessions = [{ user: "bob", line: "pts/0", from: "10.0.0.7", idleMinutes: v < 8 ? 2 : 90 }];
          break;
        case "mig":
          gpus.push(gpu(i, i < 4 ? null : 0, false, i < 4));
          break;
        case "flaky":
          gpus.push(gpu(i, random() * 3, false));
          break;
        default:
          profile satisfies never;
      }
    }
    if (profile === "flaky" && v % 3 === 0) {
      out.push(null);
      continue;
    }
    out.push({ host, source: "ssh", ok: true, gpus, sessions, cpuLoad1: 0.5, cpuUtilPct: 5, containers: [] });
  }
  return out;
}

const hosts = Array.from({ length: HOSTS }, (_, h) => {
  const name = `gpu-${String(h).padStart(4, "0")}`;
  return { name, readings: variants(name, pickProfile()) };
});
const contexts = new Map<string, HostContext>();
for (const [h, host] of hosts.entries()) {
  if (h % 50 === 0) contexts.set(host.name, { ...DEFAULT_HOST_CONTEXT, neverStop: true });
  else if (h % 37 === 0)
    contexts.set(host.name, { ...DEFAULT_HOST_CONTEXT, snoozedUntilMs: T0 + 4 * 3_600_000 });
}

/** One poll's observations, built before timing: mostly the host's steady reading, sometimes a drift. */
function observationsAt(poll: number): HostObservation[] {
  const atMs = T0 + poll * POLL_MS;
  const observations: HostObservation[] = [];
  for (const host of hosts) {
    const variant = random() < 0.9 ? 1 + (poll % 2) : Math.floor(random() * VARIANTS);
    const reading = host.readings[variant];
    if (reading === null || reading === undefined) {
      observations.push({
        host: host.name,
        source: "ssh",
        atMs,
        ok: false,
        cause: "timeout",
        message: `${host.name}: ssh timed out after 20 s`,
      });
    } else {
      observations.push({ ...reading, atMs });
    }
  }
  return observations;
}

const polls = Array.from({ length: WARMUP_SWEEPS + TIMED_SWEEPS }, (_, poll) => observationsAt(poll));
const expectedHosts = hosts.map((host) => host.name);

let previous: ReadonlyMap<string, IdleEpisodeState> = new Map(
  expectedHosts.map((h) => [h, INITIAL_IDLE_EPISODE]),
);
// NOTE: the runner starts benchmarks with --expose-gc; collecting the set-up garbage keeps it out of the timings.
(globalThis as { gc?: () => void }).gc?.();
const timesMs: number[] = [];
let transitions = 0;
const statusCounts: Record<string, number> = {};
for (const [poll, observations] of polls.entries()) {
  const startNs = process.hrtime.bigint();
  const result = sweep({
    nowMs: T0 + poll * POLL_MS,
    policy: DEFAULT_IDLE_POLICY,
    previous,
    observations,
    expectedHosts,
    contexts,
  });
  const elapsedMs = Number(process.hrtime.bigint() - startNs) / 1e6;
  previous = result.states;
  if (poll >= WARMUP_SWEEPS) {
    timesMs.push(elapsedMs);
    transitions += result.transitions.length;
  }
}
for (const state of previous.values()) statusCounts[state.status] = (statusCounts[state.status] ?? 0) + 1;

report({
  name: "sweep",
  value: round(median(timesMs), 3),
  unit: "ms",
  baseline: null,
  ratio: null,
  target: 50,
  gpus: HOSTS * GPUS_PER_HOST,
  hosts: HOSTS,
  sweeps: TIMED_SWEEPS,
  p95: round(percentile(timesMs, 95), 3),
  max: round(Math.max(...timesMs), 3),
  transitionsPerSweep: round(transitions / TIMED_SWEEPS, 1),
  finalStatuses: statusCounts,
});
