import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { trackPlan } from "../../src/checks/plan-tracking.ts";
import { checkProcurementForm, type ProcurementForm } from "../../src/checks/procurement-plan.ts";

const TODAY = "2026-01-05";
const FORM: ProcurementForm = {
  model: " H100 80GB ",
  count: "8",
  kind: "rent",
  why: "the 70B runs wait",
  tasks: "2026-03-15 evaluate\n\n2026-01-05 pretrain the 70B model",
  hours: "2026-01 100\n2026-02: 4000 h\n2026-03 4000.5",
  acceptance: "62 on the eval suite",
};

describe("checkProcurementForm: the red line before buying", () => {
  test("a complete request: trimmed, tasks sorted by day, today allowed, months summed", () => {
    assert.deepEqual(checkProcurementForm({ ...FORM, hours: `${FORM.hours}\n2026-03 0.5` }, TODAY), {
      ok: true,
      draft: {
        model: "H100 80GB",
        count: 8,
        kind: "rent",
        why: "the 70B runs wait",
        tasks: [
          { day: "2026-01-05", task: "pretrain the 70B model" },
          { day: "2026-03-15", task: "evaluate" },
        ],
        months: [
          { month: "2026-01", gpuHours: 100 },
          { month: "2026-02", gpuHours: 4000 },
          { month: "2026-03", gpuHours: 4001 },
        ],
        acceptance: "62 on the eval suite",
      },
    });
  });

  test("no tasks and no acceptance criteria is no plan, whatever the pre-filled hours say", () => {
    assert.deepEqual(checkProcurementForm({ ...FORM, tasks: null, acceptance: "  " }, TODAY), {
      ok: false,
      problems: { tasks: { kind: "no-plan", minMonths: 3 } },
    });
  });

  test("each problem under its field: past day, negative hours, a short plan, bad lines, what and why", () => {
    const problems = (form: Partial<ProcurementForm>) => {
      const checked = checkProcurementForm({ ...FORM, ...form }, TODAY);
      return checked.ok ? null : checked.problems;
    };
    assert.deepEqual(problems({ tasks: "2026-01-04 pretrain", hours: "2026-02 10\n2026-03 -1\n2026-04 5" }), {
      tasks: { kind: "past-day", day: "2026-01-04", today: TODAY },
      hours: { kind: "negative-hours", month: "2026-03", gpuHours: -1 },
    });
    assert.deepEqual(problems({ hours: "2026-02 10\n2026-03 10\n2026-03 5" }), {
      hours: { kind: "short-plan", minMonths: 3, months: 2 },
    });
    assert.deepEqual(problems({ hours: "2025-12 10\n2026-01 10\n2026-02 10\n2026-03 10" }), {
      hours: { kind: "past-month", month: "2025-12" },
    });
    assert.deepEqual(problems({ tasks: "soon: pretrain", hours: "Feb 300" }), {
      tasks: { kind: "bad-task-line", line: "soon: pretrain" },
      hours: { kind: "bad-hours-line", line: "Feb 300" },
    });
    assert.deepEqual(problems({ tasks: "2026-02-30 pretrain" }), {
      tasks: { kind: "bad-task-line", line: "2026-02-30 pretrain" },
    });
    assert.deepEqual(problems({ model: null, why: "", count: "0", kind: "lease", acceptance: null }), {
      model: { kind: "required" },
      why: { kind: "required" },
      count: { kind: "bad-count" },
      kind: { kind: "required" },
      acceptance: { kind: "required" },
    });
    assert.deepEqual(problems({ count: "2.5" }), { count: { kind: "bad-count" } });
  });
});

describe("trackPlan: planned against actual GPU-hours", () => {
  const planned = [
    { month: "2026-02", gpuHours: 600 },
    { month: "2026-03", gpuHours: 600 },
    { month: "2026-04", gpuHours: 400 },
  ];

  test("two consecutive months below half of the plan are flagged; half exactly is not short", () => {
    const short = trackPlan(
      planned,
      new Map([
        ["2026-02", 299],
        ["2026-03", 10],
      ]),
    );
    assert.deepEqual(
      short.months.map((m) => [m.month, m.short]),
      [
        ["2026-02", true],
        ["2026-03", true],
      ],
    );
    assert.equal(short.flagged, true);
    assert.equal(
      trackPlan(
        planned,
        new Map([
          ["2026-02", 300],
          ["2026-03", 10],
        ]),
      ).flagged,
      false,
    );
    assert.equal(trackPlan(planned, new Map([["2026-03", 10]])).flagged, false, "one month is not two");
    assert.equal(
      trackPlan(
        planned,
        new Map([
          ["2026-02", 10],
          ["2026-03", 500],
          ["2026-04", 10],
        ]),
      ).flagged,
      false,
      "the latest two are not both short",
    );
    assert.equal(
      trackPlan(
        planned,
        new Map([
          ["2026-02", 10],
          ["2026-04", 10],
        ]),
      ).flagged,
      false,
      "not consecutive",
    );
    assert.deepEqual(trackPlan(planned, new Map()), { months: [], flagged: false });
  });
});
