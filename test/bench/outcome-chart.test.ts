import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { describe, it } from "node:test";
import { Resvg } from "@resvg/resvg-js";
import { CHART_FONTS, outcomePng, outcomeSvg } from "../../bench/outcome/outcome-chart.ts";
import {
  type OutcomeSummary,
  policyTable,
  replaceBetween,
  targetLines,
} from "../../bench/outcome/outcome-table.ts";
import type { PolicyFigures } from "../../src/simulation/run-team-month.ts";

function figures(idle: number, total: number, falseStops: number): PolicyFigures {
  return {
    idle_cost: idle,
    total_cost: total,
    false_stops: falseStops,
    work_lost_gpu_hours: falseStops * 2,
    stop_delay_p50_min: 30,
    stop_delay_p90_min: 90,
    interruptions_per_person_week: 3,
    stops: 10,
    start_waits: 4,
    start_wait_min: 20,
    idle_host_hours: 100,
  };
}

const summary: OutcomeSummary = {
  policies: {
    none: figures(1000, 2000, 0),
    "gpu-warden": figures(150, 1100, 0),
    "gpu-warden-autostop": figures(100, 1000, 1),
    "autostop-5": figures(300, 1200, 9),
    "autostop-30": figures(350, 1300, 2),
    nightly: figures(200, 1150, 5),
  },
  sensitivity: {},
  days: 30,
  seed: 42,
  currency: "EUR",
};

describe("the outcome chart and tables", () => {
  it("draws the text with the DejaVu fonts it loads itself", () => {
    for (const font of CHART_FONTS) assert.ok(existsSync(font), font);
    const png = outcomePng(summary);
    assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47]);
    const blank = new Resvg(outcomeSvg(summary), { font: { loadSystemFonts: false, fontFiles: [] } })
      .render()
      .asPng();
    assert.ok(png.length > blank.length * 1.5, `${png.length} bytes with fonts, ${blank.length} without`);
    for (const name of Object.keys(summary.policies))
      assert.match(outcomeSvg(summary), new RegExp(`>${name}<`));
  });

  it("says which targets are met, and replaces only what lies between the markers", () => {
    assert.match(policyTable(summary), /\| `gpu-warden` \| 150 \| 85 % \|/);
    const lines = targetLines(summary);
    assert.match(lines[0]!, /85 % — met/);
    assert.match(
      lines[3]!,
      /fewer false stops than `autostop-5`: 0 vs 9 — met; less work lost: 0.0 vs 18.0 GPU-h — met/,
    );
    const text = "a\n<!-- outcome:start -->\nold\n<!-- outcome:end -->\nb";
    assert.equal(
      replaceBetween(text, "outcome", "new"),
      "a\n<!-- outcome:start -->\nnew\n<!-- outcome:end -->\nb",
    );
  });
});
