import assert from "node:assert/strict";
import { join } from "node:path";
import { afterEach, describe, test } from "node:test";
import type { QueueWant } from "../../src/domain/queue-request.ts";
import { HOUR_MS, MINUTE_MS } from "../../src/shared/clock.ts";
import { createBotStateStore } from "../../src/store/bot-state-store.ts";
import { createMetricsStore } from "../../src/store/metrics-store.ts";
import { openDatabase } from "../../src/store/open-database.ts";
import { claimGpus } from "../../src/usecases/claims/claim-gpus.ts";
import { extendClaims } from "../../src/usecases/claims/extend-claims.ts";
import { releaseClaims } from "../../src/usecases/claims/release-claims.ts";
import { tickClaims } from "../../src/usecases/claims/tick-claims.ts";
import {
  cancelQueued,
  claimOrWait,
  confirmGrant,
  joinQueue,
  readQueue,
} from "../../src/usecases/queue/queue-requests.ts";
import { observed } from "../checks/builders.ts";
import { ALICE, BOB, CAROL, DAVE, EVE, UseCaseRig } from "../helpers/bot-harness.ts";

const A100 = "NVIDIA A100-SXM4-80GB";
const one: QueueWant = { kind: "count", count: 1, model: null };

describe("the waiting list (use-cases over a real SQLite file)", () => {
  let rig: UseCaseRig;
  afterEach(() => rig.close());

  /** gpu-a: four GPUs, the last busy with a process; gpu-b1: two idle A100s. */
  const observe = () => {
    const now = rig.clock.now();
    rig.fleet.observe(observed("gpu-a", now, [0, 0, 0, 97]));
    const b1 = observed("gpu-b1", now, [0, 0]);
    b1.gpus = b1.gpus.map((gpu) => ({ ...gpu, model: A100 }));
    rig.fleet.observe(b1);
  };
  const start = () => {
    rig = new UseCaseRig({
      team: { timezone: "Europe/Berlin" },
      slack: { admins: [DAVE] },
      warden: { roster: [CAROL] },
      hosts: { "gpu-a": { owners: [ALICE] }, "gpu-b1": {} },
    });
    observe();
  };
  const advance = (minutes: number) => {
    for (let i = 0; i < minutes; i++) {
      rig.clock.advance(MINUTE_MS);
      observe();
      tickClaims(rig.deps);
    }
  };
  const hold = (actor: string, host: string, gpus: number[] | null) =>
    claimGpus(rig.deps, { actor, target: { kind: "slots", slots: { host, gpus } }, durationMs: 4 * HOUR_MS });
  const wait = (actor: string, want: QueueWant, note = "") =>
    joinQueue(rig.deps, { actor, want, durationMs: 2 * HOUR_MS, note });
  const holders = (host: string) =>
    rig.state.claims.activeOn(host, rig.clock.now()).map((claim) => [claim.gpuIndex, claim.user]);
  /** BOB holds every GPU but gpu-a:3 (busy), and EVE then ALICE wait for one GPU each. */
  const eveThenAliceWaiting = () => {
    start();
    hold(BOB, "gpu-a", [0, 1, 2]);
    hold(BOB, "gpu-b1", null);
    wait(EVE, one);
    wait(ALICE, one);
  };
  const grantsPerGpu = () => {
    const counts = new Map<string, number>();
    for (const grant of rig.state.queue.allGrants()) {
      const key = `${grant.host}:${grant.gpuIndex}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return counts;
  };

  test("first come first served: a release grants the first requests that fit, with a grant DM", () => {
    start();
    hold(BOB, "gpu-a", [0, 1, 2]);
    hold(BOB, "gpu-b1", null);
    assert.equal(wait(EVE, one, "tuning").kind, "queued");
    assert.equal(wait(ALICE, one).kind, "queued");
    const again = wait(ALICE, one);
    assert.deepEqual([again.kind, "position" in again && again.position], ["already-waiting", 2]);
    const slotWant: QueueWant = { kind: "slots", host: "gpu-a", gpus: [1] };
    assert.equal(wait(CAROL, slotWant).kind, "queued");
    assert.deepEqual(
      readQueue(rig.deps).waiting.map(({ request, position }) => [position, request.user]),
      [
        [1, EVE],
        [2, ALICE],
        [3, CAROL],
      ],
    );
    releaseClaims(rig.deps, {
      actor: BOB,
      target: { kind: "slots", slots: { host: "gpu-a", gpus: [0, 1] } },
    });
    assert.deepEqual(holders("gpu-a"), [
      [2, BOB],
      [0, EVE],
      [1, ALICE],
    ]);
    assert.deepEqual(rig.notifier.dms(EVE), ["gpu-a:0 is yours until 12:00"]);
    const dm = rig.notifier.sent.find((sent) => sent.args.channel === EVE);
    const blocks = JSON.stringify(dm?.args.blocks);
    assert.match(blocks, /CUDA_VISIBLE_DEVICES=0/);
    assert.match(blocks, /Confirm by 10:15, or it passes to the next in line/);
    assert.deepEqual(
      readQueue(rig.deps).waiting.map(({ request, position }) => [position, request.user]),
      [[1, CAROL]],
    );
    assert.deepEqual(
      rig.state.audit.byAction("queue-grant").map((entry) => entry.detail.holder),
      [EVE, ALICE],
    );
    assert.equal(rig.state.audit.byAction("queue-join").length, 3);
  });

  test("a GPU busy with a process but unclaimed is not free; it is granted once it goes idle", () => {
    start();
    hold(BOB, "gpu-a", [0, 1, 2]);
    hold(BOB, "gpu-b1", null);
    wait(EVE, one);
    advance(5);
    assert.deepEqual(rig.state.queue.allGrants(), []);
    rig.clock.advance(MINUTE_MS);
    rig.fleet.observe(observed("gpu-a", rig.clock.now(), [0, 0, 0, 0]));
    tickClaims(rig.deps);
    assert.deepEqual(holders("gpu-a").at(-1), [3, EVE]);
  });

  test("a model and a whole host: only a matching free GPU, only a wholly free host", () => {
    start();
    hold(BOB, "gpu-b1", [0]);
    hold(CAROL, "gpu-a", [0]);
    const byModel = wait(EVE, { kind: "count", count: 1, model: "a100" });
    assert.equal(byModel.kind, "granted");
    assert.deepEqual(holders("gpu-b1"), [
      [0, BOB],
      [1, EVE],
    ]);
    assert.equal(wait(ALICE, { kind: "slots", host: "gpu-a", gpus: null }).kind, "queued");
    releaseClaims(rig.deps, { actor: CAROL, target: { kind: "all" } });
    assert.deepEqual(
      rig.state.queue.allGrants().filter((grant) => grant.host === "gpu-a"),
      [],
      "GPU 3 is busy: the host is not wholly free",
    );
    assert.deepEqual(
      readQueue(rig.deps).waiting.map(({ request }) => request.user),
      [ALICE],
    );
  });

  test("an unconfirmed grant passes to the next in line after queue.confirm_minutes", () => {
    eveThenAliceWaiting();
    releaseClaims(rig.deps, { actor: BOB, target: { kind: "slots", slots: { host: "gpu-a", gpus: [0] } } });
    assert.deepEqual(holders("gpu-a"), [
      [1, BOB],
      [2, BOB],
      [0, EVE],
    ]);
    advance(14);
    assert.deepEqual(holders("gpu-a").at(-1), [0, EVE]);
    advance(1);
    assert.deepEqual(holders("gpu-a").at(-1), [0, ALICE]);
    assert.equal(rig.state.queue.byId(1)?.state, "lapsed");
    assert.equal(
      rig.notifier.dms(EVE).at(-1),
      "⌛ gpu-a:0 was not confirmed by 10:15, so it passed to the next in line. `/gpu claim 1 --wait` queues you again.",
    );
    const [pass] = rig.state.audit.byAction("queue-pass");
    assert.deepEqual([pass?.detail.holder, pass?.detail.requestId], [EVE, 1]);
    assert.equal(grantsPerGpu().get("gpu-a:0"), 2, "granted twice in turn, never at once");
  });

  test("Confirm keeps the grant past confirm_minutes; only its holder may confirm", () => {
    eveThenAliceWaiting();
    releaseClaims(rig.deps, { actor: BOB, target: { kind: "all" } });
    assert.equal(confirmGrant(rig.deps, { actor: ALICE, requestId: 1 }).kind, "not-yours");
    rig.clock.advance(5 * MINUTE_MS);
    assert.equal(confirmGrant(rig.deps, { actor: EVE, requestId: 1 }).kind, "confirmed");
    assert.equal(confirmGrant(rig.deps, { actor: EVE, requestId: 1 }).kind, "gone");
    advance(30);
    assert.equal(rig.state.queue.byId(1)?.state, "confirmed");
    assert.equal(rig.state.audit.byAction("queue-confirm").length, 1);
    assert.equal(rig.state.audit.byAction("queue-pass").length, 1, "only ALICE's unconfirmed grant passed");
  });

  test("Extend on the grant DM counts as a confirmation", () => {
    eveThenAliceWaiting();
    releaseClaims(rig.deps, { actor: BOB, target: { kind: "slots", slots: { host: "gpu-a", gpus: [0] } } });
    const [grant] = rig.state.queue.grantsOf(1);
    extendClaims(rig.deps, {
      actor: EVE,
      target: { kind: "ids", claimIds: [grant?.claimId ?? 0] },
      byMs: 4 * HOUR_MS,
    });
    advance(20);
    assert.deepEqual(holders("gpu-a").at(-1), [0, EVE]);
    assert.equal(rig.state.queue.byId(1)?.state, "confirmed");
    assert.deepEqual(
      rig.state.audit.byAction("queue-confirm").map((entry) => [entry.actor, entry.detail.by]),
      [[EVE, "extend"]],
    );
    assert.deepEqual(rig.state.audit.byAction("queue-pass"), []);
  });

  test("a restart between a grant and its deadline: the grant passes on once, from the stored state", () => {
    eveThenAliceWaiting();
    releaseClaims(rig.deps, { actor: BOB, target: { kind: "slots", slots: { host: "gpu-a", gpus: [0] } } });
    rig.db.close();
    const db = openDatabase(join(rig.dir, "gpu-warden.db"));
    try {
      const deps = { ...rig.deps, state: createBotStateStore(db), metrics: createMetricsStore(db) };
      rig.clock.advance(20 * MINUTE_MS);
      observe();
      tickClaims(deps);
      tickClaims(deps);
      assert.deepEqual(
        deps.state.claims.activeOn("gpu-a", rig.clock.now()).map((claim) => [claim.gpuIndex, claim.user]),
        [
          [1, BOB],
          [2, BOB],
          [0, ALICE],
        ],
      );
      assert.equal(deps.state.audit.byAction("queue-pass").length, 1);
      assert.equal(deps.state.audit.byAction("queue-grant").length, 2);
    } finally {
      db.close();
    }
  });

  test("cancel takes my requests out of line, audited; --wait claims at once when it can", () => {
    eveThenAliceWaiting();
    wait(EVE, { kind: "slots", host: "gpu-a", gpus: [1] });
    assert.deepEqual(
      cancelQueued(rig.deps, EVE).map((request) => request.id),
      [1, 3],
    );
    assert.deepEqual(cancelQueued(rig.deps, EVE), []);
    assert.deepEqual(
      readQueue(rig.deps).waiting.map(({ request, position }) => [position, request.user]),
      [[1, ALICE]],
    );
    assert.equal(rig.state.audit.byAction("queue-cancel").length, 2);
    const now = claimOrWait(rig.deps, {
      actor: CAROL,
      target: { kind: "slots", slots: { host: "gpu-a", gpus: [3] } },
      durationMs: null,
      note: "",
    });
    assert.equal(now.kind, "claim");
    const queued = claimOrWait(rig.deps, {
      actor: CAROL,
      target: { kind: "count", count: 2, model: "a100" },
      durationMs: null,
      note: "",
    });
    assert.deepEqual([queued.kind, queued.kind === "wait" && queued.result.kind], ["wait", "queued"]);
  });
});
