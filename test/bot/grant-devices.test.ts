import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { grantDevices } from "../../src/checks/grant-devices.ts";
import type { HostObservation } from "../../src/domain/observation.ts";
import { migSlot } from "../../src/shared/gpu-slot.ts";
import { observed, reading } from "../checks/builders.ts";
import { ALICE, allHosts, BOB, BotHarness, EVE, idleHost, standardConfig } from "../helpers/bot-harness.ts";
import { lastDm, shownText as shown } from "../helpers/shown-blocks.ts";

const MIG_KNOWN = migSlot(0, 1) as number;
const MIG_UNKNOWN = migSlot(0, 2) as number;

describe("CUDA_VISIBLE_DEVICES of whole-host and MIG grants (pure)", () => {
  test("a whole host's whole GPUs; MIG instances by their own MIG- UUIDs, else unknown; plain GPUs left to the DM", () => {
    const known = new Map([
      ["gpu-a", [0, 1, 2, 3].map((index) => ({ index, uuid: `GPU-${index}` }))],
      [
        "gpu-m",
        [
          { index: 1, uuid: "GPU-1" },
          { index: MIG_KNOWN, uuid: "MIG-aaaa" },
          { index: MIG_UNKNOWN, uuid: "GPU-parent" },
        ],
      ],
    ]);
    assert.deepEqual(grantDevices([{ host: "gpu-a", gpuIndex: null }], known), [
      { host: "gpu-a", kind: "host", devices: ["0", "1", "2", "3"] },
    ]);
    assert.deepEqual(grantDevices([{ host: "gpu-m", gpuIndex: null }], known), [
      { host: "gpu-m", kind: "host", devices: ["1"] },
    ]);
    assert.deepEqual(grantDevices([{ host: "gpu-m", gpuIndex: MIG_KNOWN }], known), [
      { host: "gpu-m", kind: "mig", devices: ["MIG-aaaa"] },
    ]);
    assert.deepEqual(
      grantDevices(
        [
          { host: "gpu-m", gpuIndex: MIG_KNOWN },
          { host: "gpu-m", gpuIndex: MIG_UNKNOWN },
        ],
        known,
      ),
      [{ host: "gpu-m", kind: "mig", devices: null }],
    );
    assert.deepEqual(grantDevices([{ host: "gpu-a", gpuIndex: 0 }], known), []);
    assert.deepEqual(grantDevices([{ host: "new", gpuIndex: null }], known), [
      { host: "new", kind: "host", devices: null },
    ]);
  });
});

/** gpu-m: whole GPU 1, and GPU 0 split into two MIG instances, one reporting its own UUID. */
const migHost = (atMs: number): HostObservation => ({
  ...observed("gpu-m", atMs, [0]),
  gpus: [
    reading(1, 0),
    reading(MIG_KNOWN, 0, { uuid: "MIG-4f1d2c3b-aaaa-bbbb-cccc-000000000001", mig: true }),
    reading(MIG_UNKNOWN, 0, { uuid: null, mig: true }),
  ],
});

describe("grant DMs over the real Bolt app", { timeout: 120_000 }, () => {
  let h: BotHarness;
  afterEach(() => h.closeChecked());

  test("a whole-host grant and MIG grants name CUDA_VISIBLE_DEVICES, or say the UUIDs are unknown", async () => {
    h = await BotHarness.start({ transport: "socket", config: standardConfig({ "gpu-a": {}, "gpu-m": {} }) });
    const fleet = allHosts(idleHost("gpu-a"), migHost);
    h.pollFor(1, fleet);
    await h.user.slashCommand({ user: BOB, text: "claim gpu-a for 1h" });
    await h.user.slashCommand({ user: BOB, text: "claim gpu-m:0.1,0.2 for 1h" });
    await h.user.slashCommand({ user: EVE, text: "claim gpu-a --wait" });
    await h.user.slashCommand({ user: ALICE, text: "claim gpu-m:0.1 --wait" });
    await h.user.slashCommand({ user: ALICE, text: "claim gpu-m:0.2 --wait" });
    await h.user.slashCommand({ user: BOB, text: "release all" });
    await h.settle();
    assert.match(shown(lastDm(h, EVE).blocks), /\*gpu-a\*, all GPUs: `CUDA_VISIBLE_DEVICES=0,1,2,3`/);
    const alice = h.emulator.dms(ALICE).map((dm) => shown(dm.blocks));
    assert.equal(alice.length, 2);
    assert.ok(
      alice.some((text) =>
        text.includes(
          "*gpu-m*, MIG instances: `CUDA_VISIBLE_DEVICES=MIG-4f1d2c3b-aaaa-bbbb-cccc-000000000001`",
        ),
      ),
      alice.join("\n---\n"),
    );
    assert.ok(
      alice.some((text) =>
        text.includes(
          "*gpu-m*: the MIG instances' UUIDs are not known, so CUDA_VISIBLE_DEVICES cannot be given",
        ),
      ),
      alice.join("\n---\n"),
    );
  });
});
