import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { clockTimer } from "../../src/jobs/clock-timer.ts";
import { cronSlots, latestCronSlot, localSlotKey } from "../../src/jobs/cron-slots.ts";
import { scheduleJobs } from "../../src/jobs/schedule-jobs.ts";
import { ManualClock, MINUTE_MS } from "../../src/shared/clock.ts";
import { silentLogger } from "../../src/shared/logger.ts";

const ZONE = "Europe/Berlin";
/** 09:00 in Berlin from 25 February to 8 April 2026: the clocks go forward on Sunday 29 March. */
const FROM = Date.UTC(2026, 1, 25);
const UPTO = Date.UTC(2026, 3, 8);
/** The 1st of March (a Sunday), every Monday, and the 1st of April (a Wednesday). */
const EXPECTED = [
  "2026-03-01T09:00",
  "2026-03-02T09:00",
  "2026-03-09T09:00",
  "2026-03-16T09:00",
  "2026-03-23T09:00",
  "2026-03-30T09:00",
  "2026-04-01T09:00",
  "2026-04-06T09:00",
];

describe("cron: day-of-month OR day-of-week, on the team zone's wall clock", () => {
  it("`0 9 1 * mon` is the 1st of the month and every Monday at 09:00, across the DST change", () => {
    const slots = cronSlots("0 9 1 * mon", ZONE)(FROM, UPTO);
    assert.deepEqual(
      slots.map((ms) => localSlotKey(ms, ZONE)),
      EXPECTED,
    );
    assert.equal(new Date(slots[4]!).toISOString(), "2026-03-23T08:00:00.000Z", "09:00 CET");
    assert.equal(new Date(slots[5]!).toISOString(), "2026-03-30T07:00:00.000Z", "09:00 CEST");
  });

  it("the latest slot is the same one the enumeration ends with", () => {
    const latest = latestCronSlot("0 9 1 * mon", ZONE);
    assert.equal(latest(FROM, Date.UTC(2026, 3, 1, 12)), Date.UTC(2026, 3, 1, 7));
    assert.equal(
      latest(FROM, Date.UTC(2026, 3, 1, 7)),
      Date.UTC(2026, 3, 1, 7),
      "a slot at the bound counts",
    );
    assert.equal(
      latest(Date.UTC(2026, 3, 1, 7), Date.UTC(2026, 3, 1, 12)),
      null,
      "nothing after it that day",
    );
  });

  it("a job on the injected clock fires at each of those slots and nowhere else", async () => {
    const clock = new ManualClock(FROM);
    const timer = clockTimer(clock, { checkEveryMs: 3_600_000 });
    const fired: string[] = [];
    const jobs = scheduleJobs(
      [
        {
          name: "standup",
          schedule: "0 9 1 * mon",
          timezone: ZONE,
          run: () => fired.push(localSlotKey(clock.now(), ZONE)),
        },
      ],
      silentLogger,
      undefined,
      timer,
    );
    while (clock.now() < UPTO) {
      clock.advance(MINUTE_MS);
      const before = fired.length;
      timer.check();
      if (fired.length > before) await new Promise((resolve) => setImmediate(resolve));
    }
    await jobs.stop();
    assert.deepEqual(fired, EXPECTED);
  });

  it("rejects seconds for a persisted job and an unknown zone", () => {
    assert.throws(() => cronSlots("0 0 9 1 * mon", ZONE), /whole minutes/);
    assert.throws(() => cronSlots("0 9 1 * mon", "Mars/Olympus"));
  });
});
