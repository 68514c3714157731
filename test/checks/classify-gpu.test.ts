import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { classifyGpu } from "../../src/checks/classify-gpu.ts";
import { classifyHost, countActiveSessions, hostClass } from "../../src/checks/classify-host.ts";
import { failedAt, gpuProcess, observed, POLICY, reading, session, T0 } from "./builders.ts";

describe("classifyGpu", () => {
  const cases = [
    { utilPct: 0, mig: false, want: "idle" },
    { utilPct: 9.99, mig: false, want: "idle" },
    { utilPct: 10, mig: false, want: "busy" },
    { utilPct: 100, mig: false, want: "busy" },
    { utilPct: null, mig: false, want: "unknown" },
    { utilPct: null, mig: true, want: "unknown" },
    { utilPct: Number.NaN, mig: false, want: "unknown" },
    { utilPct: -1, mig: false, want: "unknown" },
    { utilPct: 101, mig: false, want: "unknown" },
  ] as const;
  for (const { utilPct, mig, want } of cases) {
    it(`utilPct ${utilPct}${mig ? " (MIG)" : ""} is ${want}`, () => {
      assert.equal(classifyGpu(reading(0, utilPct, { mig, memUsedMiB: 19_818 }), 10).class, want);
    });
  }

  it("says why a GPU is unknown", () => {
    assert.deepEqual(
      [null, Number.NaN].map((utilPct) => classifyGpu(reading(0, utilPct), 10)),
      [
        {
          index: 0,
          class: "unknown",
          utilPct: null,
          reason: "no-reading",
          memUsedMiB: 0,
          processes: [],
          powerW: 70,
        },
        {
          index: 0,
          class: "unknown",
          utilPct: null,
          reason: "invalid",
          memUsedMiB: 0,
          processes: [],
          powerW: 70,
        },
      ],
    );
    const mig = classifyGpu(reading(3, null, { mig: true }), 10);
    assert.equal(mig.class === "unknown" && mig.reason, "mig");
  });

  it("keeps memory held at 0 % and who holds it as evidence of an idle GPU", () => {
    const holder = gpuProcess("alice", "python train.py", 71_000);
    const sample = classifyGpu(reading(2, 0, { memUsedMiB: 71_234, processes: [holder] }), 10);
    assert.deepEqual(sample, {
      index: 2,
      class: "idle",
      utilPct: 0,
      reason: null,
      memUsedMiB: 71_234,
      processes: [holder],
      powerW: 70,
    });
  });

  it("follows the configured threshold", () => {
    assert.equal(classifyGpu(reading(0, 4.99), 5).class, "idle");
    assert.equal(classifyGpu(reading(0, 5), 5).class, "busy");
  });
});

describe("countActiveSessions", () => {
  it("counts sessions with recent or unknown input, not those idle for the whole window", () => {
    const sessions = [session("alice", 0), session("bob", 29.9), session("carol", 30), session("dan", null)];
    assert.equal(countActiveSessions(sessions, 30), 3);
    assert.equal(countActiveSessions([], 30), 0);
    assert.equal(countActiveSessions(null, 30), null);
  });
});

describe("hostClass", () => {
  const classOf = (utilPcts: (number | null)[], sessions: ReturnType<typeof session>[] | null = []) =>
    hostClass(classifyHost(observed("gpu-a", T0, utilPcts, sessions), POLICY));

  it("is idle when every GPU is idle and nobody is active", () => {
    assert.equal(classOf([0, 9.99, 3]), "idle");
  });
  it("is busy when one GPU is busy, even next to a GPU without reading", () => {
    assert.equal(classOf([0, 10, 0]), "busy");
    assert.equal(classOf([null, 50]), "busy");
  });
  it("is unknown when a GPU has no reading and none is busy", () => {
    assert.equal(classOf([0, null, 0]), "unknown");
  });
  it("is unknown for a host with zero GPUs", () => {
    assert.equal(classOf([]), "unknown");
  });
  it("is unknown for a failed observation", () => {
    assert.equal(hostClass(classifyHost(failedAt("gpu-a", T0), POLICY)), "unknown");
  });
  it("is session when the GPUs are idle but someone is logged in and active", () => {
    assert.equal(classOf([0, 0], [session("alice", 3)]), "session");
    assert.equal(classOf([0, 0], [session("alice", 45)]), "idle");
  });
  it("lets the GPUs decide when the source cannot see sessions", () => {
    assert.equal(classOf([0, 0], null), "idle");
  });
});
