import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { type ContainerGroupUsage, rightsize, workloadOf } from "../../src/checks/rightsizing.ts";

const usage = (over: Partial<ContainerGroupUsage>): ContainerGroupUsage => ({
  group: "ml/train/main",
  namespace: "ml",
  workload: "train",
  container: "main",
  pods: 1,
  cpuRequestCores: null,
  cpuPeakCores: null,
  cpuMeanCores: null,
  gpuRequest: null,
  gpuMemMaxMiB: null,
  gpuMemTotalMiB: null,
  ...over,
});

describe("rightsizing", () => {
  test("CPU: request 1.2 × the peak; flagged below half of the request", () => {
    const low = rightsize(usage({ cpuRequestCores: 8, cpuPeakCores: 1.5, cpuMeanCores: 1 }));
    assert.deepEqual(
      { ...low.cpu, recommendedCores: 0 },
      { peakRatio: 0.1875, meanRatio: 0.125, recommendedCores: 0, direction: "lower" },
    );
    assert.ok(Math.abs(low.cpu!.recommendedCores - 1.8) < 1e-12);
    assert.equal(low.flagged, true);
    const edge = rightsize(usage({ cpuRequestCores: 4, cpuPeakCores: 2 }));
    assert.equal(edge.cpu?.direction, "ok");
    assert.equal(edge.flagged, false);
    const over = rightsize(usage({ cpuRequestCores: 2, cpuPeakCores: 3 }));
    assert.equal(over.cpu?.direction, "raise");
    assert.ok(Math.abs(over.cpu!.recommendedCores - 3.6) < 1e-12);
    assert.equal(rightsize(usage({ cpuRequestCores: 2 })).cpu, null, "no peak, no advice");
  });

  test("GPU memory: 1.3 × the maximum; flagged below half of the card", () => {
    const advice = rightsize(usage({ gpuRequest: 1, gpuMemMaxMiB: 20_000, gpuMemTotalMiB: 81_920 }));
    assert.equal(advice.gpuMem?.direction, "lower");
    assert.equal(advice.gpuMem?.recommendedMiB, 26_000);
    assert.equal(advice.gpuMem?.maxRatio, 20_000 / 81_920);
    assert.equal(advice.flagged, true);
    const full = rightsize(usage({ gpuRequest: 2, gpuMemMaxMiB: 70_000, gpuMemTotalMiB: 81_920 }));
    assert.equal(full.gpuMem?.direction, "ok");
    assert.equal(
      rightsize(usage({ gpuMemMaxMiB: 10, gpuMemTotalMiB: 100 })).gpuMem,
      null,
      "no GPU requested",
    );
  });

  test("pod names fold into their workload", () => {
    assert.equal(workloadOf("trainer-7d9f8b6c5d-x2x4z"), "trainer");
    assert.equal(workloadOf("llm-serve-0"), "llm-serve");
    assert.equal(workloadOf("etl-job-h7k2p"), "etl-job");
    assert.equal(workloadOf("notebook"), "notebook");
  });
});
