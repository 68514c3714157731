import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { GpuSeat } from "../../src/checks/claim-pick.ts";
import { type HeldClaim, pickPreemptions } from "../../src/checks/preempt-pick.ts";
import type { Claim } from "../../src/domain/claim.ts";

const seats: GpuSeat[] = [0, 1, 2, 3].map((index) => ({
  host: "gpu-a",
  index,
  model: "A100",
  state: "idle",
}));
let nextId = 1;
const held = (gpuIndex: number | null, priority: number, preempt: boolean, fromMs = 0): HeldClaim => ({
  claim: {
    id: nextId++,
    host: "gpu-a",
    gpuIndex,
    user: `U0H${gpuIndex}`,
    fromMs,
    untilMs: 10_000,
    note: "",
    releasedAtMs: null,
    releasedBy: null,
    endReason: null,
    remindedAtMs: null,
    nudgedAtMs: null,
    stillUsingAtMs: null,
  } satisfies Claim,
  priority,
  preempt,
});
const ids = (claims: Claim[] | null) => claims?.map((claim) => claim.gpuIndex) ?? null;

describe("which running claims a waiting request asks to make room", () => {
  test("count: the fewest claims covering what free GPUs lack, lowest priority first, then the newest", () => {
    const all = [held(0, 0, true, 1), held(1, 0, true, 5), held(2, -5, true, 0), held(3, 0, false)];
    const want = { kind: "count" as const, count: 2, model: null };
    assert.deepEqual(ids(pickPreemptions(want, 10, seats, all, new Set(), null)), [2, 1]);
    assert.deepEqual(ids(pickPreemptions({ ...want, count: 1 }, 0, seats, all, new Set(), null)), [2]);
    assert.equal(pickPreemptions(want, 0, seats, all, new Set(), null), null);
    assert.equal(pickPreemptions({ ...want, count: 4 }, 10, seats, all, new Set(), null), null);
    assert.equal(pickPreemptions(want, 10, seats, all.slice(0, 1), new Set(), null), null, "two GPUs free");
    const asked = new Set([all[2]?.claim.id ?? 0]);
    assert.deepEqual(ids(pickPreemptions(want, 10, seats, all, asked, null)), [1, 0]);
  });

  test("named GPUs: every claim on them must be askable", () => {
    const all = [held(0, 0, true), held(1, 0, false)];
    assert.deepEqual(
      ids(pickPreemptions({ kind: "slots", host: "gpu-a", gpus: [0] }, 10, seats, all, new Set(), null)),
      [0],
    );
    assert.equal(
      pickPreemptions({ kind: "slots", host: "gpu-a", gpus: [0, 1] }, 10, seats, all, new Set(), null),
      null,
    );
    assert.equal(
      pickPreemptions({ kind: "slots", host: "gpu-a", gpus: [0] }, 0, seats, all, new Set(), null),
      null,
    );
  });
});
