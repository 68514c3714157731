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
import type { PolicyFigures } from "../../src/simulation/policy-figures.ts";

function figures(idle: number, total: number, falseStops: number): PolicyFigures {
  return {
    idle_cost: idle,
    idle_cost_saveable: idle * 0.8,
    total_cost: total,
    full_cost: total + falseStops * 10,
    false_stops: falseStops,
    victims: falseStops,
    victim_runs: falseStops,
    victim_notebooks: 0,
    work_lost_gpu_hours: falseStops * 2,
    work_lost_notebook_gpu_hours: 0,
    work_lost_cost: falseStops * 10,
    stop_delay_p50_min: 30,
    stop_delay_p90_min: 90,
    interruptions_per_person_week: 3,
    stops: 10,
    start_waits: 4,
    start_wait_min: 20,
    start_wait_cost: 20,
    idle_host_hours: 100,
  };
}

const summary: OutcomeSummary = {
  policies: {
    none: figures(1000, 2000, 0),
    "gpu-warden": figures(150, 1100, 0),
    "gpu-warden-autostop": figures(100, 1000, 1),
    "process-autostop-5": figures(300, 1200, 9),
    "skypilot-autostop-30": figures(350, 1300, 2),
    nightly: figures(200, 1150, 5),
    "nightly-smart": figures(250, 1150, 1),
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
    assert.match(
      policyTable(summary),
      /\| `gpu-warden` \| 150 \| 120 \| 85 % \| 1,100 \| 1,100 \| 0 \(0 \/ 0\) \|/,
    );
    const lines = targetLines(summary);
    assert.match(lines[0]!, /85 % — met/);
    assert.match(
      lines[2]!,
      /lowest full cost of all policies: 1,100, lowest `gpu-warden-autostop` 1,010 — \*\*not met\*\*/,
    );
    assert.match(lines[3]!, /no more than with `nightly-smart`: 20 vs 20 min — met/);
    const text = "a\n<!-- outcome:start -->\nold\n<!-- outcome:end -->\nb";
    assert.equal(
      replaceBetween(text, "outcome", "new"),
      "a\n<!-- outcome:start -->\nnew\n<!-- outcome:end -->\nb",
    );
  });
});
