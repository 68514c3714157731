import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  type Cadence,
  firstSlotDate,
  slotAt,
  slotAtOrBefore,
  slotsBetween,
} from "../../src/checks/cadence.ts";

const berlin: Cadence = {
  weekday: 1,
  time: "10:00",
  startDate: "2027-01-01",
  timezone: "Europe/Berlin",
  everyDays: 14,
};
const iso = (ms: number) => new Date(ms).toISOString();

describe("biweekly cadence", () => {
  test("anchors to the first configured weekday on or after the start date", () => {
    assert.equal(firstSlotDate({ weekday: 1, startDate: "2027-01-01" }), "2027-01-04");
    assert.equal(firstSlotDate({ weekday: 5, startDate: "2027-01-01" }), "2027-01-01");
    assert.equal(firstSlotDate({ weekday: 7, startDate: "2027-01-04" }), "2027-01-10");
  });

  test("every other Monday at 10:00 Berlin time, through both DST changes", () => {
    const slots = [0, 1, 2, 3, 4, 5, 6, 7, 20, 21, 22].map((i) => iso(slotAt(berlin, i).atMs));
    assert.deepEqual(slots, [
      "2027-01-04T09:00:00.000Z",
      "2027-01-18T09:00:00.000Z",
      "2027-02-01T09:00:00.000Z",
      "2027-02-15T09:00:00.000Z",
      "2027-03-01T09:00:00.000Z",
      "2027-03-15T09:00:00.000Z",
      // 2027-03-28: clocks go forward; the slot stays at 10:00 local (CEST, UTC+2)
      "2027-03-29T08:00:00.000Z",
      "2027-04-12T08:00:00.000Z",
      "2027-10-11T08:00:00.000Z",
      "2027-10-25T08:00:00.000Z",
      // 2027-10-31: clocks go back; 10:00 local is 09:00 UTC again
      "2027-11-08T09:00:00.000Z",
    ]);
    const acrossSpring = slotAt(berlin, 6);
    assert.equal(acrossSpring.atMs - acrossSpring.periodFromMs, 14 * 86_400_000 - 3_600_000);
    const acrossAutumn = slotAt(berlin, 22);
    assert.equal(acrossAutumn.atMs - acrossAutumn.periodFromMs, 14 * 86_400_000 + 3_600_000);
  });

  test("the latest slot at or before an instant; none before the first", () => {
    assert.equal(slotAtOrBefore(berlin, Date.parse("2027-01-04T08:59:59Z")), null);
    assert.equal(slotAtOrBefore(berlin, Date.parse("2027-01-04T09:00:00Z"))?.index, 0);
    assert.equal(slotAtOrBefore(berlin, Date.parse("2027-01-17T23:00:00Z"))?.index, 0);
    const beforeTen = slotAtOrBefore(berlin, Date.parse("2027-03-29T07:59:00Z"));
    assert.equal(beforeTen?.index, 5);
    assert.equal(slotAtOrBefore(berlin, Date.parse("2027-03-29T08:00:00Z"))?.index, 6);
  });

  test("the slots in (after, upto], for the job runner", () => {
    const after = Date.parse("2027-01-04T09:00:00Z");
    const upto = Date.parse("2027-02-15T09:00:00Z");
    assert.deepEqual(slotsBetween(berlin, after, upto).map(iso), [
      "2027-01-18T09:00:00.000Z",
      "2027-02-01T09:00:00.000Z",
      "2027-02-15T09:00:00.000Z",
    ]);
    assert.deepEqual(slotsBetween(berlin, upto, upto + 13 * 86_400_000), []);
    assert.deepEqual(slotsBetween(berlin, 0, Date.parse("2027-01-01T00:00:00Z")), []);
  });

  test("a slot at a time that does not exist on the spring-forward day moves forward", () => {
    const sunday: Cadence = { ...berlin, weekday: 7, time: "02:30", startDate: "2027-03-28" };
    assert.equal(iso(slotAt(sunday, 0).atMs), "2027-03-28T01:30:00.000Z");
    assert.equal(iso(slotAt(sunday, 1).atMs), "2027-04-11T00:30:00.000Z");
  });
});
