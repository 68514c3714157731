import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Config } from "../../src/config/schema.ts";
import type { GpuReading } from "../../src/domain/observation.ts";
import type { GpuNow } from "../../src/usecases/claims/claim-seats.ts";
import { queueSeatsFor } from "../../src/usecases/queue/queue-placement.ts";

/** A 24 GB card as nvidia-smi reports it: 24,564 MiB, a little under 24 × 1,024. */
const RTX_4090_MIB = 24_564;

function seat(index: number, memTotalMiB: number): GpuNow {
  const reading = { index, memTotalMiB } as GpuReading;
  return { host: "gpu-a", index, model: "NVIDIA GeForce RTX 4090", state: "idle", utilPct: 0, reading };
}

describe("a waiting request's memory floor", () => {
  test("counts a GPU as /gpu claim does at once: `24g` takes a 24 GB card", () => {
    const metrics = {
      hosts: () => [],
      gpuSamplesSince: () => [],
      rollupsBetween: () => [],
      rollupHours: () => ({ gpus: new Map(), at: () => null }),
    };
    const deps = { config: {} as Config, metrics };
    const seats = [seat(0, RTX_4090_MIB), seat(1, 16_376)];
    const allowed = queueSeatsFor(deps, 0)(
      { kind: "count", count: 1, model: null, floorMiB: 24 * 1024 },
      seats,
    );
    assert.deepEqual(
      allowed?.seats.map((s) => s.index),
      [0],
      "the 24 GB card fits `gpus>=24g` (as placement counts it), the 16 GB one does not",
    );
  });
});
