import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  addDays,
  addMonths,
  daysFromTo,
  isLocalDay,
  localDayBounds,
  localDayOf,
  monthDays,
  previousMonth,
} from "../../src/checks/local-day.ts";

const HOUR_MS = 3_600_000;

describe("local days", () => {
  it("accepts only real calendar dates written YYYY-MM-DD", () => {
    assert.equal(isLocalDay("2026-02-28"), true);
    assert.equal(isLocalDay("2028-02-29"), true);
    assert.equal(isLocalDay("2026-02-29"), false);
    assert.equal(isLocalDay("2026-13-01"), false);
    assert.equal(isLocalDay("2026-1-01"), false);
    assert.equal(isLocalDay("yesterday"), false);
  });

  it("runs from local midnight to local midnight: 23 h in spring, 25 h in autumn", () => {
    const zone = "Europe/Berlin";
    const hours = (day: string) => {
      const { startMs, endMs } = localDayBounds(day, zone);
      return (endMs - startMs) / HOUR_MS;
    };
    assert.deepEqual(localDayBounds("2026-03-29", zone), {
      startMs: Date.UTC(2026, 2, 28, 23),
      endMs: Date.UTC(2026, 2, 29, 22),
    });
    assert.equal(hours("2026-03-29"), 23);
    assert.equal(hours("2026-10-25"), 25);
    assert.equal(hours("2026-10-26"), 24);
    assert.equal(localDayOf(Date.UTC(2026, 9, 25, 22, 30), zone), "2026-10-25");
    assert.equal(localDayOf(Date.UTC(2026, 9, 25, 23, 0), zone), "2026-10-26");
    assert.deepEqual(localDayBounds("2026-01-05", "Asia/Kolkata"), {
      startMs: Date.UTC(2026, 0, 4, 18, 30),
      endMs: Date.UTC(2026, 0, 5, 18, 30),
    });
  });

  it("does calendar arithmetic on dates and months", () => {
    assert.equal(addDays("2026-12-31", 1), "2027-01-01");
    assert.equal(addDays("2026-03-01", -1), "2026-02-28");
    assert.deepEqual(daysFromTo("2026-02-27", "2026-03-01"), ["2026-02-27", "2026-02-28", "2026-03-01"]);
    assert.deepEqual(daysFromTo("2026-03-02", "2026-03-01"), []);
    assert.equal(addMonths("2026-12", 1), "2027-01");
    assert.equal(previousMonth("2026-01"), "2025-12");
    assert.deepEqual(monthDays("2028-02"), { first: "2028-02-01", last: "2028-02-29" });
  });
});
