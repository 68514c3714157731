import assert from "node:assert/strict";
import { test } from "node:test";
import type { Reservation } from "../../src/checks/reservation-window.ts";
import { configSchema } from "../../src/config/schema.ts";
import { configReservations, mayUseReservation } from "../../src/usecases/queue/reservations.ts";

const reservation: Reservation = {
  id: 1,
  user: "U0ALICE",
  project: "vision",
  host: "gpu-a",
  gpus: null,
  day: "2026-12-10",
  weekdays: null,
  startMin: 540,
  endMin: 1080,
  note: "",
};

test("during a window the holder and the members of its project may claim; without projects, the holder only", () => {
  const withProjects = { projects: { vision: { members: ["U0BOB"], priority: 0, preempt: false } } };
  assert.equal(mayUseReservation(withProjects, "U0ALICE", reservation), true);
  assert.equal(mayUseReservation(withProjects, "U0BOB", reservation), true);
  assert.equal(mayUseReservation(withProjects, "U0EVE", reservation), false);
  assert.equal(mayUseReservation({ projects: {} }, "U0BOB", reservation), false);
});

test("config reservations: every weekday / weekends / named days, hours in minutes, negative ids", () => {
  const entry = { user: "U0ALICE", project: null, note: "", from: "09:00", to: "24:00" };
  assert.deepEqual(
    configReservations({
      reservations: [
        { ...entry, gpus: "gpu-a:0-1", every: "weekdays" },
        { ...entry, gpus: "gpu-b", every: "sat,sun" },
      ],
    }).map((r) => [r.id, r.host, r.gpus, r.weekdays, r.startMin, r.endMin]),
    [
      [-1, "gpu-a", [0, 1], [1, 2, 3, 4, 5], 540, 1440],
      [-2, "gpu-b", null, [6, 7], 540, 1440],
    ],
  );
});

test("the config refuses a reservation ending before it starts, or naming GPU 256", () => {
  const entry = { user: "U0ALICE", gpus: "gpu-a:0-3", every: "weekdays", from: "09:00", to: "18:00" };
  const problems = (extra: Record<string, string>) => {
    const result = configSchema.safeParse({ reservations: [{ ...entry, ...extra }] });
    return result.success ? [] : result.error.issues.map((issue) => [issue.path.join("."), issue.message]);
  };
  assert.deepEqual(problems({}), []);
  assert.deepEqual(problems({ from: "18:00", to: "09:00" }), [
    ["reservations.0.to", "to must be after from"],
  ]);
  assert.deepEqual(problems({ gpus: "gpu-a:0-256" }), [["reservations.0.gpus", "GPU indexes from 0 to 255"]]);
  assert.deepEqual(problems({ every: "someday" }), [
    ["reservations.0.every", "weekdays, daily, weekends or days such as mon,wed,fri"],
  ]);
});
