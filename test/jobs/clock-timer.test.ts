import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { clockTimer } from "../../src/jobs/clock-timer.ts";
import { latestCronSlot } from "../../src/jobs/cron-slots.ts";
import { scheduleJobs } from "../../src/jobs/schedule-jobs.ts";
import { DAY_MS, HOUR_MS, ManualClock, MINUTE_MS } from "../../src/shared/clock.ts";
import { silentLogger } from "../../src/shared/logger.ts";
import { createJobRunStore } from "../../src/store/job-run-store.ts";
import { openDatabase } from "../../src/store/open-database.ts";

/** Monday 2026-01-05 00:00 UTC. */
const T0 = Date.UTC(2026, 0, 5);

describe("clockTimer: jobs on an injected clock", () => {
  it("fires a cron job at each of its slots as the clock moves, and not between them", () => {
    const clock = new ManualClock(T0 + 30_000);
    const timer = clockTimer(clock, { checkEveryMs: 60_000 });
    const fired: number[] = [];
    const task = timer.schedule({ name: "claims", expression: "20 * * * * *", timezone: "UTC" }, () =>
      fired.push(clock.now()),
    );
    for (let i = 0; i < 12; i++) {
      clock.advance(10_000);
      timer.check();
    }
    void task.destroy();
    assert.deepEqual(
      fired.map((ms) => (ms - T0) / 1000),
      [80, 140],
      "at 00:01:20 and 00:02:20 (the first check after each slot)",
    );
  });

  it("fires a job once after a jump over many of its slots, like a bot catching up", () => {
    const clock = new ManualClock(T0);
    const timer = clockTimer(clock, { checkEveryMs: 60_000 });
    const counts = { poll: 0, retention: 0, monthly: 0 };
    const tasks = [
      timer.schedule({ name: "poll", expression: "0 */5 * * * *", timezone: "UTC" }, () => counts.poll++),
      timer.schedule(
        { name: "retention", expression: "0 17 3 * * *", timezone: "UTC" },
        () => counts.retention++,
      ),
      timer.schedule({ name: "monthly", expression: "0 9 1 * *", timezone: "UTC" }, () => counts.monthly++),
    ];
    clock.advance(14 * DAY_MS);
    timer.check();
    timer.check();
    for (const task of tasks) void task.destroy();
    assert.deepEqual(counts, { poll: 1, retention: 1, monthly: 0 });
  });

  it("reads slots on the wall clock of the job's time zone", () => {
    const latest = latestCronSlot("0 30 9 * * 1", "Europe/Berlin");
    assert.equal(
      latest(T0, T0 + DAY_MS),
      T0 + 8 * HOUR_MS + 30 * MINUTE_MS,
      "Monday 09:30 in Berlin is 08:30 UTC",
    );
    assert.equal(latest(T0 + 9 * HOUR_MS, T0 + 7 * DAY_MS), null, "no other Monday in the window");
  });

  it("holds fire while held and fires what fell due once on release", () => {
    const clock = new ManualClock(T0);
    const timer = clockTimer(clock, { checkEveryMs: 60_000 });
    let fired = 0;
    const task = timer.schedule({ name: "poll", expression: "0 * * * * *", timezone: "UTC" }, () => fired++);
    timer.hold();
    clock.advance(10 * MINUTE_MS);
    timer.check();
    assert.equal(fired, 0);
    timer.release();
    assert.equal(fired, 1);
    void task.destroy();
  });

  const dir = mkdtempSync(join(tmpdir(), "gw-clock-timer-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("runs a persisted job's slot when the clock passes it, through scheduleJobs", async () => {
    const clock = new ManualClock(T0);
    const timer = clockTimer(clock, { checkEveryMs: 60_000 });
    const db = openDatabase(join(dir, "jobs.db"));
    const ran: number[] = [];
    let done: () => void = () => {};
    const posted = new Promise<void>((resolve) => {
      done = resolve;
    });
    const jobs = scheduleJobs(
      [
        {
          name: "summary",
          schedule: "0 10 * * 1",
          timezone: "UTC",
          catchUp: "once",
          run: (slot) => {
            ran.push(slot.atMs);
            done();
          },
        },
      ],
      silentLogger,
      { store: createJobRunStore(db), clock },
      timer,
    );
    clock.set(T0 + 10 * HOUR_MS + 5_000);
    timer.check();
    await posted;
    await jobs.stop();
    db.close();
    assert.deepEqual(ran, [T0 + 10 * HOUR_MS]);
  });
});
