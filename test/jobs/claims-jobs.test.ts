import assert from "node:assert/strict";
import { join } from "node:path";
import { afterEach, describe, test } from "node:test";
import { setImmediate as turn } from "node:timers/promises";
import { claimsJobs } from "../../src/jobs/claims-jobs.ts";
import { type ClockTimer, clockTimer } from "../../src/jobs/clock-timer.ts";
import { type RunningJobs, scheduleJobs } from "../../src/jobs/schedule-jobs.ts";
import { HOUR_MS, MINUTE_MS } from "../../src/shared/clock.ts";
import { silentLogger } from "../../src/shared/logger.ts";
import { createBotStateStore } from "../../src/store/bot-state-store.ts";
import { openDatabase } from "../../src/store/open-database.ts";
import type { ClaimDeps } from "../../src/usecases/claims/claim-deps.ts";
import { claimGpus } from "../../src/usecases/claims/claim-gpus.ts";
import { joinQueue } from "../../src/usecases/queue/queue-requests.ts";
import { observed } from "../checks/builders.ts";
import { ALICE, BOB, UseCaseRig } from "../helpers/bot-harness.ts";

describe("the claims jobs on the injected clock (a real SQLite file)", () => {
  let rig: UseCaseRig;
  let closeReopened = () => {};
  afterEach(() => {
    closeReopened();
    rig.close();
  });

  test("a preempted claim is released within 5 s of the time its holder was told, across a restart", async () => {
    rig = new UseCaseRig({
      hosts: { "gpu-a": {} },
      projects: {
        paper: { members: [ALICE], priority: 10 },
        batch: { members: [BOB], priority: 0, preempt: true },
      },
    });
    const observe = () => rig.fleet.observe(observed("gpu-a", rig.clock.now(), [0, 0, 0, 0]));
    observe();
    claimGpus(rig.deps, {
      actor: BOB,
      target: { kind: "slots", slots: { host: "gpu-a", gpus: [0, 1, 2, 3] } },
      durationMs: 4 * HOUR_MS,
    });
    rig.clock.advance(47_000);
    joinQueue(rig.deps, {
      actor: ALICE,
      want: { kind: "count", count: 2, model: null },
      durationMs: HOUR_MS,
      note: "",
    });
    const start = async (deps: ClaimDeps) => {
      const timer = clockTimer(rig.clock, { checkEveryMs: HOUR_MS });
      const jobs = scheduleJobs(claimsJobs(deps), silentLogger, undefined, timer);
      await turn();
      return { timer, jobs };
    };
    const everySecond = async (running: { timer: ClockTimer; jobs: RunningJobs }, untilMs: number) => {
      while (rig.clock.now() < untilMs) {
        rig.clock.advance(1_000);
        if (rig.clock.now() % MINUTE_MS === 0) observe();
        running.timer.check();
        await turn();
      }
    };

    let running = await start(rig.deps);
    const asks = rig.state.queue.preempts.open();
    const ask = asks[0];
    assert.ok(ask, "the claims job asked BOB to make room at start, at 09:00:47");
    assert.equal(ask.releaseAtMs, rig.clock.now() + rig.config.queue.preempt_grace_minutes * MINUTE_MS);
    assert.match(rig.notifier.dms(BOB)[0] ?? "", /make room on gpu-a:\d(,\d)* by \d\d:\d\d/);

    await everySecond(running, ask.releaseAtMs - 10 * MINUTE_MS);
    await running.jobs.stop();
    const reopened = openDatabase(join(rig.dir, "gpu-warden.db"));
    closeReopened = () => reopened.close();
    const restarted = { ...rig.deps, state: createBotStateStore(reopened) };
    running = await start(restarted);
    await everySecond(running, ask.releaseAtMs + MINUTE_MS);
    await running.jobs.stop();

    const released = rig.state.audit.byAction("queue-preempt-release");
    assert.equal(released.length, asks.length, "each asked claim released once");
    for (const entry of released) {
      const lateMs = entry.atMs - ask.releaseAtMs;
      assert.ok(lateMs >= 0 && lateMs <= 5_000, `released ${lateMs / 1000} s after the time announced`);
    }
    assert.equal(rig.state.queue.byId(ask.requestId)?.state, "granted");
    assert.match(rig.notifier.dms(ALICE).at(-1) ?? "", /is yours until/);
  });
});
