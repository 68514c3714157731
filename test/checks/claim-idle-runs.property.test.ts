import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  advanceIdleRun,
  claimRunsIdleSinceMs,
  type GpuIdleRun,
  type UtilPoint,
} from "../../src/checks/claim-idle.ts";
import { MINUTE_MS, T0 } from "./builders.ts";
import { claimIdleSinceMs } from "./claim-idle-oracle.ts";

const utilArb = fc.oneof(
  { weight: 5, arbitrary: fc.constant(0) },
  { weight: 2, arbitrary: fc.constant(60) },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.constant(-1) },
);
/** A poll: minutes since the previous one (a gap when long), and each GPU's reading or none. */
const pollArb = fc.record({
  afterMin: fc.oneof(
    { weight: 6, arbitrary: fc.constant(1) },
    { weight: 1, arbitrary: fc.integer({ min: 2, max: 12 }) },
  ),
  utils: fc.tuple(fc.option(utilArb, { freq: 8 }), fc.option(utilArb, { freq: 8 })),
});

function pointsOf(
  polls: ReadonlyArray<{ afterMin: number; utils: ReadonlyArray<number | null | undefined> }>,
) {
  const points: UtilPoint[] = [];
  let atMs = T0;
  for (const poll of polls) {
    atMs += poll.afterMin * MINUTE_MS;
    poll.utils.forEach((utilPct, index) => {
      if (utilPct !== undefined) points.push({ index, atMs, utilPct });
    });
  }
  return { points, lastMs: atMs };
}

describe("a claim's idle stretch kept poll by poll", () => {
  it("says what reading the window's samples again says, for any window the stretch was kept from", () => {
    fc.assert(
      fc.property(
        fc.array(pollArb, { minLength: 1, maxLength: 80 }),
        fc.integer({ min: 0, max: 360 }),
        fc.integer({ min: 0, max: 2400 }),
        fc.integer({ min: 0, max: 15 }),
        fc.integer({ min: 1, max: 6 }),
        fc.constantFrom<number[] | null>(null, [0], [1], [0, 1]),
        (polls, keptFrom10s, windowAfter10s, nowAfterMin, gapMin, gpus) => {
          const { points, lastMs } = pointsOf(polls);
          const keptFromMs = T0 + keptFrom10s * 10_000;
          const rules = { idleUtilPct: 10, maxGapMs: gapMin * MINUTE_MS };
          const runs = new Map<number, GpuIdleRun>();
          for (const point of points.filter((p) => p.atMs >= keptFromMs)) {
            runs.set(point.index, advanceIdleRun(runs.get(point.index), point, rules));
          }
          const fromMs = keptFromMs + windowAfter10s * 10_000;
          const nowMs = Math.max(fromMs, lastMs + nowAfterMin * MINUTE_MS);
          const window = { fromMs, nowMs, ...rules };
          const inWindow = points.filter((p) => p.atMs >= fromMs);
          assert.equal(claimRunsIdleSinceMs(runs, gpus, window), claimIdleSinceMs(inWindow, gpus, window));
        },
      ),
      { numRuns: 3000 },
    );
  });
});
