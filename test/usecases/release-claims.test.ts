import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { HOUR_MS } from "../../src/shared/clock.ts";
import { claimGpus } from "../../src/usecases/claims/claim-gpus.ts";
import { joinWaitlist } from "../../src/usecases/claims/claim-waitlist.ts";
import { extendClaims } from "../../src/usecases/claims/extend-claims.ts";
import { releaseClaims } from "../../src/usecases/claims/release-claims.ts";
import { observed } from "../checks/builders.ts";
import { ALICE, BOB, CAROL, DAVE, EVE, T0, UseCaseRig } from "../helpers/bot-harness.ts";
import { saidBy } from "./claim-said.ts";

describe("release, force release, extend and the waitlist", () => {
  let rig: UseCaseRig;
  const say = () => saidBy(rig.deps.readers.channel, () => rig.clock.now());
  afterEach(() => rig.close());

  const start = (claims: Record<string, unknown> = {}) => {
    rig = new UseCaseRig({
      team: { timezone: "Europe/Berlin" },
      slack: { admins: [DAVE] },
      warden: { roster: [CAROL] },
      claims,
      hosts: { "gpu-a": { owners: [ALICE] }, "gpu-b": {} },
    });
    rig.fleet.observe(observed("gpu-a", T0, [0, 0, 0, 0]));
    rig.fleet.observe(observed("gpu-b", T0, [0, 0]));
  };
  const hold = (actor: string, host: string, gpus: number[] | null, note = "") =>
    claimGpus(rig.deps, { actor, target: { kind: "slots", slots: { host, gpus } }, durationMs: null, note });
  const release = (actor: string, target: Parameters<typeof releaseClaims>[1]["target"]) =>
    releaseClaims(rig.deps, { actor, target });
  const slots = (host: string, gpus: number[] | null) => ({ kind: "slots" as const, slots: { host, gpus } });

  test("authorisation: the holder releases; the owner and anyone else are refused and told who can", () => {
    start();
    hold(BOB, "gpu-a", [0], "llama sft");
    const who = `gpu-a:0 is claimed by <@${BOB}> until 18:00 (llama sft). Only <@${BOB}>, the cost warden (<@${CAROL}>) or an admin (<@${DAVE}>) can release it.`;
    const byAlice = release(ALICE, slots("gpu-a", [0]));
    assert.equal(byAlice.kind, "refused");
    assert.equal(say().release(byAlice), who);
    assert.equal(say().release(release(EVE, slots("gpu-a", null))), who);
    assert.deepEqual(
      rig.state.audit.byAction("claim-release-refused").map((entry) => entry.actor),
      [ALICE, EVE],
    );
    assert.equal(say().release(release(BOB, slots("gpu-a", [0]))), "Released gpu-a:0.");
    assert.deepEqual(rig.notifier.dms(BOB), [], "releasing your own claim sends you no DM");
    const [entry] = rig.state.audit.byAction("claim-release");
    assert.deepEqual([entry?.actor, entry?.atMs, entry?.forced], [BOB, T0, false]);
  });

  test("the cost warden and an admin force a release; the holder gets a DM; audited as forced", () => {
    start();
    hold(BOB, "gpu-a", [0, 1], "llama sft");
    hold(EVE, "gpu-b", null);
    assert.equal(
      say().release(release(CAROL, slots("gpu-a", [1]))),
      `Released gpu-a:1, claimed by <@${BOB}>; they have been told.`,
    );
    const ids = rig.state.claims.activeOf(EVE, T0).map((claim) => claim.id);
    assert.equal(
      say().release(release(DAVE, { kind: "ids", claimIds: ids })),
      `Released gpu-b, claimed by <@${EVE}>; they have been told.`,
    );
    assert.deepEqual(rig.notifier.dms(BOB), [
      `🔓 <@${CAROL}> (the cost warden) released your claim on gpu-a:1 (llama sft), which ran until 18:00.`,
    ]);
    assert.deepEqual(rig.notifier.dms(EVE), [
      `🔓 <@${DAVE}> (an admin) released your claim on gpu-b, which ran until 18:00.`,
    ]);
    assert.deepEqual(
      rig.state.audit
        .byAction("claim-force-release")
        .map((entry) => [entry.actor, entry.host, entry.forced, entry.detail.holder]),
      [
        [CAROL, "gpu-a", true, BOB],
        [DAVE, "gpu-b", true, EVE],
      ],
    );
    assert.deepEqual(
      rig.state.claims.activeAt(T0).map((claim) => [claim.host, claim.gpuIndex]),
      [["gpu-a", 0]],
    );
  });

  test("bare release takes your one claim; with several it asks which; all takes them all", () => {
    start();
    assert.equal(say().release(release(BOB, { kind: "default" })), "You hold no claims.");
    hold(BOB, "gpu-a", [0]);
    hold(BOB, "gpu-b", null);
    const bare = release(BOB, { kind: "default" });
    assert.equal(bare.kind, "invalid");
    assert.equal(say().release(bare), "You hold 2 claims (gpu-a:0 and gpu-b): say which, or `all`.");
    assert.equal(say().release(release(BOB, { kind: "all" })), "Released gpu-a:0 and gpu-b.");
    assert.equal(say().release(release(BOB, slots("gpu-a", [3]))), "Nobody holds gpu-a:3.");
    assert.equal(say().release(release(BOB, slots("gpu-a", [7]))), "gpu-a has GPUs 0-3: there is no GPU 7.");
    assert.equal(
      say().release(release(BOB, slots("node-7", null))),
      "no host node-7; the hosts are gpu-a and gpu-b",
    );
  });

  test("waitlist: a DM with a Claim button when the held GPU frees, once", () => {
    start();
    hold(BOB, "gpu-a", [0, 1]);
    const waiting = joinWaitlist(rig.deps, { actor: EVE, slots: { host: "gpu-a", gpus: [1] } });
    assert.equal(waiting.kind, "waiting");
    assert.equal(say().wait(waiting), "I'll DM you when gpu-a:1 is free.");
    joinWaitlist(rig.deps, { actor: EVE, slots: { host: "gpu-a", gpus: [1] } });
    assert.equal(
      say().wait(joinWaitlist(rig.deps, { actor: ALICE, slots: { host: "gpu-a", gpus: [2] } })),
      "gpu-a:2 is free now: `/gpu claim gpu-a:2` takes it.",
    );
    release(BOB, slots("gpu-a", [0]));
    assert.deepEqual(rig.notifier.dms(EVE), [], "GPU 1 is still held");
    release(BOB, slots("gpu-a", [1]));
    assert.deepEqual(rig.notifier.dms(EVE), ["gpu-a:1 is free now"]);
    const dm = rig.notifier.sent.find((item) => item.args.channel === EVE);
    assert.match(
      JSON.stringify(dm?.args.blocks),
      /"action_id":"claim_slots".*\{\\"host\\":\\"gpu-a\\",\\"gpus\\":\[1\]\}/,
    );
    hold(BOB, "gpu-a", [1]);
    release(BOB, slots("gpu-a", [1]));
    assert.equal(rig.notifier.dms(EVE).length, 1, "told once");
  });

  test("extend: only the holder, cut to the longest claim; the reminder goes out again", () => {
    start({ max_days: 1 });
    hold(BOB, "gpu-a", [0, 1]);
    const extend = (actor: string, host: string, gpus: number[] | null, byMs: number) =>
      extendClaims(rig.deps, { actor, target: { kind: "slots", slots: { host, gpus } }, byMs });
    assert.equal(say().extend(extend(BOB, "gpu-a", [0, 1], 4 * HOUR_MS)), "gpu-a:0,1 is yours until 22:00.");
    assert.equal(
      say().extend(extend(BOB, "gpu-a", null, 20 * HOUR_MS)),
      "gpu-a:0,1 is yours until tomorrow 10:00: capped at 1 d from now, the longest claim.",
    );
    assert.equal(
      say().extend(extend(EVE, "gpu-a", [0], HOUR_MS)),
      `gpu-a:0 is claimed by <@${BOB}> until tomorrow 10:00. Only the holder can extend a claim.`,
    );
    assert.equal(
      say().extend(extend(EVE, "gpu-b", null, HOUR_MS)),
      "You hold no claim on gpu-b: `/gpu claim gpu-b for 4h` takes it.",
    );
    assert.deepEqual(
      rig.state.audit
        .byAction("claim-extend")
        .map((entry) => [entry.actor, entry.detail.untilMs, entry.detail.capped]),
      [
        [BOB, T0 + 12 * HOUR_MS, false],
        [BOB, T0 + 24 * HOUR_MS, true],
      ],
    );
  });
});
