import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import type { QueueWant } from "../../src/domain/queue-request.ts";
import { HOUR_MS } from "../../src/shared/clock.ts";
import { claimGpus } from "../../src/usecases/claims/claim-gpus.ts";
import { joinQueue } from "../../src/usecases/queue/queue-requests.ts";
import { observed } from "../checks/builders.ts";
import { BOB, EVE, UseCaseRig } from "../helpers/bot-harness.ts";

const A100 = "NVIDIA A100-SXM4-80GB";
const L40S = "NVIDIA L40S";

describe("a place in line counts the requests that could take the same GPUs", () => {
  let rig: UseCaseRig;
  afterEach(() => rig.close());

  test("an l40s request behind 27 a100 requests is next for the l40s; a100 requests count each other", () => {
    rig = new UseCaseRig({ team: { timezone: "UTC" }, hosts: { "a100-a": {}, "l40s-a": {}, "gpu-a": {} } });
    const now = rig.clock.now();
    const withModel = (host: string, model: string) => {
      const seen = observed(host, now, [0, 0]);
      seen.gpus = seen.gpus.map((gpu) => ({ ...gpu, model }));
      rig.fleet.observe(seen);
    };
    withModel("a100-a", A100);
    withModel("l40s-a", L40S);
    rig.fleet.observe(observed("gpu-a", now, [0, 0]));
    for (const host of ["a100-a", "l40s-a", "gpu-a"]) {
      claimGpus(rig.deps, {
        actor: BOB,
        target: { kind: "slots", slots: { host, gpus: null } },
        durationMs: 4 * HOUR_MS,
      });
    }
    const wait = (actor: string, want: QueueWant) =>
      joinQueue(rig.deps, { actor, want, durationMs: HOUR_MS, note: "" });
    for (let i = 0; i < 27; i++) {
      const joined = wait(`U0A100${String(i).padStart(3, "0")}`, { kind: "count", count: 1, model: "a100" });
      assert.equal(joined.kind, "queued");
      if (joined.kind === "queued") assert.equal(joined.position, i + 1);
    }
    const l40s = wait(EVE, { kind: "count", count: 1, model: "l40s" });
    assert.equal(l40s.kind, "queued");
    if (l40s.kind === "queued") assert.equal(l40s.position, 1, "no other l40s request is waiting");
    const host = wait(`U0HOST001`, { kind: "slots", host: "a100-a", gpus: [0] });
    if (host.kind === "queued")
      assert.equal(host.position, 28, "every a100 request ahead could take a100-a:0");
    const any = wait(`U0ANY0001`, { kind: "count", count: 1, model: null });
    if (any.kind === "queued") assert.equal(any.position, 30, "any GPU: everyone ahead counts");
  });
});
