import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { DEFAULT_RECLAIM, type ReclaimInput, reclaimStep } from "../../src/checks/reclaim.ts";
import { doNotRenew } from "../../src/checks/renewal.ts";

const DAY = 86_400_000;
const NOW = Date.UTC(2027, 2, 1);
const GPUS = 8;
const windowOf = (meanPct: number, coverage = 1) => {
  const span = GPUS * 30 * 24 * 60;
  return { utilPctMinutes: meanPct * span * coverage, knownMinutes: span * coverage, spanMinutes: span };
};
const base: ReclaimInput = {
  host: "gpu-c",
  firstSeenMs: NOW - 60 * DAY,
  open: null,
  lastEndedAtMs: null,
  window: windowOf(8),
  days: [],
  nowMs: NOW,
};
const day = (dayStartMs: number, meanPct: number, coverage = 1) => {
  const span = GPUS * 24 * 60;
  return {
    dayStartMs,
    minutes: { utilPctMinutes: meanPct * span * coverage, knownMinutes: span * coverage, spanMinutes: span },
  };
};

describe("reclaim rule", () => {
  test("a 30-day mean below 15 % opens a case observed for 14 days", () => {
    assert.deepEqual(reclaimStep(base), { kind: "start", windowMeanPct: 8, observeUntilMs: NOW + 14 * DAY });
    assert.deepEqual(reclaimStep({ ...base, window: windowOf(15) }), { kind: "none", why: "in-use" });
  });

  test("no case for a new host, after a recent decision, or with too few readings", () => {
    assert.equal(reclaimStep({ ...base, firstSeenMs: NOW - 29 * DAY }).kind, "none");
    assert.deepEqual(reclaimStep({ ...base, lastEndedAtMs: NOW - 10 * DAY }), {
      kind: "none",
      why: "cooling-off",
    });
    assert.deepEqual(reclaimStep({ ...base, window: windowOf(2, 0.4) }), {
      kind: "none",
      why: "too-little-data",
    });
    assert.equal(reclaimStep({ ...base, window: windowOf(2, 0.5) }).kind, "start");
  });

  test("a day of sustained use clears a case; a mostly unknown day does not", () => {
    const open = { state: "pending" as const, startedAtMs: NOW - 5 * DAY, observeUntilMs: NOW + 9 * DAY };
    const quiet = [day(NOW - 4 * DAY, 3), day(NOW - 3 * DAY, 40, 0.2)];
    assert.deepEqual(reclaimStep({ ...base, open, days: quiet }), { kind: "none", why: "observing" });
    const busy = [...quiet, day(NOW - 2 * DAY, 15)];
    assert.deepEqual(reclaimStep({ ...base, open, days: busy }), {
      kind: "clear",
      dayStartMs: NOW - 2 * DAY,
      dayMeanPct: 15,
    });
    const before = [day(NOW - 6 * DAY, 90)];
    assert.equal(
      reclaimStep({ ...base, open, days: before }).kind,
      "none",
      "days before the case do not count",
    );
  });

  test("at the end of observation the case is due; then it waits for the warden", () => {
    const open = { state: "pending" as const, startedAtMs: NOW - 14 * DAY, observeUntilMs: NOW };
    assert.deepEqual(reclaimStep({ ...base, open }), { kind: "due" });
    assert.deepEqual(reclaimStep({ ...base, open: { ...open, state: "due" } }), {
      kind: "none",
      why: "awaiting-decision",
    });
    assert.equal(reclaimStep({ ...base, open, days: [day(NOW - DAY, 50)] }).kind, "clear");
  });

  test("policy thresholds are honoured", () => {
    const strict = { ...DEFAULT_RECLAIM, belowPct: 5 };
    assert.deepEqual(reclaimStep(base, strict), { kind: "none", why: "in-use" });
  });
});

describe("do-not-renew", () => {
  test("rented or cloud hosts under 20 % in both periods, lowest first", () => {
    const flags = doNotRenew([
      { host: "cloud-a", paidByTheHour: true, currentUtilPct: 12, previousUtilPct: 19.9 },
      { host: "cloud-b", paidByTheHour: true, currentUtilPct: 5, previousUtilPct: 8 },
      { host: "cloud-c", paidByTheHour: true, currentUtilPct: 12, previousUtilPct: 20 },
      { host: "cloud-d", paidByTheHour: true, currentUtilPct: 3, previousUtilPct: null },
      { host: "owned-e", paidByTheHour: false, currentUtilPct: 1, previousUtilPct: 1 },
    ]);
    assert.deepEqual(
      flags.map((f) => [f.host, f.currentUtilPct, f.previousUtilPct]),
      [
        ["cloud-b", 5, 8],
        ["cloud-a", 12, 19.9],
      ],
    );
  });
});
