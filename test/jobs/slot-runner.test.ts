import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { Database } from "better-sqlite3";
import { cronSlots } from "../../src/jobs/cron-slots.ts";
import { createSlotRunner, type JobSlot, type PersistedJob } from "../../src/jobs/slot-runner.ts";
import { DAY_MS, HOUR_MS, ManualClock, MINUTE_MS } from "../../src/shared/clock.ts";
import { silentLogger } from "../../src/shared/logger.ts";
import { createBotStateStore } from "../../src/store/bot-state-store.ts";
import { createJobRunStore } from "../../src/store/job-run-store.ts";
import { openDatabase } from "../../src/store/open-database.ts";

const dir = mkdtempSync(join(tmpdir(), "gw-slots-"));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/** A fresh SQLite file; `restart()` opens a new connection and runner over it, as a new process would. */
function rig(job: Omit<PersistedJob, "run">, startMs: number) {
  const path = join(dir, `jobs-${files++}.db`);
  const clock = new ManualClock(startMs);
  const runs: JobSlot[] = [];
  let db: Database = openDatabase(path);
  let failNext = 0;
  const make = () =>
    createSlotRunner({
      jobs: [
        {
          ...job,
          run: (slot) => {
            if (failNext > 0) {
              failNext--;
              throw new Error("Slack is down");
            }
            slot.commit(() => {
              createBotStateStore(db).outbox.enqueue(
                {
                  method: "chat.postMessage",
                  args: { text: `slot ${slot.atMs}${slot.late ? " (late)" : ""}` },
                },
                clock.now(),
              );
            });
            runs.push(slot);
          },
        },
      ],
      store: createJobRunStore(db),
      clock,
      logger: silentLogger,
    });
  let runner = make();
  return {
    clock,
    runs,
    tick: () => runner.tick(),
    restart() {
      db.close();
      db = openDatabase(path);
      runner = make();
    },
    failNext(n: number) {
      failNext = n;
    },
    posted: () =>
      (db.prepare("SELECT args FROM outbox ORDER BY id").pluck().all() as string[]).map(
        (args) => (JSON.parse(args) as { text: string }).text,
      ),
    close: () => db.close(),
  };
}

/** Monday 2026-03-16 10:00 in Berlin (CET, UTC+1). */
const MON_1000 = Date.UTC(2026, 2, 16, 9, 0);

describe("persisted jobs: exactly once per slot", () => {
  it("runs a slot once, never again after a restart, and at 10:00 local across the DST change", async () => {
    const r = rig(
      { name: "weekly", schedule: "0 10 * * 1", timezone: "Europe/Berlin", catchUp: "once" },
      MON_1000,
    );
    r.clock.advance(30_000);
    await r.tick();
    await r.tick();
    r.restart();
    await r.tick();
    assert.deepEqual(
      r.runs.map((s) => [s.atMs, s.late, s.skipped]),
      [[MON_1000, false, 0]],
    );
    // A week later: Monday 2026-03-23 10:00 CET; then 2026-03-30 10:00 CEST = 08:00 UTC.
    for (let t = MON_1000; t < MON_1000 + 15 * DAY_MS; t += 30 * MINUTE_MS) {
      r.clock.set(t);
      await r.tick();
    }
    assert.deepEqual(
      r.runs.map((s) => new Date(s.atMs).toISOString()),
      ["2026-03-16T09:00:00.000Z", "2026-03-23T09:00:00.000Z", "2026-03-30T08:00:00.000Z"],
    );
    assert.ok(r.runs.every((s) => !s.late));
    assert.equal(r.posted().length, 3);
    r.close();
  });

  it("after three days down, posts the missed slot once, marked late; older ones are folded in", async () => {
    const r = rig(
      {
        name: "weekly",
        schedule: "0 10 * * 1",
        timezone: "Europe/Berlin",
        catchUp: "once",
        catchUpWithinMs: 14 * DAY_MS,
      },
      MON_1000,
    );
    await r.tick();
    // Down from Sunday to Thursday: Monday 23 March 10:00 passes unseen.
    r.clock.set(Date.UTC(2026, 2, 26, 12, 0));
    r.restart();
    await r.tick();
    r.restart();
    await r.tick();
    assert.deepEqual(r.posted(), [`slot ${MON_1000}`, `slot ${MON_1000 + 7 * DAY_MS} (late)`]);
    // Down for 16 days: two Mondays missed; only the latest runs, late, with one skipped.
    r.clock.set(Date.UTC(2026, 3, 11, 12, 0));
    r.restart();
    await r.tick();
    assert.deepEqual(
      r.runs.slice(2).map((s) => [new Date(s.atMs).toISOString(), s.late, s.skipped]),
      [["2026-04-06T08:00:00.000Z", true, 1]],
    );
    r.close();
  });

  it("a slot missed while the job was never run since its first start is still caught up", async () => {
    const r = rig(
      { name: "monthly", schedule: "0 9 1 * *", timezone: "Europe/Berlin", catchUp: "once" },
      Date.UTC(2026, 0, 25, 12),
    );
    await r.tick();
    assert.equal(r.runs.length, 0);
    r.clock.set(Date.UTC(2026, 1, 3, 12));
    r.restart();
    await r.tick();
    assert.deepEqual(
      r.runs.map((s) => [new Date(s.atMs).toISOString(), s.late]),
      [["2026-02-01T08:00:00.000Z", true]],
    );
    // Down past the catch-up window (7 days by default): March's slot is dropped, April's runs.
    r.clock.set(Date.UTC(2026, 2, 9, 12));
    r.restart();
    await r.tick();
    r.clock.set(Date.UTC(2026, 3, 1, 7, 1));
    await r.tick();
    assert.deepEqual(
      r.runs.map((s) => [new Date(s.atMs).toISOString(), s.late]),
      [
        ["2026-02-01T08:00:00.000Z", true],
        ["2026-04-01T07:00:00.000Z", false],
      ],
    );
    r.close();
  });

  it("catchUp none drops a missed slot instead of running it late", async () => {
    const r = rig(
      { name: "daily", schedule: "0 8 * * *", timezone: "UTC", catchUp: "none" },
      Date.UTC(2026, 0, 5, 7),
    );
    await r.tick();
    r.clock.set(Date.UTC(2026, 0, 5, 8, 2));
    await r.tick();
    r.clock.set(Date.UTC(2026, 0, 6, 12));
    await r.tick();
    assert.deepEqual(
      r.runs.map((s) => new Date(s.atMs).toISOString()),
      ["2026-01-05T08:00:00.000Z"],
    );
    r.close();
  });

  it("a failed run leaves its slot due; it is retried after 5 min and posted once", async () => {
    const r = rig(
      { name: "weekly", schedule: "0 10 * * 1", timezone: "Europe/Berlin", catchUp: "once" },
      MON_1000,
    );
    r.failNext(2);
    await r.tick();
    r.clock.advance(MINUTE_MS);
    await r.tick();
    assert.equal(r.runs.length, 0, "no retry before 5 min");
    r.clock.advance(5 * MINUTE_MS);
    await r.tick();
    assert.equal(r.runs.length, 0, "the second attempt failed too");
    r.clock.advance(5 * MINUTE_MS);
    await r.tick();
    await r.tick();
    assert.deepEqual(
      r.runs.map((s) => [s.atMs, s.late]),
      [[MON_1000, true]],
    );
    assert.equal(r.posted().length, 1);
    r.close();
  });

  it("runs a daily 02:30 job once on the fall-back night, and at 03:00 on the spring-forward night", async () => {
    const r = rig(
      { name: "nightly", schedule: "30 2 * * *", timezone: "Europe/Berlin", catchUp: "once" },
      Date.UTC(2026, 2, 27, 12),
    );
    for (let t = Date.UTC(2026, 2, 27, 12); t < Date.UTC(2026, 2, 31); t += 10 * MINUTE_MS) {
      r.clock.set(t);
      await r.tick();
    }
    assert.deepEqual(
      r.runs.map((s) => new Date(s.atMs).toISOString()),
      ["2026-03-28T01:30:00.000Z", "2026-03-29T01:00:00.000Z", "2026-03-30T00:30:00.000Z"],
      "02:30 does not exist on 29 March: the job runs at the first time after the gap, 03:00 CEST",
    );
    r.close();
    const autumn = rig(
      { name: "nightly", schedule: "30 2 * * *", timezone: "Europe/Berlin", catchUp: "once" },
      Date.UTC(2026, 9, 24, 12),
    );
    for (let t = Date.UTC(2026, 9, 24, 12); t < Date.UTC(2026, 9, 27); t += 10 * MINUTE_MS) {
      autumn.clock.set(t);
      await autumn.tick();
      if (t === Date.UTC(2026, 9, 25, 1, 0)) autumn.restart();
    }
    assert.deepEqual(
      autumn.runs.map((s) => new Date(s.atMs).toISOString()),
      ["2026-10-25T00:30:00.000Z", "2026-10-26T01:30:00.000Z"],
      "02:30 CEST on 25 October, not again at 02:30 CET an hour later (nor after a restart in between)",
    );
    autumn.close();
  });

  it("a cadence cron cannot say (every other Monday) is a slot function; downtime catches up the right week", async () => {
    const weekly = cronSlots("0 10 * * 1", "Europe/Berlin");
    const everyOther = (afterMs: number, uptoMs: number) =>
      weekly(afterMs, uptoMs).filter((slotMs) => Math.round((slotMs - MON_1000) / DAY_MS / 7) % 2 === 0);
    const r = rig(
      {
        name: "biweekly",
        schedule: everyOther,
        timezone: "Europe/Berlin",
        catchUp: "once",
        catchUpWithinMs: 14 * DAY_MS,
      },
      MON_1000,
    );
    await r.tick();
    // Down from 29 March to Tuesday 7 April: the period slot (30 March, 10:00 CEST) is caught up,
    // not the off-week Monday 6 April.
    r.clock.set(Date.UTC(2026, 2, 29));
    await r.tick();
    r.clock.set(Date.UTC(2026, 3, 7, 9));
    r.restart();
    await r.tick();
    assert.deepEqual(
      r.runs.map((s) => [new Date(s.atMs).toISOString(), s.late]),
      [
        ["2026-03-16T09:00:00.000Z", false],
        ["2026-03-30T08:00:00.000Z", true],
      ],
    );
    r.close();
  });

  it("enumerates cron slots on the local wall clock", () => {
    const slots = cronSlots("0 9 1 * *", "Europe/Berlin")(Date.UTC(2026, 0, 1), Date.UTC(2026, 4, 2));
    assert.deepEqual(
      slots.map((ms) => new Date(ms).toISOString()),
      [
        "2026-01-01T08:00:00.000Z",
        "2026-02-01T08:00:00.000Z",
        "2026-03-01T08:00:00.000Z",
        "2026-04-01T07:00:00.000Z",
        "2026-05-01T07:00:00.000Z",
      ],
    );
    assert.throws(() => cronSlots("*/5 * * * * *", "UTC"), /whole minutes/);
    assert.equal(
      cronSlots("0 0 L * *", "UTC")(Date.UTC(2026, 1, 1), Date.UTC(2026, 2, 1))[0],
      Date.UTC(2026, 1, 28),
    );
    assert.equal(cronSlots("0 * * * *", "UTC")(0, 3 * HOUR_MS).length, 3);
  });
});
