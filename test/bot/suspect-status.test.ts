import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { parseGpuQuery } from "../../src/sources/parse-nvidia-smi.ts";
import { observed } from "../checks/builders.ts";
import { ALICE, BotHarness, DAVE, poweroffRuns, standardConfig } from "../helpers/bot-harness.ts";
import { readFixture } from "../helpers/fixtures.ts";

/** The real L40S capture that reads 100 % with 0 MiB at 145 W and no process. */
const L40S_FAULT = parseGpuQuery(
  readFixture("nvidia-smi", "utkuozdemir-captures", "linux-x86_64__nvidia-l40s__595.80__idle__query-gpu.csv"),
)[0]!;

function sectionsText(blocks: unknown[] | undefined): string {
  return (blocks ?? [])
    .flatMap((block) => {
      const text = (block as { text?: { text?: string } }).text?.text;
      return text === undefined ? [] : [text];
    })
    .join("\n");
}

describe("suspect readings over the real Bolt app", { timeout: 60_000 }, () => {
  let h: BotHarness;
  afterEach(() => h.closeChecked());

  test("/gpu status says why a GPU is suspect and does not count it busy; Stop refuses on suspect data", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig({ "gpu-l": { owners: [ALICE], stop: "script" } }),
    });
    h.pollFor(10, (atMs) => {
      const observation = observed("gpu-l", atMs, [0], []);
      observation.gpus[0] = { ...L40S_FAULT, index: 0 };
      return [observation];
    });
    await h.settle();
    const board = await h.user.slashCommand({ user: ALICE, text: "status" });
    assert.match(String(board.ackPayload?.text), /^Fleet: 1 host · 1 GPUs?, 0 busy · 1 suspect readings$/);
    assert.match(
      sectionsText(board.ackPayload?.blocks as unknown[]),
      /^\*Suspect readings\* \(1\)\n• \*gpu-l\* suspect reading: GPU 0 at 100 % with no memory held, 145 W \(a known driver fault\); not counted busy, never stopped automatically$/m,
    );
    assert.equal(h.dmTexts(ALICE).length, 1, "the owner was told once");
    const detail = await h.user.slashCommand({ user: ALICE, text: "status gpu-l" });
    assert.match(
      sectionsText(detail.ackPayload?.blocks as unknown[]),
      /^`GPU 0` · L40S · 100 % · 0\.0\/45\.0 GiB · suspect: no memory at 145 W$/m,
    );

    await h.user.slashCommand({ user: ALICE, text: "stop gpu-l" });
    assert.equal(
      h.latestEphemeral(ALICE).text,
      "gpu-l GPU 0 reports full utilisation with no memory held at idle power (a known driver fault): not stopping on suspect data",
    );
    await h.user.slashCommand({ user: DAVE, text: "stop gpu-l" });
    assert.match(
      sectionsText(h.latestEphemeral(DAVE).blocks as unknown[]),
      /As an admin you can stop it anyway/,
    );
    assert.deepEqual(poweroffRuns(h), []);
  });

  test("/gpu report flags the suspect GPU-hours it counts busy", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig({ "gpu-l": { owners: [ALICE], cost_per_hour: 2 } }),
    });
    const t0 = h.clock.now();
    h.clock.set(Date.UTC(2026, 0, 3, 23));
    h.pollFor(24 * 60, (atMs) => {
      const observation = observed("gpu-l", atMs, [0, 0], []);
      observation.gpus[0] = { ...L40S_FAULT, index: 0 };
      return [observation];
    });
    h.clock.set(t0);
    while (!h.metrics.rollup(t0, 10, 1000).complete) {}
    await h.settle();
    const reply = await h.user.slashCommand({ user: ALICE, text: "report 1d" });
    const lines = sectionsText(reply.ackPayload?.blocks as unknown[]);
    assert.match(lines, /Real usage rate \*50 %\*: 24\.0 busy of 48\.0 GPU-hours on/);
    const context = ((reply.ackPayload?.blocks ?? []) as { type: string; elements?: { text: string }[] }[])
      .filter((block) => block.type === "context")
      .flatMap((block) => (block.elements ?? []).map((element) => element.text))
      .join(" ");
    assert.match(
      context,
      /❔ Suspect readings \(100 % with no memory at idle power, a known driver fault\) are counted busy here: gpu-l GPU 0 24\.0 h\./,
    );
    await h.emulator.waitFor(() => h.emulator.files()[0]?.completed === true, "the CSV upload");
  });
});
