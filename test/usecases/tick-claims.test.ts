import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import type { HostObservation } from "../../src/domain/observation.ts";
import { HOUR_MS, MINUTE_MS } from "../../src/shared/clock.ts";
import { claimGpus } from "../../src/usecases/claims/claim-gpus.ts";
import { claimStillUsing } from "../../src/usecases/claims/claim-still-using.ts";
import { joinWaitlist } from "../../src/usecases/claims/claim-waitlist.ts";
import { tickClaims } from "../../src/usecases/claims/tick-claims.ts";
import { failedAt, observed } from "../checks/builders.ts";
import { BOB, EVE, T0, UseCaseRig } from "../helpers/bot-harness.ts";
import { saidBy } from "./claim-said.ts";

/** 2027-03-28 00:00 in Berlin (CET, UTC+1); at 02:00 the clocks go to 03:00 (CEST, UTC+2). */
const DST_NIGHT = Date.UTC(2027, 2, 27, 23, 0);

describe("the claims job: expiry, reminders, nudges, auto-release (manual clock)", () => {
  let rig: UseCaseRig;
  const say = () => saidBy(rig.deps.readers.channel, () => rig.clock.now());
  afterEach(() => rig.close());

  const start = (startMs: number, claims: Record<string, unknown> = {}) => {
    rig = new UseCaseRig({ team: { timezone: "Europe/Berlin" }, claims, hosts: { "gpu-a": {} } });
    rig.clock.set(startMs);
    observe((atMs) => observed("gpu-a", atMs, [0, 0]));
  };
  /** One poll of the host at the clock's time: stored and seen by the fleet. */
  const observe = (make: (atMs: number) => HostObservation) => {
    const observation = make(rig.clock.now());
    rig.metrics.writeCycle([observation], rig.clock.now());
    rig.fleet.observe(observation);
  };
  /** `minutes` times: a minute on, a poll, the claims job. */
  const run = (minutes: number, make: (atMs: number) => HostObservation) => {
    for (let i = 0; i < minutes; i++) {
      rig.clock.advance(MINUTE_MS);
      observe(make);
      tickClaims(rig.deps);
    }
  };
  const idle = (atMs: number) => observed("gpu-a", atMs, [0, 0]);
  const busy = (atMs: number) => observed("gpu-a", atMs, [85, 0]);
  const hold = (gpus: number[] | null, durationMs: number | null = null) =>
    claimGpus(rig.deps, {
      actor: BOB,
      target: { kind: "slots", slots: { host: "gpu-a", gpus } },
      durationMs,
    });

  test("across the spring-forward night in Berlin: reminder an hour before, expiry on time, local times right", () => {
    start(DST_NIGHT + 30 * MINUTE_MS);
    assert.equal(say().claim(hold([0], 4 * HOUR_MS)), "You hold gpu-a:0 until 05:30 (4 h).");
    run(179, busy);
    assert.deepEqual(rig.notifier.dms(BOB), [], "02:29 UTC: no reminder yet");
    run(1, busy);
    assert.equal(rig.clock.now(), Date.UTC(2027, 2, 28, 2, 30));
    assert.deepEqual(rig.notifier.dms(BOB), ["Your claim on gpu-a:0 ends at 05:30"]);
    const reminder = rig.notifier.sent.at(-1);
    assert.match(JSON.stringify(reminder?.args.blocks), /ends at \*05:30\* \(in 1 h\)/);
    assert.match(
      JSON.stringify(reminder?.args.blocks),
      /"action_id":"claim_extend_4h".*"action_id":"claim_release"/,
    );
    run(59, busy);
    assert.equal(rig.state.claims.activeAt(rig.clock.now()).length, 1);
    run(1, busy);
    assert.equal(rig.clock.now(), Date.UTC(2027, 2, 28, 3, 30));
    assert.deepEqual(rig.notifier.dms(BOB).slice(1), ["⌛ Your claim on gpu-a:0 ended at 05:30."]);
    assert.deepEqual(
      rig.state.audit
        .byAction("claim-expire")
        .map((entry) => [entry.actor, entry.atMs, entry.detail.endedAtMs]),
      [["gpu-warden", Date.UTC(2027, 2, 28, 3, 30), Date.UTC(2027, 2, 28, 3, 30)]],
    );
    run(5, busy);
    assert.equal(rig.notifier.dms(BOB).length, 2, "nothing twice");
  });

  test("a 2-day claim over the change ends 48 hours later, shown in local time", () => {
    start(Date.UTC(2027, 2, 27, 9, 0));
    assert.equal(say().claim(hold(null, 48 * HOUR_MS)), "You hold gpu-a until Mon, Mar 29 11:00 (2 d).");
  });

  test("claimed but idle: a nudge after 2 h, the release after 4 h with a notice; waiters hear", () => {
    start(T0);
    hold(null);
    joinWaitlist(rig.deps, { actor: EVE, slots: { host: "gpu-a", gpus: null } });
    run(119, idle);
    assert.deepEqual(rig.notifier.dms(BOB), []);
    run(1, idle);
    assert.deepEqual(rig.notifier.dms(BOB), ["gpu-a is claimed by you but idle since 10:00"]);
    assert.match(
      JSON.stringify(rig.notifier.sent.at(-1)?.args.blocks),
      /idle since \*10:00\* \(2 h\)\. Still using it\? If it stays idle it is released at 14:00\./,
    );
    run(119, idle);
    assert.equal(rig.notifier.dms(BOB).length, 1, "one nudge per idle stretch");
    run(1, idle);
    assert.deepEqual(rig.notifier.dms(BOB).slice(1), [
      "🔓 Released your claim on gpu-a: idle since 10:00 (4 h).",
    ]);
    assert.deepEqual(rig.notifier.dms(EVE), ["gpu-a is free now"]);
    assert.deepEqual(
      rig.state.audit
        .byAction("claim-auto-release")
        .map((entry) => [entry.actor, entry.atMs, entry.detail.idleFromMs]),
      [["gpu-warden", T0 + 240 * MINUTE_MS, T0]],
    );
    assert.equal(rig.state.claims.activeAt(rig.clock.now()).length, 0);
  });

  test("unknown is never idle: a failed poll restarts the count; busy work does too", () => {
    start(T0);
    hold([1]);
    run(100, idle);
    run(10, (atMs) => failedAt("gpu-a", atMs));
    run(120, idle);
    assert.deepEqual(rig.notifier.dms(BOB), [], "119 min since the first idle sample after the gap");
    run(1, idle);
    assert.equal(rig.notifier.dms(BOB).length, 1);
    run(30, (atMs) => observed("gpu-a", atMs, [0, 50]));
    run(120, idle);
    assert.equal(rig.notifier.dms(BOB).length, 1);
    run(1, idle);
    assert.equal(rig.notifier.dms(BOB).length, 2, "a new idle stretch after busy work: a new nudge");
    assert.equal(rig.state.claims.activeAt(rig.clock.now()).length, 1);
  });

  /** The claims job with the store's GPU sample reads counted (rows read). */
  const countedTick = (counter: { rows: number }) => {
    const metrics = rig.deps.metrics;
    tickClaims({
      ...rig.deps,
      metrics: {
        ...metrics,
        gpuSamplesSince: (host, sinceMs) => {
          const samples = metrics.gpuSamplesSince(host, sinceMs);
          counter.rows += samples.length;
          return samples;
        },
      },
    });
  };

  test("each poll's samples are read once, not the look-back again every minute", () => {
    start(T0);
    hold(null);
    const counter = { rows: 0 };
    for (let i = 0; i < 239; i++) {
      rig.clock.advance(MINUTE_MS);
      observe(idle);
      countedTick(counter);
    }
    assert.equal(rig.notifier.dms(BOB).length, 1, "the nudge");
    assert.equal(counter.rows, 240 * 2, "one row per GPU per poll (the claim came after the first)");
    rig.clock.advance(MINUTE_MS);
    observe(idle);
    countedTick(counter);
    assert.deepEqual(rig.notifier.dms(BOB).slice(1), [
      "🔓 Released your claim on gpu-a: idle since 10:00 (4 h).",
    ]);
  });

  test("a restart keeps how long a claim has been idle, without reading its history again", () => {
    start(T0);
    hold([0]);
    run(100, idle);
    rig = rig.restart({ team: { timezone: "Europe/Berlin" }, hosts: { "gpu-a": {} } });
    assert.deepEqual(
      rig.state.claimIdle.all().map((record) => [record.host, record.gpus[0]?.runFromMs]),
      [["gpu-a", T0]],
    );
    const counter = { rows: 0 };
    rig.clock.advance(MINUTE_MS);
    observe(idle);
    countedTick(counter);
    assert.equal(counter.rows, 2, "only the poll since the restart");
    run(18, idle);
    assert.deepEqual(rig.notifier.dms(BOB), []);
    run(1, idle);
    assert.deepEqual(rig.notifier.dms(BOB), ["gpu-a:0 is claimed by you but idle since 10:00"]);
  });

  test("'Still using it' counts from the click; with auto-release off the claim stays", () => {
    start(T0, { claim_idle_release_minutes: null, default_hours: 24 });
    hold([0]);
    run(120, idle);
    assert.equal(rig.notifier.dms(BOB).length, 1);
    const ids = rig.state.claims.activeOf(BOB, rig.clock.now()).map((claim) => claim.id);
    assert.equal(
      say().stillUsing(claimStillUsing(rig.deps, { actor: BOB, claimIds: ids })),
      "Noted: gpu-a:0 stays yours. I'll ask again if it is idle for another 2 h.",
    );
    assert.equal(claimStillUsing(rig.deps, { actor: EVE, claimIds: ids }).kind, "refused");
    run(119, idle);
    assert.equal(rig.notifier.dms(BOB).length, 1);
    run(1, idle);
    assert.equal(rig.notifier.dms(BOB).length, 2);
    run(300, idle);
    assert.equal(rig.state.claims.activeAt(rig.clock.now()).length, 1, "never released while off");
    assert.deepEqual(
      rig.state.audit.byAction("claim-still-using").map((entry) => entry.actor),
      [BOB],
    );
  });
});
