import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { formatGpuList, parseGpuList, parseSlots, slotsText } from "../../src/checks/claim-target.ts";

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
