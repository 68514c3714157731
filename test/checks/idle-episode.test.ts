import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { classifyHost, type HostSample } from "../../src/checks/classify-host.ts";
import {
  evaluateHost,
  type IdleEpisodeState,
  INITIAL_IDLE_EPISODE,
  stepIdleEpisode,
} from "../../src/checks/idle-episode.ts";
import type { HostContext } from "../../src/checks/idle-policy.ts";
import {
  at,
  busy,
  CONTEXT,
  everyMinute,
  gpuProcess,
  idle,
  observed,
  POLICY,
  reading,
  unknown,
  withSession,
} from "./builders.ts";

/** The state after each sample, from nothing known. */
function trajectory(samples: HostSample[], context: HostContext = CONTEXT): IdleEpisodeState[] {
  const states: IdleEpisodeState[] = [];
  let state: IdleEpisodeState = INITIAL_IDLE_EPISODE;
  for (const sample of samples) {
    state = stepIdleEpisode(state, sample, POLICY, context);
    states.push(state);
  }
  return states;
}

/** Sample minute (relative to T0) → status, for the minutes asked. */
function statusesAt(states: IdleEpisodeState[], minutes: number[]): Record<number, string> {
  const out: Record<number, string> = {};
  for (const minute of minutes) {
    const state = states.find((s) => s.lastSampleAtMs === at(minute));
    out[minute] = state?.status ?? "no sample";
  }
  return out;
}

const firstEpisodeStart = (states: IdleEpisodeState[]) => states.find((s) => s.status === "idle");

describe("stepIdleEpisode: the idle window", () => {
  it("starts the episode exactly when the host has been idle for idleForMinutes", () => {
    const states = trajectory(everyMinute(0, 40, (atMs) => idle(atMs)));
    assert.deepEqual(statusesAt(states, [0, 29, 30, 40]), {
      0: "idle-pending",
      29: "idle-pending",
      30: "idle",
      40: "idle",
    });
    const last = states.at(-1)!;
    assert.equal(last.idleSinceMs, at(0));
    assert.equal(last.episodeStartedAtMs, at(30));
  });

  it("treats 9.99 % as idle and 10 % as busy", () => {
    const host = (utilPct: number) => (atMs: number) =>
      classifyHost(observed("gpu-a", atMs, [utilPct, 0]), POLICY);
    assert.equal(evaluateHost(everyMinute(0, 30, host(9.99)), POLICY, CONTEXT).status, "idle");
    const atTen = evaluateHost(everyMinute(0, 30, host(10)), POLICY, CONTEXT);
    assert.equal(atTen.status, "busy");
    assert.equal(atTen.busyStartedAtMs, at(0));
    assert.equal(atTen.lastBusyAtMs, at(30));
  });

  it("calls a GPU holding memory at 0 % idle and keeps who holds it as evidence", () => {
    const holder = gpuProcess("alice", "python train.py", 71_000);
    const held = (atMs: number) =>
      classifyHost(
        {
          ...observed("gpu-a", atMs, []),
          gpus: [reading(0, 0, { memUsedMiB: 71_234, processes: [holder] }), reading(1, 0)],
        },
        POLICY,
      );
    const state = evaluateHost(everyMinute(0, 30, held), POLICY, CONTEXT);
    assert.equal(state.status, "idle");
    assert.equal(state.episodeStartedAtMs, at(30));
    assert.ok(state.latest?.ok);
    assert.deepEqual(
      state.latest.gpus.map((gpu) => [gpu.class, gpu.memUsedMiB, gpu.processes.map((p) => p.user)]),
      [
        ["idle", 71_234, ["alice"]],
        ["idle", 0, []],
      ],
    );
  });

  it("keeps the host out while someone is logged in and active", () => {
    const states = trajectory([
      ...everyMinute(0, 59, (atMs) => withSession(atMs)),
      ...everyMinute(60, 90, (atMs) => idle(atMs)),
    ]);
    assert.deepEqual(statusesAt(states, [0, 45, 59, 60, 89, 90]), {
      0: "busy",
      45: "busy",
      59: "busy",
      60: "idle-pending",
      89: "idle-pending",
      90: "idle",
    });
    const sessionState = states.find((s) => s.lastSampleAtMs === at(59))!;
    assert.equal(sessionState.sampleClass, "session");
    assert.equal(sessionState.lastSessionAtMs, at(59));
    assert.equal(sessionState.lastBusyAtMs, null);
    assert.equal(states.at(-1)!.idleSinceMs, at(60));
  });

  it("ignores a session whose last input is older than the idle window", () => {
    const state = evaluateHost(
      everyMinute(0, 30, (atMs) => withSession(atMs, 600)),
      POLICY,
      CONTEXT,
    );
    assert.equal(state.status, "idle");
  });

  it("never makes a host with zero GPUs idle", () => {
    const state = evaluateHost(
      everyMinute(0, 300, (atMs) => idle(atMs, 0)),
      POLICY,
      CONTEXT,
    );
    assert.equal(state.status, "unknown");
    assert.equal(state.unknownPolls, 301);
    assert.equal(state.unknownSinceMs, at(0));
  });
});

/** Every GPU idle, and a kernel left holding 20 GiB on GPU 0: something is still on the host. */
const holding = (atMs: number): HostSample => {
  const base = observed("gpu-a", atMs, [0, 0]);
  const kernel = { memUsedMiB: 20_480, processes: [gpuProcess("alice", "python", 20_480)] };
  return classifyHost({ ...base, gpus: [reading(0, 0, kernel), base.gpus[1]!] }, POLICY);
};

describe("stepIdleEpisode: protection after busy work started", () => {
  it("holds a short job's host until protectMinutes after the job started", () => {
    const states = trajectory([...everyMinute(0, 10, busy), ...everyMinute(11, 130, holding)]);
    assert.deepEqual(statusesAt(states, [10, 11, 40, 41, 119, 120]), {
      10: "busy",
      11: "idle-pending",
      40: "idle-pending",
      41: "protected",
      119: "protected",
      120: "idle",
    });
    const episode = firstEpisodeStart(states)!;
    assert.equal(episode.busyStartedAtMs, at(0));
    assert.equal(episode.lastBusyAtMs, at(10));
    assert.equal(episode.idleSinceMs, at(11));
    assert.equal(episode.episodeStartedAtMs, at(120));
  });

  it("measures protection from when the latest busy stretch started, not from when it ended", () => {
    const states = trajectory([...everyMinute(0, 150, busy), ...everyMinute(151, 200, holding)]);
    assert.equal(firstEpisodeStart(states)!.episodeStartedAtMs, at(181));
    assert.equal(firstEpisodeStart(states)!.busyStartedAtMs, at(0));
  });

  it("restarts the busy stretch after an unknown sample", () => {
    const states = trajectory([
      ...everyMinute(0, 10, busy),
      unknown(at(11)),
      ...everyMinute(12, 20, busy),
      ...everyMinute(21, 200, holding),
    ]);
    assert.equal(firstEpisodeStart(states)!.busyStartedAtMs, at(12));
    assert.equal(firstEpisodeStart(states)!.episodeStartedAtMs, at(132));
  });

  it("does not hold a host with nothing left on it: no process, no memory, no session", () => {
    const states = trajectory([...everyMinute(0, 10, busy), ...everyMinute(11, 130, (atMs) => idle(atMs))]);
    assert.deepEqual(statusesAt(states, [40, 41, 120]), { 40: "idle-pending", 41: "idle", 120: "idle" });
    assert.equal(firstEpisodeStart(states)!.episodeStartedAtMs, at(41));
  });

  it("an episode begun on the empty host goes on when a kernel appears while it stays idle", () => {
    const states = trajectory([
      ...everyMinute(0, 10, busy),
      ...everyMinute(11, 50, (atMs) => idle(atMs)),
      ...everyMinute(51, 60, holding),
    ]);
    assert.deepEqual(statusesAt(states, [41, 51, 60]), { 41: "idle", 51: "idle", 60: "idle" });
    assert.equal(states.at(-1)!.episodeStartedAtMs, at(41));
  });

  it("still holds it where the source cannot see sessions", () => {
    const blind = (atMs: number): HostSample => classifyHost(observed("gpu-a", atMs, [0, 0], null), POLICY);
    const states = trajectory([...everyMinute(0, 10, busy), ...everyMinute(11, 130, blind)]);
    assert.equal(firstEpisodeStart(states)!.episodeStartedAtMs, at(120));
  });
});

describe("stepIdleEpisode: snooze, never_stop and stop", () => {
  it("holds the episode while snoozed and starts it when the snooze ends", () => {
    const context = { ...CONTEXT, snoozedUntilMs: at(60) };
    const states = trajectory(
      everyMinute(0, 70, (atMs) => idle(atMs)),
      context,
    );
    assert.deepEqual(statusesAt(states, [10, 30, 59, 60]), {
      10: "snoozed",
      30: "snoozed",
      59: "snoozed",
      60: "idle",
    });
    assert.equal(firstEpisodeStart(states)!.idleSinceMs, at(0));
    assert.equal(firstEpisodeStart(states)!.episodeStartedAtMs, at(60));
  });

  it("ends a running episode when the host is snoozed", () => {
    const before = evaluateHost(
      everyMinute(0, 40, (atMs) => idle(atMs)),
      POLICY,
      CONTEXT,
    );
    const after = stepIdleEpisode(before, idle(at(41)), POLICY, { ...CONTEXT, snoozedUntilMs: at(101) });
    assert.equal(after.status, "snoozed");
    assert.equal(after.episodeStartedAtMs, null);
    assert.deepEqual(after.lastEpisode, {
      idleSinceMs: at(0),
      startedAtMs: at(30),
      endedAtMs: at(41),
      reason: "snoozed",
    });
  });

  it("never makes a never_stop host idle, but still tracks it", () => {
    const context = { ...CONTEXT, neverStop: true };
    const states = trajectory(
      everyMinute(0, 300, (atMs) => idle(atMs)),
      context,
    );
    assert.ok(states.every((s) => s.status === "exempt" && s.episodeStartedAtMs === null));
    assert.equal(states.at(-1)!.idleSinceMs, at(0));
  });

  it("ends the episode with reason stopped when the host was stopped since the last sample", () => {
    const before = evaluateHost(
      everyMinute(0, 40, (atMs) => idle(atMs)),
      POLICY,
      CONTEXT,
    );
    const context = { ...CONTEXT, stoppedAtMs: at(40) + 20_000 };
    const after = stepIdleEpisode(before, idle(at(41)), POLICY, context);
    assert.equal(after.status, "idle-pending");
    assert.equal(after.idleSinceMs, at(41));
    assert.equal(after.lastEpisode?.reason, "stopped");
    const later = evaluateHost(
      everyMinute(42, 71, (atMs) => idle(atMs)),
      POLICY,
      context,
      after,
    );
    assert.equal(later.status, "idle");
    assert.equal(later.episodeStartedAtMs, at(71));
  });

  it("starts no episode within the stop grace while the host only idles after the stop; busy work since lifts the hold", () => {
    const policy = { ...POLICY, idleForMinutes: 5, protectMinutes: 0, stopGraceMinutes: 10 };
    const context = { ...CONTEXT, stoppedAtMs: at(0) + 20_000 };
    const before = evaluateHost(
      everyMinute(-20, 0, (atMs) => idle(atMs)),
      policy,
      CONTEXT,
    );
    const reporting = stepsFrom(
      before,
      everyMinute(1, 12, (atMs) => idle(atMs)),
      policy,
      context,
    );
    assert.deepEqual(
      reporting.map((state) => state.status),
      [...Array(10).fill("idle-pending"), "idle", "idle"],
      "held until 10 minutes after the stop, then the episode of the stretch since it",
    );
    assert.equal(reporting.at(-2)?.episodeStartedAtMs, at(11));
    assert.equal(reporting.at(-2)?.idleSinceMs, at(1));
    const used = stepsFrom(
      before,
      [busy(at(1)), ...everyMinute(2, 8, (atMs) => idle(atMs))],
      policy,
      context,
    );
    assert.equal(
      used.at(-1)?.status,
      "idle",
      "used again after the stop: its next idle stretch alerts as usual",
    );
  });
});

function stepsFrom(
  start: IdleEpisodeState,
  samples: HostSample[],
  policy: typeof POLICY,
  context: HostContext,
): IdleEpisodeState[] {
  const states: IdleEpisodeState[] = [];
  let state = start;
  for (const sample of samples) {
    state = stepIdleEpisode(state, sample, policy, context);
    states.push(state);
  }
  return states;
}

describe("stepIdleEpisode: busy and unknown end an episode", () => {
  const episode = evaluateHost(
    everyMinute(0, 40, (atMs) => idle(atMs)),
    POLICY,
    CONTEXT,
  );

  const endings = [
    { name: "a busy GPU", sample: busy(at(41)), status: "busy", reason: "busy" },
    { name: "an active session", sample: withSession(at(41)), status: "busy", reason: "busy" },
    { name: "a failed observation", sample: unknown(at(41)), status: "unknown", reason: "unknown" },
    {
      name: "a MIG GPU without reading",
      sample: classifyHost(
        { ...observed("gpu-a", at(41), [0]), gpus: [reading(0, null, { mig: true })] },
        POLICY,
      ),
      status: "unknown",
      reason: "unknown",
    },
    {
      name: "a gap longer than staleAfterMinutes",
      sample: idle(at(44)),
      status: "idle-pending",
      reason: "unknown",
    },
  ] as const;
  for (const { name, sample, status, reason } of endings) {
    it(`ends on ${name}`, () => {
      const after = stepIdleEpisode(episode, sample, POLICY, CONTEXT);
      assert.equal(after.status, status);
      assert.equal(after.episodeStartedAtMs, null);
      assert.deepEqual(after.lastEpisode, {
        idleSinceMs: at(0),
        startedAtMs: at(30),
        endedAtMs: sample.atMs,
        reason,
      });
    });
  }

  it("keeps the stretch across a gap of exactly staleAfterMinutes", () => {
    const after = stepIdleEpisode(episode, idle(at(43)), POLICY, CONTEXT);
    assert.equal(after.status, "idle");
    assert.equal(after.episodeStartedAtMs, at(30));
  });

  it("never continues an idle stretch across an unknown sample", () => {
    const states = trajectory([
      ...everyMinute(0, 20, (atMs) => idle(atMs)),
      unknown(at(21)),
      ...everyMinute(22, 60, (atMs) => idle(atMs)),
    ]);
    assert.deepEqual(statusesAt(states, [20, 21, 22, 50, 51, 52]), {
      20: "idle-pending",
      21: "unknown",
      22: "idle-pending",
      50: "idle-pending",
      51: "idle-pending",
      52: "idle",
    });
  });

  it("counts consecutive unknown samples and remembers the last known one", () => {
    const state = evaluateHost(
      [...everyMinute(0, 5, (atMs) => idle(atMs)), ...everyMinute(6, 12, unknown)],
      POLICY,
      CONTEXT,
    );
    assert.equal(state.status, "unknown");
    assert.equal(state.unknownPolls, 7);
    assert.equal(state.unknownSinceMs, at(6));
    assert.equal(state.lastKnownAtMs, at(5));
    assert.equal(state.latest?.ok === false && state.latest.message, "gpu-a: ssh timed out after 20 s");
    const back = stepIdleEpisode(state, idle(at(13)), POLICY, CONTEXT);
    assert.equal(back.unknownPolls, 0);
    assert.equal(back.unknownSinceMs, null);
    assert.equal(back.lastKnownAtMs, at(13));
  });
});

describe("stepIdleEpisode: replays", () => {
  it("ignores a sample at or before the latest one and returns the same state", () => {
    const state = evaluateHost(
      everyMinute(0, 40, (atMs) => idle(atMs)),
      POLICY,
      CONTEXT,
    );
    assert.equal(stepIdleEpisode(state, busy(at(40)), POLICY, CONTEXT), state);
    assert.equal(stepIdleEpisode(state, unknown(at(12)), POLICY, CONTEXT), state);
  });

  it("rebuilds from history the same state it reached poll by poll", () => {
    const samples = [
      ...everyMinute(0, 10, busy),
      ...everyMinute(11, 200, (atMs) => idle(atMs)),
      unknown(at(201)),
      ...everyMinute(202, 260, (atMs) => idle(atMs)),
    ];
    assert.deepEqual(evaluateHost(samples, POLICY, CONTEXT), trajectory(samples).at(-1));
  });
});
