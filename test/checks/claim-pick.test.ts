import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { matchModels } from "../../src/checks/claim-model.ts";
import { type GpuSeat, pickFreeGpus, type SeatState } from "../../src/checks/claim-pick.ts";
import type { Claim } from "../../src/domain/claim.ts";

const A100 = "NVIDIA A100-SXM4-80GB";
const A10 = "NVIDIA A10";
const H100 = "NVIDIA H100 80GB HBM3";
const RTX = "NVIDIA GeForce RTX 4090";

function seats(host: string, model: string, states: readonly SeatState[]): GpuSeat[] {
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

describe("GPU models, matched loosely", () => {
  const models = [A100, A10, H100, RTX];
  test("a word of the model name first: a10 is the A10, not the A100", () => {
    assert.deepEqual(matchModels("a100", models), [A100]);
    assert.deepEqual(matchModels("A10", models), [A10]);
    assert.deepEqual(matchModels("h100", models), [H100]);
    assert.deepEqual(matchModels("4090", models), [RTX]);
    assert.deepEqual(matchModels("a100-80gb", models), [A100]);
  });

  test("then part of the name without spaces and dashes; nothing for an unknown model", () => {
    assert.deepEqual(matchModels("rtx4090", models), [RTX]);
    assert.deepEqual(matchModels("sxm4", models), [A100]);
    assert.deepEqual(matchModels("v100", models), []);
    assert.deepEqual(matchModels("--", models), []);
  });
});

describe("picking n free GPUs", () => {
  test("packs onto one host, the one left with the fewest free GPUs; idle GPUs first", () => {
    const fleet = [
      ...seats("big", A100, ["idle", "idle", "idle", "idle", "idle", "idle", "idle", "idle"]),
      ...seats("small", A100, ["busy", "idle", "unknown", "idle"]),
    ];
    assert.deepEqual(pickFreeGpus(fleet, [], 2), {
      kind: "picked",
      picks: [{ host: "small", gpus: [1, 3] }],
    });
    assert.deepEqual(pickFreeGpus(fleet, [], 3), {
      kind: "picked",
      picks: [{ host: "big", gpus: [0, 1, 2] }],
    });
  });

  test("claimed GPUs and claimed hosts are not free; spreads over as few hosts as it must", () => {
    const fleet = [
      ...seats("a", A100, ["idle", "idle", "idle", "idle"]),
      ...seats("b", A100, ["idle", "idle", "idle", "idle"]),
      ...seats("c", A100, ["idle", "idle"]),
    ];
    const claims = [claim("a", 0), claim("a", 1), claim("b", null)];
    assert.deepEqual(pickFreeGpus(fleet, claims, 4), {
      kind: "picked",
      picks: [
        { host: "a", gpus: [2, 3] },
        { host: "c", gpus: [0, 1] },
      ],
    });
    assert.deepEqual(pickFreeGpus(fleet, claims, 5), { kind: "short", free: 4, total: 10 });
  });
});
