import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import type { PersistedJob } from "../../src/jobs/slot-runner.ts";
import { HOUR_MS } from "../../src/shared/clock.ts";
import { readTrackedPlans } from "../../src/usecases/procurement/track-plans.ts";
import { observed } from "../checks/builders.ts";
import { ALICE, BotHarness, CAROL, CHANNEL, standardConfig, T0 } from "../helpers/bot-harness.ts";
import { shownText } from "../helpers/shown-blocks.ts";

const JAN_20 = Date.UTC(2026, 0, 20, 9);
const FEB_10 = Date.UTC(2026, 1, 10, 9);
const MAR_10 = Date.UTC(2026, 2, 10, 9);
/** Wednesday, April 1st 10:00 in Berlin. */
const APR_1 = Date.UTC(2026, 3, 1, 8);

describe("an approved request is a tracked plan: below 50 % two months running, the summary flags it", {
  timeout: 120_000,
}, () => {
  let h: BotHarness;
  after(async () => {
    if (h !== undefined) await h.closeChecked();
  });

  /** Runs the summary job now; the posted summary's text. */
  const summaryNow = async (): Promise<string> => {
    const job = h.jobs.find((candidate) => candidate.name === "summary") as PersistedJob;
    const commit = (effect?: () => void) => {
      effect?.();
      return true;
    };
    await job.run({ atMs: h.clock.now(), late: false, skipped: 0, commit });
    await h.settle();
    return shownText(h.emulator.channel(CHANNEL).messages.at(-1)?.blocks);
  };

  /** `hours` busy hours on all four GPUs of gpu-new from `fromMs`, one reading a minute. */
  const busy = (fromMs: number, hours: number) => {
    for (let atMs = fromMs; atMs < fromMs + hours * HOUR_MS; atMs += 60_000) {
      h.metrics.writeCycle([observed("gpu-new", atMs, [95, 95, 95, 95])], atMs);
    }
  };

  test("4 × H100 planned at 600 GPU-hours a month, used 16 and 20: flagged after February and March", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig({ "gpu-new": { owners: [ALICE] } }, { projects: { nlp: { members: [ALICE] } } }),
    });
    const id = h.state.procurement.create({
      requester: ALICE,
      project: "nlp",
      atMs: T0,
      draft: {
        model: "H100",
        count: 4,
        kind: "buy",
        why: "pretraining",
        tasks: [{ day: "2026-02-01", task: "pretrain" }],
        months: [
          { month: "2026-02", gpuHours: 600 },
          { month: "2026-03", gpuHours: 600 },
          { month: "2026-04", gpuHours: 600 },
        ],
        acceptance: "the eval suite at 62",
      },
    });
    h.state.procurement.decide(id, { state: "approved", actor: CAROL, atMs: T0 + HOUR_MS, reason: null });
    const deps = { config: h.config, clock: h.clock, metrics: h.metrics, procurement: h.state.procurement };
    assert.deepEqual(
      readTrackedPlans(deps).map((p) => [p.inFleetSinceMs, p.tracking.flagged]),
      [[null, false]],
      "not in the fleet yet: nothing compared",
    );
    busy(JAN_20, 1);
    busy(FEB_10, 4);
    h.clock.set(MAR_10);
    while (!h.metrics.rollup(MAR_10, 10, 10_000).complete) {}
    const february = readTrackedPlans(deps)[0]!;
    assert.equal(february.inFleetSinceMs, JAN_20);
    assert.deepEqual(february.gpus, ["gpu-new:0", "gpu-new:1", "gpu-new:2", "gpu-new:3"]);
    assert.deepEqual(
      february.tracking.months.map((m) => [
        m.month,
        m.plannedGpuHours,
        Math.round(m.actualGpuHours),
        m.short,
      ]),
      [["2026-02", 600, 16, true]],
    );
    assert.equal(february.tracking.flagged, false, "one short month is not yet a flag");
    assert.doesNotMatch(await summaryNow(), /Approved plans/);
    busy(MAR_10, 5);
    h.clock.set(APR_1);
    while (!h.metrics.rollup(APR_1, 10, 10_000).complete) {}
    const march = readTrackedPlans(deps)[0]!;
    assert.deepEqual(
      march.tracking.months.map((m) => [m.month, Math.round(m.actualGpuHours), m.short]),
      [
        ["2026-02", 16, true],
        ["2026-03", 20, true],
      ],
    );
    assert.equal(march.tracking.flagged, true);
    assert.match(
      await summaryNow(),
      /\*Approved plans below 50% of their GPU-hours for 2 months\*\n• #1 4 × H100 for nlp: 2026-02 16 of 600 GPU-hours, 2026-03 20 of 600 GPU-hours/,
    );
  });
});
