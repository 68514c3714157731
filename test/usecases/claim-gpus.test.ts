import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { HOUR_MS } from "../../src/shared/clock.ts";
import { type ClaimGpusResult, claimGpus } from "../../src/usecases/claims/claim-gpus.ts";
import { observed, reading } from "../checks/builders.ts";
import { ALICE, BOB, CAROL, DAVE, EVE, T0, UseCaseRig } from "../helpers/bot-harness.ts";
import { saidBy } from "./claim-said.ts";

const A100 = "NVIDIA A100-SXM4-80GB";

describe("claimGpus (/gpu claim)", () => {
  let rig: UseCaseRig;
  const say = () => saidBy(rig.deps.readers.channel, () => rig.clock.now());
  afterEach(() => rig.close());

  const start = (claims: Record<string, unknown> = {}) => {
    rig = new UseCaseRig({
      team: { timezone: "Europe/Berlin" },
      slack: { admins: [DAVE] },
      warden: { roster: [CAROL] },
      claims,
      hosts: { "gpu-a": { owners: [ALICE] }, "gpu-b1": {} },
    });
    rig.fleet.observe(observed("gpu-a", T0, [0, 0, 0, 97]));
    const b1 = observed("gpu-b1", T0, [0, 0]);
    b1.gpus = b1.gpus.map((gpu) => ({ ...gpu, model: A100 }));
    rig.fleet.observe(b1);
  };
  const slots = (host: string, gpus: number[] | null) => ({ kind: "slots" as const, slots: { host, gpus } });
  const claim = (
    actor: string,
    target: Parameters<typeof claimGpus>[1]["target"],
    more = {},
  ): ClaimGpusResult => claimGpus(rig.deps, { actor, target, durationMs: null, ...more });

  test("GPUs for 4 h with a note: held, audited, the holder's Home refreshed", () => {
    start();
    const result = claim(BOB, slots("gpu-a", [0, 1]), { durationMs: 4 * HOUR_MS, note: "llama sft" });
    assert.equal(say().claim(result), "You hold gpu-a:0,1 until 14:00 (4 h) (llama sft).");
    assert.deepEqual(
      rig.state.claims.activeAt(T0).map((c) => [c.host, c.gpuIndex, c.user, c.untilMs, c.note]),
      [
        ["gpu-a", 0, BOB, T0 + 4 * HOUR_MS, "llama sft"],
        ["gpu-a", 1, BOB, T0 + 4 * HOUR_MS, "llama sft"],
      ],
    );
    const [entry] = rig.state.audit.byAction("claim");
    assert.deepEqual(
      [entry?.actor, entry?.atMs, entry?.host, entry?.detail.gpus, entry?.detail.untilMs],
      [BOB, T0, "gpu-a", [0, 1], T0 + 4 * HOUR_MS],
    );
    assert.deepEqual(rig.notifier.homes(), [BOB]);
    assert.deepEqual(rig.alerts.thread("gpu-a"), [], "no alert open: the channel hears nothing");
  });

  test("a held GPU: who holds it, until when, with what note; the warden and admins may force it", () => {
    start();
    claim(BOB, slots("gpu-a", [0, 1]), { durationMs: 4 * HOUR_MS, note: "llama sft" });
    claim(EVE, slots("gpu-a", [2]));
    const held = claim(ALICE, slots("gpu-a", [1, 2]));
    assert.equal(held.kind, "held");
    assert.equal(
      say().claim(held),
      `gpu-a:1 is claimed by <@${BOB}> until 14:00 (llama sft); gpu-a:2 by <@${EVE}> until 18:00.`,
    );
    assert.equal(held.kind === "held" && held.forceable, false);
    const byWarden = claim(CAROL, slots("gpu-a", null));
    assert.equal(byWarden.kind === "held" && byWarden.forceable, true);
    assert.equal(rig.state.claims.activeAt(T0).length, 3);
  });

  test("your own claim again: said so; the whole host replaces your GPU claims on it", () => {
    start();
    claim(BOB, slots("gpu-a", [0]));
    assert.equal(
      say().claim(claim(BOB, slots("gpu-a", [0]))),
      "You already hold gpu-a:0 until 18:00: `/gpu extend gpu-a:0 4h` holds it longer.",
    );
    assert.equal(
      say().claim(claim(BOB, slots("gpu-a", [0, 1]))),
      "You hold gpu-a:1 until 18:00 (8 h). You already held gpu-a:0; that claim ends when it did before.",
    );
    rig.clock.advance(HOUR_MS);
    rig.fleet.observe(observed("gpu-a", rig.clock.now(), [0, 0, 0, 97]));
    assert.equal(
      say().claim(claim(BOB, slots("gpu-a", null))),
      "You hold gpu-a until 19:00 (8 h). It replaces your claim on gpu-a:0,1. " +
        "Heads-up: gpu-a:3 is in use right now without a claim.",
    );
    assert.deepEqual(
      rig.state.claims.activeAt(rig.clock.now()).map((c) => [c.gpuIndex, c.user]),
      [[null, BOB]],
    );
  });

  test("what cannot be claimed is said, with the host's GPUs, a suggestion or the limit", () => {
    start({ max_days: 2 });
    assert.equal(say().claim(claim(BOB, slots("gpu-b", null))), "no host gpu-b; did you mean gpu-b1?");
    assert.equal(
      say().claim(claim(BOB, slots("gpu-a", [4, 5]))),
      "gpu-a has GPUs 0-3: there is no GPUs 4,5.",
    );
    assert.equal(say().claim(claim(BOB, slots("gpu-b1", [2]))), "gpu-b1 has GPUs 0,1: there is no GPU 2.");
    assert.equal(
      say().claim(claim(BOB, slots("gpu-a", [0]), { durationMs: 3 * 24 * HOUR_MS })),
      "A claim lasts at most 2 d; you asked for 3 d.",
    );
    assert.equal(rig.state.claims.activeAt(T0).length, 0);
  });

  test("any n GPUs of a model: matched loosely, idle first, on one host; short answers say who holds them", () => {
    start();
    assert.equal(
      say().claim(claim(BOB, { kind: "count", count: 2, model: "a100" })),
      "You hold gpu-b1:0,1 (A100-SXM4-80GB) until 18:00 (8 h).",
    );
    assert.equal(
      say().claim(claim(EVE, { kind: "count", count: 1, model: "A100" })),
      `Only 0 of the 2 A100-SXM4-80GB GPUs are free; you asked for 1. Held: gpu-b1:0,1 by <@${BOB}> until 18:00.`,
    );
    assert.equal(
      say().claim(claim(EVE, { kind: "count", count: 2, model: "v100" })),
      "No GPU model matches `v100`: the fleet has A100-SXM4-80GB and H100 80GB HBM3.",
    );
    assert.equal(
      say().claim(claim(EVE, { kind: "count", count: 3, model: null })),
      "You hold gpu-a:0-2 (H100 80GB HBM3) until 18:00 (8 h).",
    );
    assert.equal(
      say().claim(claim(ALICE, { kind: "count", count: 1, model: null })),
      "You hold gpu-a:3 (H100 80GB HBM3) until 18:00 (8 h). Heads-up: gpu-a:3 is in use right now without a claim.",
    );
  });

  test("a claim past its end is ended (holder told) before the slot is given again", () => {
    start();
    claim(BOB, slots("gpu-a", [0]), { durationMs: HOUR_MS });
    rig.clock.advance(HOUR_MS);
    rig.fleet.observe(observed("gpu-a", rig.clock.now(), [0, 0, 0, 97]));
    assert.equal(claim(EVE, slots("gpu-a", [0])).kind, "claimed");
    assert.deepEqual(rig.notifier.dms(BOB), ["⌛ Your claim on gpu-a:0 ended at 11:00."]);
    assert.deepEqual(
      rig.state.audit.byAction("claim-expire").map((e) => [e.actor, e.atMs, e.detail.endedAtMs]),
      [["gpu-warden", T0 + HOUR_MS, T0 + HOUR_MS]],
    );
  });

  test("GPUs only ever seen in stored history count, with their stored model, as without a reading", () => {
    rig = new UseCaseRig({ team: { timezone: "Europe/Berlin" }, hosts: { "gpu-c": {} } });
    rig.metrics.writeCycle(
      [{ ...observed("gpu-c", T0 - HOUR_MS, []), gpus: [reading(0, 0, { model: A100 })] }],
      T0 - HOUR_MS,
    );
    assert.equal(say().claim(claim(BOB, slots("gpu-c", [1]))), "gpu-c has GPU 0: there is no GPU 1.");
    assert.equal(
      say().claim(claim(BOB, { kind: "count", count: 1, model: "a100" })),
      "You hold gpu-c:0 (A100-SXM4-80GB) until 18:00 (8 h).",
    );
  });
});
