import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { recentInputOf } from "../../src/checks/recent-input.ts";
import { startAheadSpan, usedEveryRecentDay } from "../../src/checks/start-ahead.ts";
import { defaultCalendar } from "../../src/checks/working-hours.ts";
import type { GpuHourRollup } from "../../src/domain/metrics.ts";
import { gpuProcess, MINUTE_MS, observed, reading, session } from "./builders.ts";

const CALENDAR = defaultCalendar("Europe/Berlin");
/** Tuesday 6 January 2026, 08:30 and 08:29 in Berlin; Monday 5 is the last working day before it. */
const TUE_0830 = Date.UTC(2026, 0, 6, 7, 30);
const HOUR_11 = (day: number) => Date.UTC(2026, 0, day, 10, 0);

function busyHour(hourMs: number, busyMinutes = 5): GpuHourRollup {
  return {
    host: "gpu-a",
    index: 0,
    uuid: null,
    hourMs,
    utilMeanPct: 10,
    utilMaxPct: 97,
    busyMinutes,
    idleMinutes: 60 - busyMinutes,
    unknownMinutes: 0,
    memMeanMiB: null,
    memMaxMiB: null,
    energyWh: null,
  };
}

describe("the start-ahead check", () => {
  test("it is due within the minutes before working hours on a working day, not before nor after they begin", () => {
    assert.deepEqual(startAheadSpan(CALENDAR, TUE_0830, 30), {
      fromMs: Date.UTC(2026, 0, 6, 8, 0),
      toMs: Date.UTC(2026, 0, 6, 17, 0),
    });
    assert.equal(startAheadSpan(CALENDAR, TUE_0830 - MINUTE_MS, 30), null);
    assert.equal(startAheadSpan(CALENDAR, Date.UTC(2026, 0, 6, 8, 0), 30), null, "they have begun");
    assert.equal(startAheadSpan(CALENDAR, Date.UTC(2026, 0, 10, 7, 30), 30), null, "Saturday");
  });

  test("a host is usual when it was busy in working hours on each of the last working days, the weekend skipped", () => {
    const span = startAheadSpan(CALENDAR, TUE_0830, 30)!;
    const everyDay = [busyHour(HOUR_11(1)), busyHour(HOUR_11(2)), busyHour(HOUR_11(5))];
    assert.equal(usedEveryRecentDay(CALENDAR, span, everyDay, 3), true);
    assert.equal(usedEveryRecentDay(CALENDAR, span, everyDay.slice(1), 3), false, "Thursday missing");
    assert.equal(usedEveryRecentDay(CALENDAR, span, everyDay.slice(1), 2), true);
    const idleMonday = [busyHour(HOUR_11(1)), busyHour(HOUR_11(2)), busyHour(HOUR_11(5), 0)];
    assert.equal(
      usedEveryRecentDay(CALENDAR, span, idleMonday, 3),
      false,
      "an hour with readings but no busy minute",
    );
    const atNight = [busyHour(HOUR_11(1)), busyHour(HOUR_11(2)), busyHour(Date.UTC(2026, 0, 5, 20, 0))];
    assert.equal(usedEveryRecentDay(CALENDAR, span, atNight, 3), false, "busy only after working hours");
  });
});

describe("recent input on a host", () => {
  test("people who typed within the window, most recent first, with what they hold; older or unknown input left out", () => {
    const observation = observed(
      "gpu-a",
      0,
      [0, 0],
      [session("bob", 14 * 60), session("alice", 30), session("carol", 20 * 60), session("dave", null)],
    );
    observation.gpus[0] = reading(0, 0, {
      memUsedMiB: 20_480,
      processes: [gpuProcess("bob", "python", 20_480)],
    });
    assert.deepEqual(recentInputOf(observation, 18 * 60), [
      { user: "alice", idleMinutes: 30, processes: [], memMiB: 0 },
      { user: "bob", idleMinutes: 14 * 60, processes: ["python"], memMiB: 20_480 },
    ]);
    assert.deepEqual(recentInputOf(observed("gpu-a", 0, [0], null), 18 * 60), [], "no sessions seen");
  });
});
