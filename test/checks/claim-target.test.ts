import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { formatGpuList, parseGpuList, parseSlots, slotsText } from "../../src/checks/claim-target.ts";
import {
  MAX_MIG_GPU_INDEX,
  MAX_SLOT_INDEX,
  migParts,
  migSlot,
  physicalGpu,
  slotLabel,
} from "../../src/shared/gpu-slot.ts";

describe("claim targets: gpu-a, gpu-a:0, gpu-a:0,1, gpu-a:0-3", () => {
  test("accepted forms", () => {
    const cases: Array<[string, { host: string; gpus: number[] | null }]> = [
      ["gpu-a", { host: "gpu-a", gpus: null }],
      ["gpu-a:0", { host: "gpu-a", gpus: [0] }],
      ["gpu-a:0,1", { host: "gpu-a", gpus: [0, 1] }],
      ["gpu-a:0-3", { host: "gpu-a", gpus: [0, 1, 2, 3] }],
      ["gpu-a:3,0-1,1", { host: "gpu-a", gpus: [0, 1, 3] }],
      ["node.07_x:255", { host: "node.07_x", gpus: [255] }],
    ];
    for (const [text, slots] of cases) assert.deepEqual(parseSlots(text), { ok: true, slots }, text);
  });

  test("rejected forms say whether the host or the GPU list is wrong", () => {
    const cases: Array<[string, "host" | "gpus"]> = [
      ["", "host"],
      ["-gpu", "host"],
      ["gpu a", "host"],
      [":0", "host"],
      ["gpu-a:", "gpus"],
      ["gpu-a:x", "gpus"],
      ["gpu-a:3-0", "gpus"],
      ["gpu-a:0-256", "gpus"],
      ["gpu-a:1,,2", "gpus"],
      ["gpu-a:0:1", "gpus"],
      ["gpu-a:-1", "gpus"],
    ];
    for (const [text, problem] of cases) assert.deepEqual(parseSlots(text), { ok: false, problem }, text);
  });

  test("lists are written back compactly: runs of three or more as ranges", () => {
    assert.equal(formatGpuList([0, 1]), "0,1");
    assert.equal(formatGpuList([0, 1, 2, 3]), "0-3");
    assert.equal(formatGpuList([4, 0, 2, 3]), "0,2-4");
    assert.equal(formatGpuList([0, 1, 2, 5, 6, 7, 9]), "0-2,5-7,9");
    assert.equal(slotsText({ host: "gpu-a", gpus: null }), "gpu-a");
    assert.equal(slotsText({ host: "gpu-a", gpus: [1, 2, 3] }), "gpu-a:1-3");
  });

  test("property: writing a list and reading it back gives the same GPUs", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 40 }),
        (indexes) => {
          assert.deepEqual(
            parseGpuList(formatGpuList(indexes)),
            [...indexes].sort((a, b) => a - b),
          );
        },
      ),
    );
  });
});

describe("MIG instances in claim targets: gpu-a:0.13", () => {
  test("a GPU instance is GPU index, a dot and the GPU instance id; it mixes with whole GPUs", () => {
    assert.deepEqual(parseSlots("gpu-a:0.13"), {
      ok: true,
      slots: { host: "gpu-a", gpus: [migSlot(0, 13)] },
    });
    assert.deepEqual(parseGpuList("0.10,0.9,1"), [1, migSlot(0, 9), migSlot(0, 10)]);
    assert.equal(formatGpuList([migSlot(0, 10)!, migSlot(0, 9)!, 3, 1, 2]), "1-3,0.9,0.10");
    assert.equal(slotsText({ host: "mig-a", gpus: [migSlot(1, 3)!] }), "mig-a:1.3");
    for (const text of ["0.", ".3", "0.3-5", "0-1.3", "64.1", "0.1000", "0.3.1"]) {
      assert.equal(parseGpuList(text), null, text);
    }
  });

  test("slots are labelled as typed and are never whole GPUs", () => {
    assert.equal(slotLabel(5), "5");
    assert.equal(slotLabel(migSlot(0, 13)!), "0.13");
    assert.deepEqual(migParts(migSlot(7, 2)!), { gpu: 7, instance: 2 });
    assert.equal(migParts(255), null);
    assert.equal(physicalGpu(migSlot(3, 1)!), 3);
    assert.ok(migSlot(MAX_MIG_GPU_INDEX, 999)! <= MAX_SLOT_INDEX);
  });

  test("property: lists of whole GPUs and instances read back as written", () => {
    const slot = fc.oneof(
      fc.integer({ min: 0, max: 255 }),
      fc
        .tuple(fc.integer({ min: 0, max: MAX_MIG_GPU_INDEX }), fc.integer({ min: 0, max: 14 }))
        .map(([gpu, instance]) => migSlot(gpu, instance)!),
    );
    fc.assert(
      fc.property(fc.uniqueArray(slot, { minLength: 1, maxLength: 20 }), (indexes) => {
        assert.deepEqual(
          parseGpuList(formatGpuList(indexes)),
          [...indexes].sort((a, b) => a - b),
        );
      }),
    );
  });
});
