import assert from "node:assert/strict";
import { join } from "node:path";
import { afterEach, describe, test } from "node:test";
import { HOUR_MS, MINUTE_MS } from "../../src/shared/clock.ts";
import { createBotStateStore } from "../../src/store/bot-state-store.ts";
import { openDatabase } from "../../src/store/open-database.ts";
import { claimGpus } from "../../src/usecases/claims/claim-gpus.ts";
import { releaseClaims } from "../../src/usecases/claims/release-claims.ts";
import { tickClaims } from "../../src/usecases/claims/tick-claims.ts";
import { deferPreempt } from "../../src/usecases/queue/queue-preempt.ts";
import { cancelQueued, joinQueue } from "../../src/usecases/queue/queue-requests.ts";
import { observed } from "../checks/builders.ts";
import { ALICE, BOB, CAROL, DAVE, EVE, UseCaseRig } from "../helpers/bot-harness.ts";

describe("preemption on the waiting list (use-cases over a real SQLite file)", () => {
  let rig: UseCaseRig;
  afterEach(() => rig.close());

  const observe = () => rig.fleet.observe(observed("gpu-a", rig.clock.now(), [0, 0, 0, 0]));
  /** BOB (batch: priority 0, preempt) holds gpu-a:0,1, CAROL (lab: priority 0, no preempt) gpu-a:2,3; ALICE (paper: 10) waits for 2. */
  const start = () => {
    rig = new UseCaseRig({
      slack: { admins: [DAVE] },
      hosts: { "gpu-a": {} },
      projects: {
        paper: { members: [ALICE, EVE], priority: 10 },
        batch: { members: [BOB], priority: 0, preempt: true },
        lab: { members: [CAROL], priority: 0 },
      },
    });
    observe();
    const hold = (actor: string, gpus: number[]) =>
      claimGpus(rig.deps, {
        actor,
        target: { kind: "slots", slots: { host: "gpu-a", gpus } },
        durationMs: 4 * HOUR_MS,
      });
    hold(BOB, [0, 1]);
    hold(CAROL, [2, 3]);
    joinQueue(rig.deps, {
      actor: ALICE,
      want: { kind: "count", count: 2, model: null },
      durationMs: HOUR_MS,
      note: "",
    });
  };
  const advance = (minutes: number, deps = rig.deps) => {
    for (let i = 0; i < minutes; i++) {
      rig.clock.advance(MINUTE_MS);
      observe();
      tickClaims(deps);
    }
  };
  const holders = () =>
    rig.state.claims.activeOn("gpu-a", rig.clock.now()).map((claim) => [claim.gpuIndex, claim.user]);
  const count = (action: string) => rig.state.audit.byAction(action).length;

  test("asks the lower-priority preemptible holder; after the grace (across a restart) releases once and grants", () => {
    start();
    advance(1);
    assert.deepEqual(rig.notifier.dms(BOB), ["Please make room on gpu-a:0,1 by 09:31"]);
    assert.deepEqual(rig.notifier.dms(ALICE), [`Asked <@${BOB}> to make room by 09:31`]);
    assert.deepEqual(rig.notifier.dms(CAROL), []);
    assert.equal(count("queue-preempt-ask"), 2);
    advance(28);
    assert.deepEqual(holders(), [
      [0, BOB],
      [1, BOB],
      [2, CAROL],
      [3, CAROL],
    ]);
    const restarted = openDatabase(join(rig.dir, "gpu-warden.db"));
    try {
      const after = { ...rig.deps, state: createBotStateStore(restarted) };
      advance(1, after);
      advance(1, rig.deps);
      advance(1, after);
    } finally {
      restarted.close();
    }
    assert.deepEqual(holders(), [
      [2, CAROL],
      [3, CAROL],
      [0, ALICE],
      [1, ALICE],
    ]);
    assert.equal(count("queue-preempt-release"), 2);
    assert.equal(count("queue-grant"), 1);
    assert.deepEqual(rig.notifier.dms(BOB).slice(1), ["gpu-a:0,1 was released to make room"]);
    assert.match(rig.notifier.dms(ALICE).at(-1) ?? "", /is yours until/);
  });

  test("I need 30 more minutes: once, by the holder; Release now grants at once", () => {
    start();
    advance(1);
    const ids = rig.state.queue.preempts.open().map((ask) => ask.id);
    assert.deepEqual(deferPreempt(rig.deps, { actor: CAROL, preemptIds: ids }), { kind: "not-yours" });
    const deferred = deferPreempt(rig.deps, { actor: BOB, preemptIds: ids });
    assert.equal(deferred.kind, "deferred");
    assert.equal(deferred.kind === "deferred" && deferred.releaseAtMs, rig.clock.now() + 60 * MINUTE_MS);
    assert.equal(deferPreempt(rig.deps, { actor: BOB, preemptIds: ids }).kind, "already");
    assert.equal(count("queue-preempt-defer"), 2);
    advance(45);
    assert.deepEqual(holders().slice(0, 2), [
      [0, BOB],
      [1, BOB],
    ]);
    releaseClaims(rig.deps, { actor: BOB, target: { kind: "all" } });
    assert.deepEqual(holders().slice(2), [
      [0, ALICE],
      [1, ALICE],
    ]);
    assert.equal(count("queue-preempt-made-room"), 2);
    advance(30);
    assert.equal(count("queue-preempt-release"), 0);
    assert.equal(deferPreempt(rig.deps, { actor: BOB, preemptIds: ids }).kind, "gone");
  });

  test("the request leaves the line: the asks close, the holder keeps the claim and is told", () => {
    start();
    advance(1);
    assert.equal(cancelQueued(rig.deps, ALICE).length, 1);
    advance(1);
    assert.deepEqual(rig.notifier.dms(BOB).slice(1), [
      "✅ You can keep *gpu-a:0,1*: the request that needed it no longer waits.",
    ]);
    assert.equal(count("queue-preempt-void"), 2);
    advance(40);
    assert.equal(count("queue-preempt-release"), 0);
    assert.deepEqual(holders().slice(0, 2), [
      [0, BOB],
      [1, BOB],
    ]);
  });
});
