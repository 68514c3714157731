import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  classifyHost,
  type HostClass,
  type HostSample,
  hostClass,
  nothingOn,
} from "../../src/checks/classify-host.ts";
import {
  evaluateHost,
  type HostStatus,
  type IdleEpisodeState,
  INITIAL_IDLE_EPISODE,
  stepIdleEpisode,
} from "../../src/checks/idle-episode.ts";
import type { HostContext, IdlePolicy } from "../../src/checks/idle-policy.ts";
import type { HostObservation } from "../../src/domain/observation.ts";
import { MINUTE_MS, T0 } from "./builders.ts";

const RUNS = { numRuns: 300 };

const policyArb: fc.Arbitrary<IdlePolicy> = fc.record({
  idleUtilPct: fc.constant(10),
  idleForMinutes: fc.integer({ min: 0, max: 20 }),
  protectMinutes: fc.integer({ min: 0, max: 40 }),
  staleAfterMinutes: fc.integer({ min: 1, max: 6 }),
  noDataPolls: fc.integer({ min: 1, max: 4 }),
});

const minuteOrNull = fc.oneof(
  { weight: 3, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 240 }).map((m) => T0 + m * MINUTE_MS) },
);
const contextArb: fc.Arbitrary<HostContext> = fc.record({
  neverStop: fc.oneof(
    { weight: 5, arbitrary: fc.constant(false) },
    { weight: 1, arbitrary: fc.constant(true) },
  ),
  snoozedUntilMs: minuteOrNull,
  stoppedAtMs: minuteOrNull,
});

/** Utilisation readings around the 10 % threshold, with "no reading" among them. */
const utilArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(0, 0.5, 9.99) },
  { weight: 3, arbitrary: fc.constantFrom(10, 10.01, 55, 100) },
  { weight: 1, arbitrary: fc.constant(null) },
);

/** What one poll saw of a host: mostly all idle, sometimes busy, sometimes unknown. */
const observationShape = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({ kind: fc.constant("idle" as const), gpus: fc.integer({ min: 1, max: 4 }) }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant("mixed" as const), utils: fc.array(utilArb, { maxLength: 4 }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("session" as const),
      idleMinutes: fc.option(fc.integer({ min: 0, max: 60 }), { nil: null }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant("empty" as const), gpus: fc.integer({ min: 1, max: 4 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("failed" as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("no-sessions-seen" as const) }) },
);

/** Minutes to the next poll: mostly one, sometimes a long gap, sometimes a replay or a late arrival. */
const stepMinutesArb = fc.oneof(
  { weight: 12, arbitrary: fc.constant(1) },
  { weight: 2, arbitrary: fc.integer({ min: 2, max: 9 }) },
  { weight: 1, arbitrary: fc.constantFrom(0, -3) },
);

type Shape = typeof observationShape extends fc.Arbitrary<infer T> ? T : never;

function observe(shape: Shape, atMs: number): HostObservation {
  const base = {
    host: "gpu-a",
    source: "ssh" as const,
    atMs,
    cpuLoad1: null,
    cpuUtilPct: null,
    containers: [],
  };
  const gpu = (index: number, utilPct: number | null) => ({
    index,
    uuid: null,
    model: null,
    utilPct,
    memUsedMiB: 1024,
    memTotalMiB: 81_559,
    powerW: null,
    tempC: null,
    mig: false,
    processes: [],
  });
  switch (shape.kind) {
    case "idle":
      return {
        ...base,
        ok: true,
        gpus: Array.from({ length: shape.gpus }, (_, i) => gpu(i, 0)),
        sessions: [],
      };
    case "mixed":
      return { ...base, ok: true, gpus: shape.utils.map((u, i) => gpu(i, u)), sessions: [] };
    case "session":
      return {
        ...base,
        ok: true,
        gpus: [gpu(0, 0), gpu(1, 0)],
        sessions: [{ user: "alice", line: "pts/1", from: null, idleMinutes: shape.idleMinutes }],
      };
    case "empty":
      return {
        ...base,
        ok: true,
        gpus: Array.from({ length: shape.gpus }, (_, i) => ({ ...gpu(i, 0), memUsedMiB: 0 })),
        sessions: [],
      };
    case "no-sessions-seen":
      return { ...base, ok: true, gpus: [gpu(0, 0)], sessions: null };
    case "failed":
      return { ...base, ok: false, cause: "unreachable", message: "gpu-a: unreachable" };
    default:
      return shape satisfies never;
  }
}

/** Phases of polls that look alike (a job, an idle night, an outage), as real hosts go. */
const scenarioArb = fc
  .record({
    policy: policyArb,
    context: contextArb,
    phases: fc.array(
      fc.record({
        shape: observationShape,
        polls: fc.integer({ min: 1, max: 40 }),
        firstStep: stepMinutesArb,
      }),
      { minLength: 1, maxLength: 12 },
    ),
  })
  .map(({ policy, context, phases }) => {
    let minute = 0;
    const samples: HostSample[] = [];
    for (const { shape, polls, firstStep } of phases) {
      const seen = observe(shape, T0);
      for (let i = 0; i < polls; i++) {
        minute += i === 0 ? firstStep : 1;
        samples.push(classifyHost({ ...seen, atMs: T0 + minute * MINUTE_MS }, policy));
      }
    }
    return { policy, context, samples };
  });

interface Step {
  sample: HostSample;
  applied: boolean;
  state: IdleEpisodeState;
}

function run(samples: HostSample[], policy: IdlePolicy, context: HostContext): Step[] {
  let state: IdleEpisodeState = INITIAL_IDLE_EPISODE;
  return samples.map((sample) => {
    const next = stepIdleEpisode(state, sample, policy, context);
    const applied = next !== state;
    state = next;
    return { sample, applied, state };
  });
}

/**
 * An independent model of the rules, from the whole history of applied samples: walk back over the
 * unbroken run of same-class samples, then decide the status the way the rules table says.
 */
function reference(applied: HostSample[], policy: IdlePolicy, context: HostContext) {
  const classes: HostClass[] = applied.map(hostClass);
  const broken = (i: number): boolean => {
    if (i === 0) return true;
    const previousAtMs = applied[i - 1]!.atMs;
    const atMs = applied[i]!.atMs;
    const stop = context.stoppedAtMs;
    return (
      atMs - previousAtMs > policy.staleAfterMinutes * MINUTE_MS ||
      (stop !== null && stop > previousAtMs && stop <= atMs)
    );
  };
  const runStart = (i: number): number => {
    let j = i;
    while (!broken(j) && classes[j - 1] === classes[i]) j--;
    return j;
  };
  type At = { status: HostStatus; idleSinceMs: number | null; busyStartedAtMs: number | null };
  const memo = new Map<number, At>();
  const statusAt = (i: number): At => {
    const known = memo.get(i);
    if (known !== undefined) return known;
    const at = statusFromHistory(i);
    memo.set(i, at);
    return at;
  };
  /** Protection holds unless nothing is on the host, or the episode began before and goes on. */
  const unprotected = (i: number, idleSinceMs: number | null): boolean => {
    if (nothingOn(applied[i]!)) return true;
    if (i === 0) return false;
    const before = statusAt(i - 1);
    return before.status === "idle" && before.idleSinceMs === idleSinceMs;
  };
  const statusFromHistory = (i: number): At => {
    const atMs = applied[i]!.atMs;
    let lastBusy = -1;
    for (let j = i; j >= 0; j--) {
      if (classes[j] === "busy") {
        lastBusy = j;
        break;
      }
    }
    const busyStartedAtMs = lastBusy < 0 ? null : applied[runStart(lastBusy)]!.atMs;
    const idleSinceMs = classes[i] === "idle" ? applied[runStart(i)]!.atMs : null;
    let status: HostStatus;
    if (context.neverStop) status = "exempt";
    else if (classes[i] === "unknown") status = "unknown";
    else if (classes[i] !== "idle") status = "busy";
    else if (context.snoozedUntilMs !== null && atMs < context.snoozedUntilMs) status = "snoozed";
    else if (atMs - idleSinceMs! < policy.idleForMinutes * MINUTE_MS) status = "idle-pending";
    else if (
      busyStartedAtMs !== null &&
      atMs - busyStartedAtMs < policy.protectMinutes * MINUTE_MS &&
      !unprotected(i, idleSinceMs)
    ) {
      status = "protected";
    } else status = "idle";
    return { status, idleSinceMs, busyStartedAtMs };
  };
  const now = statusAt(applied.length - 1);
  let episodeStartedAtMs: number | null = null;
  if (now.status === "idle") {
    let j = applied.length - 1;
    while (j > 0) {
      const before = statusAt(j - 1);
      if (before.status !== "idle" || before.idleSinceMs !== now.idleSinceMs) break;
      j--;
    }
    episodeStartedAtMs = applied[j]!.atMs;
  }
  return { ...now, episodeStartedAtMs };
}

describe("idle episode invariants (fast-check)", () => {
  it("matches an independent model of the rules after every sample", () => {
    fc.assert(
      fc.property(scenarioArb, ({ policy, context, samples }) => {
        const applied: HostSample[] = [];
        for (const { sample, applied: wasApplied, state } of run(samples, policy, context)) {
          if (!wasApplied) continue;
          applied.push(sample);
          const want = reference(applied, policy, context);
          assert.deepEqual(
            {
              status: state.status,
              idleSinceMs: state.idleSinceMs,
              busyStartedAtMs: state.busyStartedAtMs,
              episodeStartedAtMs: state.episodeStartedAtMs,
            },
            want,
          );
        }
      }),
      { numRuns: 150 },
    );
  });

  it("unknown is never idle: a host whose latest sample is unknown is never idle", () => {
    fc.assert(
      fc.property(scenarioArb, ({ policy, context, samples }) => {
        for (const { state } of run(samples, policy, context)) {
          if (state.sampleClass === "unknown") {
            assert.notEqual(state.status, "idle");
            assert.equal(state.idleSinceMs, null);
            assert.equal(state.episodeStartedAtMs, null);
          }
        }
      }),
      RUNS,
    );
  });

  it("no episode spans an unknown sample, a gap or a stop", () => {
    fc.assert(
      fc.property(scenarioArb, ({ policy, context, samples }) => {
        const applied: HostSample[] = [];
        for (const step of run(samples, policy, context)) {
          if (step.applied) applied.push(step.sample);
          if (step.state.status !== "idle") continue;
          const since = step.state.idleSinceMs!;
          const stretch = applied.filter((s) => s.atMs >= since);
          for (const [i, sample] of stretch.entries()) {
            assert.equal(hostClass(sample), "idle");
            if (i > 0) assert.ok(sample.atMs - stretch[i - 1]!.atMs <= policy.staleAfterMinutes * MINUTE_MS);
          }
          const stop = context.stoppedAtMs;
          assert.ok(stop === null || !(stop > since && stop <= step.state.lastSampleAtMs!));
        }
      }),
      RUNS,
    );
  });

  it("no episode before the idle window, the protection window (unless nothing is on the host) or the end of a snooze", () => {
    fc.assert(
      fc.property(scenarioArb, ({ policy, context, samples }) => {
        for (const { state } of run(samples, policy, context)) {
          assert.equal(state.status === "idle", state.episodeStartedAtMs !== null);
          if (state.status !== "idle") continue;
          const started = state.episodeStartedAtMs!;
          assert.ok(started - state.idleSinceMs! >= policy.idleForMinutes * MINUTE_MS);
          const first = samples.find((sample) => sample.atMs === started)!;
          if (state.busyStartedAtMs !== null && !nothingOn(first)) {
            assert.ok(started - state.busyStartedAtMs >= policy.protectMinutes * MINUTE_MS);
          }
          if (context.snoozedUntilMs !== null) assert.ok(started >= context.snoozedUntilMs);
          assert.equal(context.neverStop, false);
        }
      }),
      RUNS,
    );
  });

  it("one busy sample ends an episode", () => {
    fc.assert(
      fc.property(
        scenarioArb,
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 0, max: 7 }),
        ({ policy, context, samples }, afterMinutes, busyGpu) => {
          for (const { state } of run(samples, policy, context)) {
            if (state.status !== "idle") continue;
            const atMs = state.lastSampleAtMs! + afterMinutes * MINUTE_MS;
            const utils = Array.from({ length: 8 }, (_, i) => (i === busyGpu ? 10 : 0));
            const sample = classifyHost(observe({ kind: "mixed", utils }, atMs), policy);
            const after = stepIdleEpisode(state, sample, policy, context);
            assert.equal(after.status, "busy");
            assert.equal(after.episodeStartedAtMs, null);
            assert.equal(after.lastEpisode?.startedAtMs, state.episodeStartedAtMs);
            assert.equal(after.lastEpisode?.endedAtMs, atMs);
            assert.ok(after.lastEpisode?.reason === "busy" || after.lastEpisode?.reason === "stopped");
          }
        },
      ),
      RUNS,
    );
  });

  it("the fold equals step-by-step, and resumes from any prefix", () => {
    fc.assert(
      fc.property(scenarioArb, fc.nat(), ({ policy, context, samples }, cut) => {
        const steps = run(samples, policy, context);
        const folded = evaluateHost(samples, policy, context);
        assert.deepEqual(folded, steps.at(-1)!.state);
        const split = cut % (samples.length + 1);
        const resumed = evaluateHost(
          samples.slice(split),
          policy,
          context,
          evaluateHost(samples.slice(0, split), policy, context),
        );
        assert.deepEqual(resumed, folded);
      }),
      RUNS,
    );
  });

  it("is idempotent: replaying a sample timestamp changes nothing", () => {
    fc.assert(
      fc.property(scenarioArb, ({ policy, context, samples }) => {
        let state: IdleEpisodeState = INITIAL_IDLE_EPISODE;
        for (const sample of samples) {
          state = stepIdleEpisode(state, sample, policy, context);
          assert.equal(stepIdleEpisode(state, sample, policy, context), state);
          const replay = classifyHost(
            observe({ kind: "mixed", utils: [100] }, state.lastSampleAtMs!),
            policy,
          );
          assert.equal(stepIdleEpisode(state, replay, policy, context), state);
        }
        const doubled = samples.flatMap((s) => [s, s]);
        assert.deepEqual(evaluateHost(doubled, policy, context), evaluateHost(samples, policy, context));
      }),
      RUNS,
    );
  });
});
