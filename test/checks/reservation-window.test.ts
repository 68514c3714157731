import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  claimReservationLimit,
  nextWindow,
  type Reservation,
  reservationsClash,
  reservedAt,
  windowsBetween,
} from "../../src/checks/reservation-window.ts";
import { HOUR_MS } from "../../src/shared/clock.ts";

const ZONE = "Europe/Berlin";
const base: Reservation = {
  id: 1,
  user: "U0ALICE",
  project: null,
  host: "gpu-a",
  gpus: [0, 1, 2, 3],
  day: null,
  weekdays: null,
  startMin: 9 * 60,
  endMin: 18 * 60,
  note: "",
};
const once = (day: string, extra: Partial<Reservation> = {}): Reservation => ({ ...base, day, ...extra });
const weekly = (weekdays: number[], extra: Partial<Reservation> = {}): Reservation => ({
  ...base,
  weekdays,
  ...extra,
});

describe("reservation windows in the team zone", () => {
  test("09:00-18:00 on the day the clocks go forward (29 Mar 2026, Berlin) is 09:00-18:00 CEST, 9 h", () => {
    const reservation = once("2026-03-29");
    const [window] = windowsBetween(reservation, Date.UTC(2026, 2, 28), Date.UTC(2026, 2, 31), ZONE);
    assert.equal(window?.fromMs, Date.UTC(2026, 2, 29, 7, 0));
    assert.equal(window?.untilMs, Date.UTC(2026, 2, 29, 16, 0));
  });

  test("a standing weekday window around the autumn change (Fri 23 Oct → Mon 26 Oct 2026) keeps 09:00 local", () => {
    const windows = windowsBetween(
      weekly([1, 2, 3, 4, 5]),
      Date.UTC(2026, 9, 23),
      Date.UTC(2026, 9, 27),
      ZONE,
    );
    assert.deepEqual(
      windows.map((w) => [new Date(w.fromMs).toISOString(), new Date(w.untilMs).toISOString()]),
      [
        ["2026-10-23T07:00:00.000Z", "2026-10-23T16:00:00.000Z"],
        ["2026-10-26T08:00:00.000Z", "2026-10-26T17:00:00.000Z"],
      ],
    );
  });

  test("a whole-day window on the 25-hour day runs from midnight to midnight (25 h)", () => {
    const [window] = windowsBetween(
      once("2026-10-25", { startMin: 0, endMin: 1440 }),
      Date.UTC(2026, 9, 24),
      Date.UTC(2026, 9, 27),
      ZONE,
    );
    assert.equal((window?.untilMs ?? 0) - (window?.fromMs ?? 0), 25 * HOUR_MS);
  });

  test("clashes: same GPUs and overlapping hours on a common day; other GPUs, hours or days do not", () => {
    const demo = once("2026-12-10");
    assert.equal(reservationsClash(demo, once("2026-12-10", { startMin: 17 * 60, endMin: 20 * 60 })), true);
    assert.equal(reservationsClash(demo, once("2026-12-10", { startMin: 18 * 60, endMin: 20 * 60 })), false);
    assert.equal(reservationsClash(demo, once("2026-12-10", { gpus: [4, 5] })), false);
    assert.equal(reservationsClash(demo, once("2026-12-10", { gpus: null })), true);
    assert.equal(reservationsClash(demo, once("2026-12-11")), false);
    // 10 Dec 2026 is a Thursday.
    assert.equal(reservationsClash(demo, weekly([4])), true);
    assert.equal(reservationsClash(demo, weekly([1, 2, 3, 5])), false);
    assert.equal(reservationsClash(weekly([1, 2, 3, 4, 5]), weekly([5, 6])), true);
  });

  test("reserved now, next window, and a claim cut before a window or refused inside one", () => {
    const demo = once("2026-12-10");
    const nineLocal = Date.UTC(2026, 11, 10, 8, 0);
    assert.equal(reservedAt([demo], { host: "gpu-a", gpus: [2] }, nineLocal, ZONE).length, 1);
    assert.equal(reservedAt([demo], { host: "gpu-a", gpus: [5] }, nineLocal, ZONE).length, 0);
    assert.equal(
      nextWindow([demo], { host: "gpu-a", gpus: null }, nineLocal - 3 * HOUR_MS, 7 * 24 * HOUR_MS, ZONE)
        ?.fromMs,
      nineLocal,
    );
    const others = () => false;
    assert.deepEqual(
      claimReservationLimit(
        [demo],
        [{ host: "gpu-a", gpus: [0] }],
        nineLocal - 3 * HOUR_MS,
        nineLocal + HOUR_MS,
        ZONE,
        others,
      ),
      { kind: "cut", untilMs: nineLocal, window: windowsBetween(demo, nineLocal, nineLocal + 1, ZONE)[0] },
    );
    assert.equal(
      claimReservationLimit(
        [demo],
        [{ host: "gpu-a", gpus: [0] }],
        nineLocal + HOUR_MS,
        nineLocal + 2 * HOUR_MS,
        ZONE,
        others,
      ).kind,
      "refused",
    );
    assert.deepEqual(
      claimReservationLimit(
        [demo],
        [{ host: "gpu-a", gpus: [0] }],
        nineLocal + HOUR_MS,
        nineLocal + 2 * HOUR_MS,
        ZONE,
        () => true,
      ),
      { kind: "free", untilMs: nineLocal + 2 * HOUR_MS },
    );
  });
});
