import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { GpuSeat, SeatState } from "../../src/checks/claim-pick.ts";
import { fitRequest } from "../../src/checks/queue-fit.ts";
import type { Claim } from "../../src/domain/claim.ts";

const A100 = "NVIDIA A100-SXM4-80GB";
const H100 = "NVIDIA H100 80GB HBM3";

function seats(host: string, model: string, states: SeatState[]): GpuSeat[] {
  return states.map((state, index) => ({ host, index, model, state }));
}

function claim(host: string, gpuIndex: number | null): Claim {
  return {
    id: 1,
    host,
    gpuIndex,
    user: "U0BOB",
    fromMs: 0,
    untilMs: 1,
    note: "",
    releasedAtMs: null,
    releasedBy: null,
    endReason: null,
    remindedAtMs: null,
    nudgedAtMs: null,
    stillUsingAtMs: null,
  };
}

const fleet = [
  ...seats("gpu-a", H100, ["idle", "busy", "unknown", "idle"]),
  ...seats("gpu-b", A100, ["idle", "idle"]),
];

describe("fitRequest (what a waiting request would get now)", () => {
  test("any n GPUs: only idle, unclaimed ones; busy-but-unclaimed and unknown GPUs are not free", () => {
    assert.deepEqual(fitRequest({ kind: "count", count: 2, model: null }, fleet, [claim("gpu-b", 1)], null), [
      { host: "gpu-a", gpuIndex: 0 },
      { host: "gpu-a", gpuIndex: 3 },
    ]);
    const spread = [claim("gpu-a", 0), claim("gpu-b", 1)];
    assert.deepEqual(fitRequest({ kind: "count", count: 2, model: null }, fleet, spread, null), [
      { host: "gpu-a", gpuIndex: 3 },
      { host: "gpu-b", gpuIndex: 0 },
    ]);
    assert.equal(fitRequest({ kind: "count", count: 3, model: null }, fleet, spread, null), null);
  });

  test("a model: only its GPUs", () => {
    assert.deepEqual(fitRequest({ kind: "count", count: 2, model: "a100" }, fleet, [], [A100]), [
      { host: "gpu-b", gpuIndex: 0 },
      { host: "gpu-b", gpuIndex: 1 },
    ]);
    assert.equal(fitRequest({ kind: "count", count: 3, model: "a100" }, fleet, [], [A100]), null);
  });

  test("named GPUs: every one idle and unclaimed; a whole-host claim takes them all", () => {
    const want = { kind: "slots" as const, host: "gpu-a", gpus: [0, 3] };
    assert.deepEqual(fitRequest(want, fleet, [], null), [
      { host: "gpu-a", gpuIndex: 0 },
      { host: "gpu-a", gpuIndex: 3 },
    ]);
    assert.equal(fitRequest({ ...want, gpus: [0, 1] }, fleet, [], null), null, "GPU 1 is busy");
    assert.equal(fitRequest(want, fleet, [claim("gpu-a", 3)], null), null);
    assert.equal(
      fitRequest({ kind: "slots", host: "gpu-b", gpus: [0] }, fleet, [claim("gpu-b", null)], null),
      null,
    );
    assert.equal(fitRequest({ kind: "slots", host: "gpu-z", gpus: [0] }, fleet, [], null), null);
  });

  test("a whole host: no claim on it and every GPU idle", () => {
    const whole = { kind: "slots" as const, host: "gpu-b", gpus: null };
    assert.deepEqual(fitRequest(whole, fleet, [], null), [{ host: "gpu-b", gpuIndex: null }]);
    assert.equal(fitRequest(whole, fleet, [claim("gpu-b", 1)], null), null);
    assert.equal(fitRequest({ ...whole, host: "gpu-a" }, fleet, [], null), null);
  });
});
