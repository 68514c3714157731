import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import type { HostSample } from "../../src/checks/classify-host.ts";
import { evaluateHost, type IdleEpisodeState } from "../../src/checks/idle-episode.ts";
import type { HostContext, IdlePolicy } from "../../src/checks/idle-policy.ts";
import { hostSampleAt, type IdleTransition, sweep } from "../../src/checks/sweep.ts";
import type { HostObservation } from "../../src/domain/observation.ts";
import { at, CONTEXT, failedAt, MINUTE_MS, observed, POLICY } from "./builders.ts";

interface Poll {
  minute: number;
  observations: HostObservation[];
}

/** Runs one sweep per poll, threading the states; returns the last states and every transition. */
function runSweeps(
  polls: Poll[],
  options: { contexts?: Map<string, HostContext>; expectedHosts?: string[]; policy?: IdlePolicy } = {},
) {
  let states: ReadonlyMap<string, IdleEpisodeState> = new Map();
  const transitions: IdleTransition[] = [];
  for (const poll of polls) {
    const result = sweep({
      nowMs: at(poll.minute),
      policy: options.policy ?? POLICY,
      previous: states,
      observations: poll.observations,
      ...(options.expectedHosts ? { expectedHosts: options.expectedHosts } : {}),
      ...(options.contexts ? { contexts: options.contexts } : {}),
    });
    states = result.states;
    transitions.push(...result.transitions);
  }
  return { states, transitions };
}

function minutes(from: number, to: number, observe: (minute: number) => HostObservation[]): Poll[] {
  const polls: Poll[] = [];
  for (let minute = from; minute <= to; minute++) polls.push({ minute, observations: observe(minute) });
  return polls;
}

/** `kind host @minute` for each transition, with the end reason where there is one. */
const brief = (transitions: IdleTransition[]) =>
  transitions
    .filter((t) => t.kind !== "episode-continued")
    .map(
      (t) =>
        `${t.kind}${t.kind === "episode-ended" ? `(${t.episode.reason})` : ""} ${t.host} @${(t.atMs - at(0)) / MINUTE_MS}`,
    );

const idle8 = Array(8).fill(0);
const busy8 = [90, 90, 90, 90, 0, 0, 0, 0];

describe("sweep", () => {
  it("starts, continues and ends episodes for each host of the fleet", () => {
    const { states, transitions } = runSweeps(
      minutes(0, 45, (m) => [
        observed("gpu-a", at(m), idle8),
        observed("gpu-b", at(m), m < 40 ? idle8 : busy8),
        observed("gpu-c", at(m), busy8),
      ]),
    );
    assert.deepEqual(brief(transitions), [
      "episode-started gpu-a @30",
      "episode-started gpu-b @30",
      "episode-ended(busy) gpu-b @40",
    ]);
    assert.equal(transitions.filter((t) => t.kind === "episode-continued" && t.host === "gpu-a").length, 15);
    assert.deepEqual(
      [...states].map(([host, s]) => [host, s.status]),
      [
        ["gpu-a", "idle"],
        ["gpu-b", "busy"],
        ["gpu-c", "busy"],
      ],
    );
    const ended = transitions.find((t) => t.kind === "episode-ended");
    assert.deepEqual(ended?.kind === "episode-ended" && ended.episode, {
      idleSinceMs: at(0),
      startedAtMs: at(30),
      endedAtMs: at(40),
      reason: "busy",
    });
  });

  it("gives one no-data notice after noDataPolls unknown polls, never an idle alert, then data-restored", () => {
    const { transitions, states } = runSweeps([
      ...minutes(0, 9, (m) => [observed("gpu-a", at(m), idle8)]),
      ...minutes(10, 59, (m) => [failedAt("gpu-a", at(m))]),
      ...minutes(60, 61, (m) => [observed("gpu-a", at(m), idle8)]),
    ]);
    assert.deepEqual(brief(transitions), ["no-data gpu-a @14", "data-restored gpu-a @60"]);
    const notice = transitions.find((t) => t.kind === "no-data")!;
    assert.equal(notice.state.unknownSinceMs, at(10));
    assert.equal(notice.state.lastKnownAtMs, at(9));
    assert.equal(notice.state.unknownPolls, 5);
    assert.equal(
      notice.state.latest?.ok === false && notice.state.latest.message,
      "gpu-a: ssh timed out after 20 s",
    );
    const restored = transitions.find((t) => t.kind === "data-restored");
    assert.equal(restored?.kind === "data-restored" && restored.unknownSinceMs, at(10));
    assert.equal(states.get("gpu-a")?.status, "idle-pending");
    assert.equal(states.get("gpu-a")?.idleSinceMs, at(60));
  });

  it("ends an episode as unknown when the host stops reporting, and counts missing polls", () => {
    const { transitions, states } = runSweeps([
      ...minutes(0, 31, (m) => [observed("gpu-a", at(m), idle8)]),
      ...minutes(32, 40, () => []),
    ]);
    assert.deepEqual(brief(transitions), [
      "episode-started gpu-a @30",
      "episode-ended(unknown) gpu-a @32",
      "no-data gpu-a @36",
    ]);
    const state = states.get("gpu-a")!;
    assert.equal(state.unknownPolls, 9);
    assert.deepEqual(state.latest, {
      atMs: at(40),
      ok: false,
      cause: "missing",
      message: "gpu-a: no observation in this poll",
    });
  });

  it("makes a stale observation unknown at the sweep's time", () => {
    const sample = hostSampleAt("gpu-a", observed("gpu-a", at(0), idle8), at(7), POLICY);
    assert.deepEqual(sample, {
      atMs: at(7),
      ok: false,
      cause: "stale",
      message: "gpu-a: latest observation is 7 min old",
      lastSampleAtMs: at(0),
    });
    assert.equal(hostSampleAt("gpu-a", observed("gpu-a", at(4), idle8), at(7), POLICY).ok, true);
  });

  it("keeps sweeping a host whose source repeats an old observation, and then calls it stale", () => {
    const frozen = observed("gpu-a", at(0), idle8);
    const { transitions, states } = runSweeps(minutes(0, 12, () => [frozen]));
    assert.deepEqual(brief(transitions), ["no-data gpu-a @8"]);
    assert.equal(states.get("gpu-a")?.unknownSinceMs, at(4));
  });

  it("treats an expected host that never reported as unknown", () => {
    const { states } = runSweeps(
      minutes(0, 2, (m) => [observed("gpu-a", at(m), idle8)]),
      {
        expectedHosts: ["gpu-a", "gpu-z"],
      },
    );
    assert.equal(states.get("gpu-z")?.status, "unknown");
    assert.equal(states.get("gpu-z")?.unknownPolls, 3);
  });

  it("prefers a successful observation over a failed one for the same host", () => {
    const { states } = runSweeps([
      {
        minute: 0,
        observations: [observed("gpu-a", at(0), busy8, null, "prometheus"), failedAt("gpu-a", at(0))],
      },
      {
        minute: 1,
        observations: [failedAt("gpu-a", at(1)), observed("gpu-a", at(1), busy8, null, "prometheus")],
      },
    ]);
    assert.equal(states.get("gpu-a")?.status, "busy");
    assert.equal(states.get("gpu-a")?.busyStartedAtMs, at(0));
  });

  it("ignores a repeated sweep of the same poll", () => {
    const polls = minutes(0, 35, (m) => [observed("gpu-a", at(m), idle8)]);
    const once = runSweeps(polls);
    const twice = runSweeps(polls.flatMap((p) => [p, p]));
    assert.deepEqual(twice.states, once.states);
    assert.deepEqual(twice.transitions, once.transitions);
  });

  it("never alerts on a never_stop host and gives it no no-data notice", () => {
    const contexts = new Map([["infer-1", { ...CONTEXT, neverStop: true }]]);
    const { transitions, states } = runSweeps(
      [
        ...minutes(0, 60, (m) => [observed("infer-1", at(m), idle8)]),
        ...minutes(61, 80, (m) => [failedAt("infer-1", at(m))]),
      ],
      { contexts },
    );
    assert.deepEqual(transitions, []);
    assert.equal(states.get("infer-1")?.status, "exempt");
  });

  it("resolves the episode as stopped and expects the stopped host to go dark", () => {
    const contexts = new Map([["gpu-a", { ...CONTEXT, stoppedAtMs: at(40) + 30_000 }]]);
    const { transitions } = runSweeps(
      [
        ...minutes(0, 40, (m) => [observed("gpu-a", at(m), idle8)]),
        ...minutes(41, 41, (m) => [observed("gpu-a", at(m), idle8)]),
        ...minutes(42, 60, (m) => [failedAt("gpu-a", at(m))]),
      ],
      { contexts },
    );
    assert.deepEqual(brief(transitions), ["episode-started gpu-a @30", "episode-ended(stopped) gpu-a @41"]);
  });

  it("gives a no-data notice for a stopped host that was used again before going dark", () => {
    const contexts = new Map([["gpu-a", { ...CONTEXT, stoppedAtMs: at(5) }]]);
    const { transitions } = runSweeps(
      [
        ...minutes(0, 20, (m) => [observed("gpu-a", at(m), busy8)]),
        ...minutes(21, 30, (m) => [failedAt("gpu-a", at(m))]),
      ],
      { contexts },
    );
    assert.deepEqual(brief(transitions), ["no-data gpu-a @25"]);
  });
});

describe("sweep agrees with evaluateHost (fast-check)", () => {
  const hosts = ["gpu-a", "gpu-b", "gpu-c"];
  const pollArb = fc.record({
    step: fc.constantFrom(0, 1, 1, 1, 1, 2, 5),
    hosts: fc.tuple(
      ...hosts.map(() =>
        fc.oneof(
          { weight: 6, arbitrary: fc.constant("idle" as const) },
          { weight: 2, arbitrary: fc.constant("busy" as const) },
          { weight: 1, arbitrary: fc.constant("failed" as const) },
          { weight: 1, arbitrary: fc.constant("missing" as const) },
          { weight: 1, arbitrary: fc.constant("old" as const) },
        ),
      ),
    ),
  });
  const policy: IdlePolicy = { ...POLICY, idleForMinutes: 5, protectMinutes: 10, noDataPolls: 3 };

  it("gives each host the state the fold of its samples gives, and one transition per change", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(pollArb, { minLength: 1, maxLength: 30 }), { minLength: 1, maxLength: 8 }),
        (phases) => {
          const polls: Poll[] = [];
          let minute = 0;
          for (const phase of phases) {
            const repeat = phase[0]!;
            for (let i = 0; i < phase.length; i++) {
              minute += phase[i]!.step;
              const kinds = (i % 4 === 0 ? phase[i]! : repeat).hosts;
              const observations: HostObservation[] = [];
              hosts.forEach((host, h) => {
                const kind = kinds[h]!;
                if (kind === "idle") observations.push(observed(host, at(minute), [0, 3]));
                if (kind === "busy") observations.push(observed(host, at(minute), [0, 40]));
                if (kind === "failed") observations.push(failedAt(host, at(minute)));
                if (kind === "old") observations.push(observed(host, at(minute - 10), [0, 0]));
              });
              polls.push({ minute, observations });
            }
          }
          const { states, transitions } = runSweeps(polls, { policy, expectedHosts: hosts });
          for (const host of hosts) {
            const samples: HostSample[] = polls.map((p) =>
              hostSampleAt(
                host,
                p.observations.find((o) => o.host === host),
                at(p.minute),
                policy,
              ),
            );
            const folded = evaluateHost(samples, policy, CONTEXT);
            assert.deepEqual(states.get(host), folded);
            const mine = transitions.filter((t) => t.host === host);
            const started = mine.filter((t) => t.kind === "episode-started").length;
            const ended = mine.filter((t) => t.kind === "episode-ended").length;
            assert.ok(started - ended === (folded.status === "idle" ? 1 : 0));
            const notices = mine.filter((t) => t.kind === "no-data");
            for (const notice of notices) assert.equal(notice.state.unknownPolls, policy.noDataPolls);
            assert.equal(new Set(notices.map((t) => t.state.unknownSinceMs)).size, notices.length);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
