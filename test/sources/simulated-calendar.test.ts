import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { LocalCalendar } from "../../src/sources/simulated-calendar.ts";

const dayNumber = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d) / 86_400_000;

describe("LocalCalendar", () => {
  it("finds local days and their first instant across DST changes", () => {
    const berlin = new LocalCalendar("Europe/Berlin");
    const spring = dayNumber(2026, 3, 29);
    assert.equal(new Date(berlin.startMs(spring)).toISOString(), "2026-03-28T23:00:00.000Z");
    assert.equal(new Date(berlin.startMs(spring + 1)).toISOString(), "2026-03-29T22:00:00.000Z");
    assert.equal(berlin.dayOf(Date.parse("2026-03-28T22:59:59.999Z")), spring - 1);
    assert.equal(berlin.dayOf(Date.parse("2026-03-28T23:00:00.000Z")), spring);
    assert.equal(berlin.dayOf(Date.parse("2026-03-29T21:59:59.999Z")), spring);
    const newYork = new LocalCalendar("America/New_York");
    const autumn = dayNumber(2026, 11, 1);
    assert.equal(new Date(newYork.startMs(autumn)).toISOString(), "2026-11-01T04:00:00.000Z");
    assert.equal(new Date(newYork.startMs(autumn + 1)).toISOString(), "2026-11-02T05:00:00.000Z");
    assert.equal(newYork.dayOf(Date.parse("2026-11-02T04:59:00.000Z")), autumn);
  });

  it("knows weekdays and weekends", () => {
    const utc = new LocalCalendar("UTC");
    assert.equal(utc.weekday(dayNumber(2026, 3, 2)), 1);
    assert.equal(utc.isWeekend(dayNumber(2026, 3, 7)), true);
    assert.equal(utc.isWeekend(dayNumber(2026, 3, 8)), true);
    assert.equal(utc.isWeekend(dayNumber(2026, 3, 9)), false);
    assert.equal(utc.weekday(dayNumber(1969, 12, 31)), 3);
  });

  it("refuses an unknown zone", () => {
    assert.throws(() => new LocalCalendar("Europe/Atlantis"), /unknown time zone "Europe\/Atlantis"/);
  });
});
