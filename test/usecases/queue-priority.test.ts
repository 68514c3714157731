import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { chooseProject, defaultProject } from "../../src/checks/queue-project.ts";
import type { QueueWant } from "../../src/domain/queue-request.ts";
import { HOUR_MS, MINUTE_MS } from "../../src/shared/clock.ts";
import { claimGpus } from "../../src/usecases/claims/claim-gpus.ts";
import { releaseClaims } from "../../src/usecases/claims/release-claims.ts";
import { tickClaims } from "../../src/usecases/claims/tick-claims.ts";
import { joinQueue, readQueue } from "../../src/usecases/queue/queue-requests.ts";
import { observed } from "../checks/builders.ts";
import { ALICE, BOB, CAROL, DAVE, EVE, UseCaseRig } from "../helpers/bot-harness.ts";

const one: QueueWant = { kind: "count", count: 1, model: null };
const PROJECTS = {
  paper: { members: [ALICE, CAROL], priority: 10 },
  batch: { members: [BOB, CAROL], priority: -5, preempt: true },
};

describe("projects: a person's default project and project=X", () => {
  test("the first project listing them; project=X must name one of theirs", () => {
    const projects = {
      paper: { members: [ALICE, CAROL], priority: 10, preempt: false },
      batch: { members: [BOB, CAROL], priority: -5, preempt: true },
    };
    assert.equal(defaultProject(projects, CAROL)?.name, "paper");
    assert.equal(defaultProject(projects, EVE), null);
    assert.deepEqual(chooseProject(projects, CAROL, "Batch"), {
      kind: "ok",
      project: { name: "batch", members: [BOB, CAROL], priority: -5, preempt: true },
    });
    assert.deepEqual(chooseProject(projects, ALICE, "batch"), { kind: "not-member", asked: "batch" });
    assert.deepEqual(chooseProject(projects, ALICE, "nope"), {
      kind: "unknown",
      asked: "nope",
      known: ["paper", "batch"],
    });
  });
});

describe("priorities and releases on the waiting list (use-cases over a real SQLite file)", () => {
  let rig: UseCaseRig;
  afterEach(() => rig.close());

  const observe = () => rig.fleet.observe(observed("gpu-a", rig.clock.now(), [0, 0, 0, 0]));
  const start = () => {
    rig = new UseCaseRig({
      slack: { admins: [DAVE] },
      hosts: { "gpu-a": { owners: [ALICE] } },
      projects: PROJECTS,
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
  const wait = (actor: string) => {
    rig.clock.advance(1000);
    return joinQueue(rig.deps, { actor, want: one, durationMs: 2 * HOUR_MS, note: "" });
  };
  const holders = () =>
    rig.state.claims.activeOn("gpu-a", rig.clock.now()).map((claim) => [claim.gpuIndex, claim.user]);

  test("the line goes by priority, then first come; a release grants the highest first", () => {
    start();
    claimGpus(rig.deps, {
      actor: DAVE,
      target: { kind: "slots", slots: { host: "gpu-a", gpus: null } },
      durationMs: 4 * HOUR_MS,
    });
    wait(EVE);
    wait(BOB);
    const alice = wait(ALICE);
    assert.deepEqual([alice.kind, "position" in alice && alice.position], ["queued", 1]);
    wait(CAROL);
    assert.deepEqual(
      readQueue(rig.deps).waiting.map(({ request, position }) => [
        position,
        request.user,
        request.project,
        request.priority,
      ]),
      [
        [1, ALICE, "paper", 10],
        [2, CAROL, "paper", 10],
        [3, EVE, null, 0],
        [4, BOB, "batch", -5],
      ],
    );
    releaseClaims(rig.deps, { actor: DAVE, target: { kind: "all" } });
    assert.deepEqual(holders(), [
      [0, ALICE],
      [1, CAROL],
      [2, EVE],
      [3, BOB],
    ]);
    assert.deepEqual(
      rig.state.audit.byAction("queue-join").map((entry) => [entry.detail.project, entry.detail.priority]),
      [
        [null, 0],
        ["batch", -5],
        ["paper", 10],
        ["paper", 10],
      ],
    );
  });

  test("Release on a grant ends the request: it no longer awaits Confirm and never passes on", () => {
    start();
    claimGpus(rig.deps, {
      actor: DAVE,
      target: { kind: "slots", slots: { host: "gpu-a", gpus: null } },
      durationMs: 4 * HOUR_MS,
    });
    const eve = wait(EVE);
    releaseClaims(rig.deps, { actor: DAVE, target: { kind: "all" } });
    const request = rig.state.queue.byId(eve.kind === "queued" ? eve.request.id : -1);
    assert.equal(request?.state, "granted");
    const claimIds = rig.state.queue.grantsOf(request?.id ?? -1).map((grant) => grant.claimId);
    const released = releaseClaims(rig.deps, { actor: EVE, target: { kind: "ids", claimIds } });
    assert.equal(released.kind, "released");
    assert.equal(rig.state.queue.byId(request?.id ?? -1)?.state, "released");
    assert.deepEqual(readQueue(rig.deps).awaitingConfirm, []);
    assert.deepEqual(
      rig.state.audit.byAction("queue-release").map((entry) => [entry.actor, entry.detail.requestId]),
      [[EVE, request?.id]],
    );
    advance(20);
    assert.deepEqual(rig.state.audit.byAction("queue-pass"), []);
    assert.deepEqual(holders(), []);
  });
});
