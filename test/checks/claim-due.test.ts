import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import {
  type ClaimRules,
  type ClaimTimes,
  claimDue,
  idleLookbackFromMs,
} from "../../src/checks/claim-due.ts";
import type { UtilPoint } from "../../src/checks/claim-idle.ts";
import { claimIdleSinceMs, gpuIdleSinceMs } from "./claim-idle-oracle.ts";

const MIN = 60_000;
const T0 = Date.UTC(2026, 0, 5, 9, 0);
const at = (minutes: number) => T0 + minutes * MIN;
const window = (fromMinute: number, nowMinute: number) => ({
  fromMs: at(fromMinute),
  nowMs: at(nowMinute),
  idleUtilPct: 10,
  maxGapMs: 3 * MIN,
});
/** One point a minute for GPU `index` from `from` to `to` (inclusive), utilisation from `util(minute)`. */
function points(
  index: number,
  from: number,
  to: number,
  util: (minute: number) => number | null,
): UtilPoint[] {
  const list: UtilPoint[] = [];
  for (let minute = from; minute <= to; minute++)
    list.push({ index, atMs: at(minute), utilPct: util(minute) });
  return list;
}

describe("claimed but idle: how long a claim's GPUs have been idle", () => {
  test("a stretch reaching back to the window's start counts from the start", () => {
    assert.equal(
      gpuIdleSinceMs(
        points(0, 0, 120, () => 0),
        window(0, 120),
      ),
      at(0),
    );
  });

  test("a busy sample, no reading, a gap or a stale last sample: idle only after it, or not at all", () => {
    assert.equal(
      gpuIdleSinceMs(
        points(0, 0, 120, (m) => (m === 50 ? 40 : 3)),
        window(0, 120),
      ),
      at(51),
    );
    assert.equal(
      gpuIdleSinceMs(
        points(0, 0, 120, (m) => (m === 70 ? null : 3)),
        window(0, 120),
      ),
      at(71),
    );
    const gap = [...points(0, 0, 30, () => 0), ...points(0, 40, 120, () => 0)];
    assert.equal(gpuIdleSinceMs(gap, window(0, 120)), at(40));
    assert.equal(
      gpuIdleSinceMs(
        points(0, 0, 100, () => 0),
        window(0, 120),
      ),
      null,
    );
    assert.equal(
      gpuIdleSinceMs(
        points(0, 0, 120, (m) => (m === 120 ? 10 : 0)),
        window(0, 120),
      ),
      null,
    );
    assert.equal(
      gpuIdleSinceMs(
        points(0, 0, 120, (m) => (m === 120 ? 101 : 0)),
        window(0, 120),
      ),
      null,
    );
  });

  test("a claim is idle since the last of its GPUs went idle; whole-host claims take every GPU", () => {
    const samples = [
      ...points(0, 0, 120, () => 0),
      ...points(1, 0, 120, (m) => (m < 30 ? 90 : 0)),
      ...points(2, 0, 120, () => 95),
    ];
    assert.equal(claimIdleSinceMs(samples, [0], window(0, 120)), at(0));
    assert.equal(claimIdleSinceMs(samples, [0, 1], window(0, 120)), at(30));
    assert.equal(claimIdleSinceMs(samples, null, window(0, 120)), null);
    assert.equal(claimIdleSinceMs(samples, [3], window(0, 120)), null, "no samples: unknown");
  });

  test("property: unknown is never idle — a null last reading never gives an idle stretch", () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.integer({ min: 0, max: 100 })), { minLength: 1, maxLength: 60 }),
        (utils) => {
          const list = utils.map((utilPct, i) => ({ index: 0, atMs: at(i), utilPct }));
          list.push({ index: 0, atMs: at(utils.length), utilPct: null });
          assert.equal(gpuIdleSinceMs(list, window(0, utils.length)), null);
        },
      ),
    );
  });
});

describe("what a claim needs from the minute job", () => {
  const rules: ClaimRules = {
    defaultMs: 480 * MIN,
    maxMs: 3 * 1440 * MIN,
    reminderMs: 60 * MIN,
    nudgeMs: 120 * MIN,
    releaseMs: 240 * MIN,
  };
  const claim = (more: Partial<ClaimTimes> = {}): ClaimTimes => ({
    fromMs: at(0),
    untilMs: at(480),
    remindedAtMs: null,
    nudgedAtMs: null,
    stillUsingAtMs: null,
    ...more,
  });

  test("the reminder an hour before the end, once; none for claims shorter than that", () => {
    assert.deepEqual(claimDue(claim(), null, rules, at(419)).due, []);
    assert.deepEqual(claimDue(claim(), null, rules, at(420)).due, ["remind"]);
    assert.deepEqual(claimDue(claim({ remindedAtMs: at(420) }), null, rules, at(421)).due, []);
    assert.deepEqual(claimDue(claim({ untilMs: at(30) }), null, rules, at(10)).due, []);
    assert.deepEqual(claimDue(claim(), null, rules, at(480)).due, ["expire"]);
  });

  test("idle 2 h: nudge once per stretch; 4 h: release; never counted from before the claim or 'still using it'", () => {
    assert.deepEqual(claimDue(claim(), at(0), rules, at(119)).due, []);
    assert.deepEqual(claimDue(claim(), at(0), rules, at(120)), { due: ["nudge"], idleFromMs: at(0) });
    assert.deepEqual(claimDue(claim({ nudgedAtMs: at(120) }), at(0), rules, at(180)).due, []);
    assert.deepEqual(claimDue(claim({ nudgedAtMs: at(120) }), at(150), rules, at(270)).due, ["nudge"]);
    assert.deepEqual(claimDue(claim({ nudgedAtMs: at(120) }), at(0), rules, at(240)).due, ["auto-release"]);
    assert.deepEqual(
      claimDue(claim(), at(-600), rules, at(100)).due,
      [],
      "idle before the claim does not count",
    );
    const still = claim({ nudgedAtMs: at(120), stillUsingAtMs: at(130) });
    assert.deepEqual(claimDue(still, at(0), rules, at(249)).due, []);
    assert.deepEqual(claimDue(still, at(0), rules, at(250)).due, ["nudge"]);
    assert.deepEqual(claimDue(claim(), at(0), { ...rules, releaseMs: null }, at(470)).due, [
      "nudge",
      "remind",
    ]);
  });

  test("samples are read only for claims old enough to matter, and no further back than needed", () => {
    assert.equal(idleLookbackFromMs(claim(), rules, at(119)), null);
    assert.equal(idleLookbackFromMs(claim(), rules, at(120)), at(0));
    assert.equal(idleLookbackFromMs(claim(), rules, at(400)), at(160));
    assert.equal(idleLookbackFromMs(claim({ stillUsingAtMs: at(300) }), rules, at(400)), null);
  });
});
