import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { nextWorkingStartAt, type TeamCalendar } from "../../src/checks/working-hours.ts";
import { localParts } from "../../src/shared/time.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const ZONES = [
  "Europe/Berlin",
  "America/St_Johns",
  "Australia/Lord_Howe",
  "Asia/Kathmandu",
  "Pacific/Chatham",
];

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** What Intl says of an instant in `zone`: the fields as one string, and the offset from UTC. */
function intlOf(zone: string): (ms: number) => { text: string; offsetMs: number } {
  const format = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    year: "numeric",
    month: "short",
    day: "numeric",
    weekday: "short",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  });
  return (ms) => {
    const p = Object.fromEntries(format.formatToParts(ms).map((part) => [part.type, part.value]));
    const [year, day, hour, minute] = [p.year, p.day, p.hour, p.minute].map(Number) as number[];
    const wallMs = Date.UTC(year!, MONTHS.indexOf(p.month!), day, hour, minute);
    return {
      text: `${year} ${p.month} ${day} ${p.weekday} ${hour}:${minute}`,
      offsetMs: wallMs - Math.floor(ms / MINUTE) * MINUTE,
    };
  };
}

function shown(ms: number, zone: string): string {
  const at = localParts(ms, zone);
  assert.equal(
    at.monthName,
    ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][at.month - 1],
  );
  return `${at.year} ${at.monthName} ${at.day} ${at.weekday} ${at.hour}:${at.minute}`;
}

/** The UTC hours of 2026 whose minutes do not all have the offset of the minute before the hour. */
function transitionHours(intl: ReturnType<typeof intlOf>): number[] {
  const hours: number[] = [];
  for (let ms = Date.UTC(2026, 0, 1); ms < Date.UTC(2027, 0, 1); ms += HOUR) {
    if (intl(ms - MINUTE).offsetMs !== intl(ms + HOUR - MINUTE).offsetMs) hours.push(ms);
  }
  return hours;
}

describe("localParts", () => {
  test("says what Intl says, minute by minute across each 2026 offset change and hourly through the year", () => {
    for (const zone of ZONES) {
      const intl = intlOf(zone);
      const changes = transitionHours(intl);
      assert.equal(changes.length, zone === "Asia/Kathmandu" ? 0 : 2, zone);
      for (const hourMs of changes) {
        for (let ms = hourMs - 2 * HOUR; ms < hourMs + 3 * HOUR; ms += MINUTE + 7_000) {
          assert.equal(shown(ms, zone), intl(ms).text, `${zone} ${new Date(ms).toISOString()}`);
        }
      }
      for (
        let ms = Date.UTC(2026, 0, 1, 0, 17, 31);
        ms < Date.UTC(2027, 0, 1);
        ms += 7 * HOUR + 13 * MINUTE
      ) {
        assert.equal(shown(ms, zone), intl(ms).text, `${zone} ${new Date(ms).toISOString()}`);
      }
    }
  });
});

describe("nextWorkingStartAt", () => {
  test("answers each minute of a week the same as a calendar asked once", () => {
    const make = (): TeamCalendar => ({
      timezone: "Europe/Berlin",
      workingDays: [1, 2, 3, 4, 5],
      fromMinute: 9 * 60,
      toMinute: 18 * 60,
      holidays: ["2026-03-27"],
    });
    const kept = make();
    for (let ms = Date.UTC(2026, 2, 23); ms < Date.UTC(2026, 3, 1); ms += 13 * MINUTE) {
      assert.equal(nextWorkingStartAt(kept, ms), nextWorkingStartAt(make(), ms), new Date(ms).toISOString());
    }
    assert.equal(nextWorkingStartAt(kept, Date.UTC(2026, 2, 26, 9)), Date.UTC(2026, 2, 30, 7));
  });
});
