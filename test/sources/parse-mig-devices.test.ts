import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { parseMigDevices } from "../../src/sources/parse-mig-devices.ts";
import { fixturePath } from "../helpers/fixtures.ts";
import { A100_MIG_XML } from "../helpers/stand-in-commands.ts";

const read = (path: string) => readFileSync(fixturePath(path), "utf8");

describe("parseMigDevices over real nvidia-smi -q -x output", () => {
  test("an A100 in MIG mode: its four GPU instances with their own memory, by the GPU's UUID", () => {
    const layout = parseMigDevices(read(A100_MIG_XML));
    assert.deepEqual(
      [...layout.instances],
      [
        [
          "GPU-513536b6-7d19-9063-b049-1e69664bb298",
          [3, 4, 5, 6].map((gpuInstanceId) => ({ gpuInstanceId, memUsedMiB: 12, memTotalMiB: 19968 })),
        ],
      ],
    );
    assert.equal(layout.processInstance.size, 0);
  });

  test("GPUs without MIG: no instances, and processes with gpu_instance_id N/A are on no instance", () => {
    for (const file of [
      "V100-PCIE-busy-4procs-v11__datakit.xml",
      "H100-8x-idle-v12-TRIMMED-first2of8__aicr.xml",
    ]) {
      const layout = parseMigDevices(read(`nvidia-smi-xml/${file}`));
      assert.equal(layout.instances.size, 0, file);
      assert.equal(layout.processInstance.size, 0, file);
    }
  });
});
