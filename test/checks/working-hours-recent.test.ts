import assert from "node:assert/strict";
import { test } from "node:test";
import { defaultCalendar, recentInputMinutes } from "../../src/checks/working-hours.ts";

const BERLIN = defaultCalendar("Europe/Berlin");
/** Local wall-clock time in Berlin (winter, UTC+1) on a day of February 2026 (the 2nd is a Monday). */
const at = (day: number, hour: number, minute = 0) => Date.UTC(2026, 1, day, hour - 1, minute);
const hoursBack = (atMs: number) => recentInputMinutes(BERLIN, 18, atMs) / 60;

test("recent input reaches back to the start of the last working day that has ended, or 18 h if longer", () => {
  // Saturday 11:41: back to Friday 09:00, so a notebook typed in on Friday at 17:40 is still recent.
  assert.equal(hoursBack(at(7, 11, 41)), 26 + 41 / 60);
  // Monday 10:00, before Monday's hours end: still back to Friday 09:00.
  assert.equal(hoursBack(at(9, 10)), 73);
  // Monday 19:00: Monday's hours have ended, so back to Monday 09:00 (10 h): 18 h is longer.
  assert.equal(hoursBack(at(9, 19)), 18);
  // Tuesday 12:00: back to Monday 09:00 (27 h); Monday 17:30's input, 18.5 h old, is still recent.
  assert.equal(hoursBack(at(10, 12)), 27);
});
