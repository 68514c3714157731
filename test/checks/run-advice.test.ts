import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { DEFAULT_RUN_ADVICE, type RunHour, runAdvice } from "../../src/checks/run-advice.ts";

const H = 3_600_000;
const MONDAY = Date.UTC(2026, 10, 30);

/** `count` hours of one GPU from `fromHour` (hours after Monday 00:00 UTC) in one state. */
function hours(
  host: string,
  gpu: number,
  fromHour: number,
  count: number,
  state: "busy" | "idle" | "unknown",
  energyWh = 0,
): RunHour[] {
  return Array.from({ length: count }, (_, i) => ({
    host,
    gpu,
    hourMs: MONDAY + (fromHour + i) * H,
    busyMinutes: state === "busy" ? 50 : 0,
    idleMinutes: state === "idle" ? 60 : state === "busy" ? 10 : 0,
    unknownMinutes: state === "unknown" ? 60 : 0,
    energyWh,
  }));
}

/** Peak 08:00–22:00 UTC at 0.20 per kWh, valley otherwise at 0.08; gpu-a costs 2 per GPU-hour, gpu-b has no price. */
const prices = {
  gpuHourCost: (host: string) => (host === "gpu-a" ? 2 : null),
  energyPriceAt: (ms: number) => (isPeak(ms) ? 0.2 : 0.08),
  isPeak,
  valleyPrice: 0.08,
};

function isPeak(ms: number): boolean {
  const hour = new Date(ms).getUTCHours();
  return hour >= 8 && hour < 22;
}

describe("spot and valley advice from a known history", () => {
  test("the figures, recomputed by hand", () => {
    const history = [
      // gpu-a:0, a 3 h run from 10:00 that ended with the GPU idle: spot, and it started at peak.
      ...hours("gpu-a", 0, 9, 1, "idle"),
      ...hours("gpu-a", 0, 10, 3, "busy", 300),
      ...hours("gpu-a", 0, 13, 10, "idle"),
      // gpu-a:0, a 5 h run from 23:00 (valley): too long for spot, not at peak.
      ...hours("gpu-a", 0, 23, 5, "busy", 300),
      ...hours("gpu-a", 0, 28, 1, "idle"),
      // gpu-a:1 serves for 30 h: a serving run on the same host as the experiments.
      ...hours("gpu-a", 1, 0, 30, "busy", 250),
      // gpu-b:0, a 2 h run from 12:00 whose next hour is unknown (the host fell silent): not spot; peak.
      ...hours("gpu-b", 0, 12, 2, "busy", 400),
      ...hours("gpu-b", 0, 14, 1, "unknown"),
    ];
    const advice = runAdvice(history, prices, DEFAULT_RUN_ADVICE);

    // spot: 3 h × 2 = 6 of cost, 60 % of it saved.
    assert.deepEqual(
      advice.spot.map((s) => [s.run.host, s.run.gpu, s.run.hours, s.cost, s.saving]),
      [["gpu-a", 0, 3, 6, 3.6]],
    );
    assert.equal(advice.spotSaving, 3.6);

    // valley: gpu-a:0 3 × 0.3 kWh × (0.20 − 0.08) = 0.108; gpu-b:0 2 × 0.4 kWh × 0.12 = 0.096.
    assert.deepEqual(
      advice.valley.map((v) => [v.run.host, v.run.gpu, round(v.kWh), round(v.saving)]),
      [
        ["gpu-a", 0, 0.9, 0.108],
        ["gpu-b", 0, 0.8, 0.096],
      ],
    );
    assert.equal(round(advice.valleySaving), 0.204);
    assert.deepEqual(advice.mixedHosts, ["gpu-a"]);
  });

  test("the spot discount is configurable", () => {
    const history = [...hours("gpu-a", 0, 1, 2, "busy"), ...hours("gpu-a", 0, 3, 1, "idle")];
    const advice = runAdvice(history, prices, { ...DEFAULT_RUN_ADVICE, spotDiscountPct: 70 });
    assert.equal(round(advice.spotSaving), 2.8);
  });
});

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
