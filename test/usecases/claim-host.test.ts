import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { HOUR_MS } from "../../src/shared/clock.ts";
import { claimHost } from "../../src/usecases/claims/claim-host.ts";
import { observed } from "../checks/builders.ts";
import { ALICE, BOB, EVE, T0, UseCaseRig } from "../helpers/bot-harness.ts";
import { saidBy } from "./claim-said.ts";

describe("claimHost (the alert's Claim it)", () => {
  let rig: UseCaseRig;
  const say = () => saidBy(rig.deps.readers.channel, () => rig.clock.now());
  afterEach(() => rig.close());

  const start = () => {
    rig = new UseCaseRig({ team: { timezone: "Europe/Berlin" }, hosts: { "gpu-a": { owners: [ALICE] } } });
    rig.fleet.observe(observed("gpu-a", T0, [0, 0]));
  };

  test("claims the whole host for the clicker for 8 h, audited, noted in the thread, alert refreshed", () => {
    start();
    const result = claimHost(rig.deps, { host: "gpu-a", actor: BOB, alertId: 5 });
    assert.equal(say().claim(result), "You hold gpu-a until 18:00 (8 h).");
    assert.deepEqual(
      rig.state.claims
        .activeOn("gpu-a", T0)
        .map((claim) => [claim.user, claim.gpuIndex, claim.fromMs, claim.untilMs]),
      [[BOB, null, T0, T0 + 8 * HOUR_MS]],
    );
    assert.deepEqual(rig.alerts.calls, [
      { kind: "thread", host: "gpu-a", text: `gpu-a claimed by <@${BOB}> until 18:00.` },
      { kind: "refresh", host: "gpu-a" },
    ]);
    const [entry] = rig.state.audit.byAction("claim");
    assert.deepEqual([entry?.actor, entry?.host, entry?.detail.alertId], [BOB, "gpu-a", 5]);
  });

  test("a second click by the holder changes nothing; someone else hears who holds it and until when", () => {
    start();
    rig.state.claims.add({
      host: "gpu-a",
      gpuIndex: 1,
      user: EVE,
      fromMs: T0,
      untilMs: T0 + 2 * HOUR_MS,
      note: "llama sft",
    });
    assert.equal(
      say().claim(claimHost(rig.deps, { host: "gpu-a", actor: BOB })),
      `gpu-a:1 is claimed by <@${EVE}> until 12:00 (llama sft).`,
    );
    rig.clock.advance(3 * HOUR_MS);
    assert.equal(claimHost(rig.deps, { host: "gpu-a", actor: BOB }).kind, "claimed");
    assert.equal(
      say().claim(claimHost(rig.deps, { host: "gpu-a", actor: BOB })),
      "You already hold gpu-a until 21:00: `/gpu extend gpu-a 4h` holds it longer.",
    );
    assert.equal(rig.state.claims.activeOn("gpu-a", rig.clock.now()).length, 1);
  });

  test("an unknown host gets a suggestion and no claim", () => {
    start();
    assert.equal(
      say().claim(claimHost(rig.deps, { host: "gpu-aa", actor: BOB })),
      "no host gpu-aa; did you mean gpu-a?",
    );
    assert.equal(rig.state.claims.activeAt(T0).length, 0);
  });
});
