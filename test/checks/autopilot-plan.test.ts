import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  type AutopilotInput,
  type AutopilotPlan,
  keepOutlived,
  nextEmptySinceMs,
  planAutopilot,
} from "../../src/checks/autopilot-plan.ts";
import {
  defaultCalendar,
  mayStopSessionAt,
  nextSessionStopAt,
  nextWorkingStartAt,
} from "../../src/checks/working-hours.ts";
import { gpuProcess, MINUTE_MS, observed, reading, session } from "./builders.ts";

const HOUR_MS = 60 * MINUTE_MS;
/** Tuesday 2026-01-06 01:00 in Berlin. */
const NIGHT = Date.UTC(2026, 0, 6, 0, 0);
/** Tuesday 2026-01-06 14:00 in Berlin. */
const AFTERNOON = Date.UTC(2026, 0, 6, 13, 0);
const CALENDAR = { ...defaultCalendar("Europe/Berlin"), holidays: ["2026-01-07"] };

function input(nowMs: number, more: Partial<AutopilotInput> = {}): AutopilotInput {
  return {
    host: "gpu-a",
    nowMs,
    policy: { enabled: true, emptyMinutes: 30, staleHours: 18, warningMinutes: 30 },
    calendar: CALENDAR,
    episode: { status: "idle", idleSinceMs: nowMs - 40 * MINUTE_MS },
    alertId: 7,
    latest: observed("gpu-a", nowMs, [0, 0], []),
    emptySinceMs: nowMs - 30 * MINUTE_MS,
    claimants: [],
    claimedSinceMs: null,
    emptiedAtMs: null,
    reservedSoon: false,
    keptUntilMs: null,
    stopTried: false,
    plan: null,
    ...more,
  };
}

const notebook = (atMs: number, idleMinutes: number | null) =>
  observed("gpu-a", atMs, [0, 0], idleMinutes === null ? [] : [session("alice", idleMinutes)]);

function withKernel(atMs: number, idleMinutes: number | null) {
  const base = notebook(atMs, idleMinutes);
  return {
    ...base,
    gpus: [
      reading(0, 0, { memUsedMiB: 20_480, processes: [gpuProcess("alice", "python", 20_480)] }),
      reading(1, 0),
    ],
  };
}

describe("the team calendar", () => {
  test("the next working morning skips a holiday", () => {
    assert.equal(nextWorkingStartAt(CALENDAR, AFTERNOON), Date.UTC(2026, 0, 8, 8, 0), "past the holiday");
  });

  test("a session may be stopped in a working day's evening, not in the night before work nor on a day off", () => {
    const berlin = (day: number, hour: number) => Date.UTC(2026, 0, day, hour - 1, 0);
    const cases: Array<[number, boolean, string]> = [
      [berlin(5, 17), false, "Monday, working hours"],
      [berlin(5, 18), true, "Monday evening"],
      [berlin(5, 23), true, "Monday night, before midnight"],
      [berlin(6, 3), false, "Tuesday night, before working hours"],
      [berlin(7, 19), false, "a holiday"],
      [berlin(9, 20), true, "Friday evening"],
      [berlin(10, 19), false, "Saturday evening"],
      [berlin(11, 19), false, "Sunday evening"],
      [berlin(12, 6), false, "Monday morning"],
    ];
    for (const [atMs, expected, why] of cases) assert.equal(mayStopSessionAt(CALENDAR, atMs), expected, why);
    assert.equal(nextSessionStopAt(CALENDAR, berlin(10, 12)), berlin(12, 18), "Saturday: Monday evening");
    assert.equal(nextSessionStopAt(CALENDAR, berlin(6, 3)), berlin(6, 18), "the night: that evening");
    assert.equal(
      nextSessionStopAt(CALENDAR, berlin(7, 12)),
      berlin(8, 18),
      "a holiday: the next working day",
    );
    assert.equal(nextSessionStopAt(CALENDAR, berlin(9, 20)), berlin(9, 20));
  });
});

describe("planAutopilot", () => {
  test("an empty host is warned after empty_minutes and stopped warning_minutes later, at any hour", () => {
    assert.deepEqual(planAutopilot(input(NIGHT, { emptySinceMs: NIGHT - 29 * MINUTE_MS })), {
      kind: "none",
      hold: "not-yet",
    });
    const warned = planAutopilot(input(NIGHT));
    assert.equal(warned.kind, "warn");
    const plan = (warned as { plan: AutopilotPlan }).plan;
    assert.deepEqual(plan, {
      host: "gpu-a",
      alertId: 7,
      evidence: { class: "empty", emptySinceMs: NIGHT - 30 * MINUTE_MS },
      warnedAtMs: NIGHT,
      stopAtMs: NIGHT + 30 * MINUTE_MS,
    });
    assert.equal(planAutopilot(input(NIGHT + 29 * MINUTE_MS, { plan })).kind, "wait");
    assert.equal(planAutopilot(input(NIGHT + 30 * MINUTE_MS, { plan })).kind, "stop");
    assert.equal(planAutopilot(input(AFTERNOON, { plan: { ...plan, stopAtMs: AFTERNOON } })).kind, "stop");
  });

  test("a claim, a reservation within the hour, a Keep or no idle episode holds every class", () => {
    assert.deepEqual(planAutopilot(input(NIGHT, { claimants: ["U0BOB"] })), {
      kind: "none",
      hold: "claimed",
    });
    assert.deepEqual(planAutopilot(input(NIGHT, { reservedSoon: true })), { kind: "none", hold: "reserved" });
    assert.deepEqual(planAutopilot(input(NIGHT, { stopTried: true })), { kind: "none", hold: "stop-tried" });
    assert.deepEqual(planAutopilot(input(NIGHT, { keptUntilMs: NIGHT + HOUR_MS })), {
      kind: "none",
      hold: "kept",
    });
    for (const status of ["busy", "unknown", "protected", "suspect", "snoozed"] as const) {
      assert.deepEqual(planAutopilot(input(NIGHT, { episode: { status, idleSinceMs: null } })), {
        kind: "none",
        hold: "not-idle",
      });
    }
    const plan = (planAutopilot(input(NIGHT)) as { plan: AutopilotPlan }).plan;
    assert.deepEqual(planAutopilot(input(NIGHT + 10 * MINUTE_MS, { plan, keptUntilMs: NIGHT + HOUR_MS })), {
      kind: "cancel",
      plan,
      hold: "kept",
    });
    assert.deepEqual(planAutopilot(input(NIGHT, { plan, alertId: 8 })), {
      kind: "cancel",
      plan,
      hold: "no-alert",
    });
  });

  test("outside working hours a claim made before the host became empty no longer holds it; in them, or made since, it does", () => {
    const emptied = NIGHT - 40 * MINUTE_MS;
    const claimed = { claimants: ["U0BOB"], emptySinceMs: emptied, emptiedAtMs: emptied };
    const before = { ...claimed, claimedSinceMs: NIGHT - 3 * HOUR_MS };
    assert.equal(planAutopilot(input(NIGHT, before)).kind, "warn", "its run ended at night: warned");
    assert.deepEqual(
      planAutopilot(input(NIGHT, { ...before, emptiedAtMs: null })),
      { kind: "none", hold: "claimed" },
      "empty since the bot started (or the host booted): not seen emptying, the claim holds",
    );
    const confirmed = { ...claimed, claimedSinceMs: NIGHT - 10 * MINUTE_MS };
    assert.deepEqual(
      planAutopilot(input(NIGHT, confirmed)),
      { kind: "none", hold: "claimed" },
      "Still using it since",
    );
    const made = { ...claimed, claimedSinceMs: NIGHT - 40 * MINUTE_MS };
    assert.deepEqual(
      planAutopilot(input(NIGHT, made)),
      { kind: "none", hold: "claimed" },
      "claimed on the empty host",
    );
    const afternoon = {
      ...before,
      emptySinceMs: AFTERNOON - 40 * MINUTE_MS,
      emptiedAtMs: AFTERNOON - 40 * MINUTE_MS,
    };
    assert.deepEqual(
      planAutopilot(input(AFTERNOON, afternoon)),
      { kind: "none", hold: "claimed" },
      "at work",
    );
    const saturday = Date.UTC(2026, 0, 10, 13, 0);
    const weekend = {
      claimants: ["U0BOB"],
      emptySinceMs: saturday - HOUR_MS,
      emptiedAtMs: saturday - HOUR_MS,
      claimedSinceMs: saturday - 5 * HOUR_MS,
    };
    assert.equal(
      planAutopilot(input(saturday, weekend)).kind,
      "warn",
      "a Saturday afternoon is not working hours",
    );
    const plan = (planAutopilot(input(NIGHT, before)) as { plan: AutopilotPlan }).plan;
    const morning = Date.UTC(2026, 0, 6, 8, 0);
    assert.deepEqual(
      planAutopilot(input(morning, { ...before, plan })),
      { kind: "cancel", plan, hold: "claimed" },
      "working hours begin during the warning: the claim holds again",
    );
  });

  test("a Keep pressed before the host became empty ends after empty_minutes outside working hours; one pressed on the empty host does not", () => {
    const policy = { enabled: true, emptyMinutes: 30, staleHours: 18, warningMinutes: 30 };
    const emptySinceMs = NIGHT - 30 * MINUTE_MS;
    assert.equal(keepOutlived(NIGHT - 5 * HOUR_MS, emptySinceMs, policy, CALENDAR, NIGHT), true);
    assert.equal(
      keepOutlived(NIGHT - 5 * HOUR_MS, emptySinceMs + MINUTE_MS, policy, CALENDAR, NIGHT),
      false,
      "empty for 29 min",
    );
    assert.equal(
      keepOutlived(emptySinceMs + MINUTE_MS, emptySinceMs, policy, CALENDAR, NIGHT),
      false,
      "kept the empty host",
    );
    assert.equal(keepOutlived(NIGHT - 5 * HOUR_MS, null, policy, CALENDAR, NIGHT), false, "something on it");
    const afternoon = AFTERNOON - 30 * MINUTE_MS;
    assert.equal(
      keepOutlived(AFTERNOON - 5 * HOUR_MS, afternoon, policy, CALENDAR, AFTERNOON),
      false,
      "working hours",
    );
    assert.equal(
      keepOutlived(NIGHT - 5 * HOUR_MS, emptySinceMs, { ...policy, enabled: false }, CALENDAR, NIGHT),
      false,
    );
  });

  test("a GPU process or a login makes the host not empty; a notebook with recent input is never planned", () => {
    const latest = withKernel(NIGHT, 20);
    assert.equal(nextEmptySinceMs(NIGHT - HOUR_MS, latest), null);
    assert.equal(nextEmptySinceMs(null, notebook(NIGHT, 600)), null, "an idle login is still a login");
    assert.equal(nextEmptySinceMs(null, observed("gpu-a", NIGHT, [0], [])), NIGHT);
    const episode = { status: "idle" as const, idleSinceMs: NIGHT - 30 * HOUR_MS };
    assert.deepEqual(planAutopilot(input(NIGHT, { latest, emptySinceMs: null, episode })), {
      kind: "none",
      hold: "not-yet",
    });
  });

  test("a stale kernel is warned in the evening and stopped outside working hours, naming the process", () => {
    const episode = { status: "idle" as const, idleSinceMs: AFTERNOON - 19 * HOUR_MS };
    const latest = withKernel(AFTERNOON, 19 * 60);
    assert.deepEqual(planAutopilot(input(AFTERNOON, { latest, emptySinceMs: null, episode })), {
      kind: "none",
      hold: "not-yet",
    });
    const evening = Date.UTC(2026, 0, 6, 16, 30);
    const warned = planAutopilot(input(evening, { latest, emptySinceMs: null, episode }));
    assert.equal(warned.kind, "warn");
    const plan = (warned as { plan: AutopilotPlan }).plan;
    assert.equal(plan.stopAtMs, Date.UTC(2026, 0, 6, 17, 0));
    assert.deepEqual(plan.evidence, {
      class: "stale",
      idleSinceMs: AFTERNOON - 19 * HOUR_MS,
      holders: [{ user: "alice", name: "python", pid: 4242, gpus: [0], memMiB: 20_480 }],
      sessions: [{ user: "alice", line: "pts/0", idleMinutes: 19 * 60 }],
    });
    const later = evening + 20 * MINUTE_MS;
    assert.equal(planAutopilot(input(later, { latest, emptySinceMs: null, episode, plan })).kind, "wait");
    const off = Date.UTC(2026, 0, 6, 17, 0);
    assert.equal(planAutopilot(input(off, { latest, emptySinceMs: null, episode, plan })).kind, "stop");
    for (const [atMs, why] of [
      [NIGHT, "the night before a working day: warned that evening"],
      [NIGHT + 24 * HOUR_MS, "a holiday"],
      [Date.UTC(2026, 0, 10, 16, 40), "a Saturday evening"],
      [Date.UTC(2026, 0, 11, 10, 0), "a Sunday"],
    ] as const) {
      assert.deepEqual(
        planAutopilot(input(atMs, { latest, emptySinceMs: null, episode })),
        { kind: "none", hold: "not-yet" },
        why,
      );
    }
    const lateFriday = Date.UTC(2026, 0, 9, 22, 45);
    const warnedLate = planAutopilot(input(lateFriday, { latest, emptySinceMs: null, episode }));
    assert.equal(warnedLate.kind, "warn", "in a working day's evening: at once");
    const mondayEvening = Date.UTC(2026, 0, 12, 17, 0);
    const latePlan = (warnedLate as { plan: AutopilotPlan }).plan;
    assert.equal(latePlan.stopAtMs, mondayEvening, "due after midnight: not at the weekend");
    const due = { ...latePlan, stopAtMs: lateFriday + HOUR_MS };
    assert.equal(
      planAutopilot(input(lateFriday + HOUR_MS, { latest, emptySinceMs: null, episode, plan: due })).kind,
      "wait",
      "a plan due on the Saturday waits for Monday evening",
    );
    const touched = withKernel(off, 1);
    assert.deepEqual(planAutopilot(input(off, { latest: touched, emptySinceMs: null, episode, plan })), {
      kind: "cancel",
      plan,
      hold: "in-use",
    });
  });

  test("off: nothing planned, and a plan on record is dropped", () => {
    const off = { enabled: false, emptyMinutes: 30, staleHours: 18, warningMinutes: 30 };
    assert.deepEqual(planAutopilot(input(NIGHT, { policy: off })), { kind: "none", hold: "off" });
    const plan = (planAutopilot(input(NIGHT)) as { plan: AutopilotPlan }).plan;
    assert.deepEqual(planAutopilot(input(NIGHT, { policy: off, plan })), {
      kind: "cancel",
      plan,
      hold: "off",
    });
  });
});
