import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { MINUTE_MS } from "../../src/shared/clock.ts";
import { gpuProcess, observed, reading, session } from "../checks/builders.ts";
import {
  ALICE,
  allHosts,
  BOB,
  BotHarness,
  CAROL,
  EVE,
  type HostAt,
  poweroffRuns,
  standardConfig,
} from "../helpers/bot-harness.ts";

/**
 * gpu-b holds alice's notebook on GPU 0 and eve's on GPU 1, both at 0 %, neither typed into for an
 * hour; `typedAtMs` is when alice typed there again (her session's idle time restarts then).
 */
const sharedHost =
  (startMs: number, typedAtMs: () => number | null): HostAt =>
  (atMs) => {
    const minutes = (sinceMs: number) => Math.floor((atMs - sinceMs) / MINUTE_MS);
    const typed = typedAtMs();
    const alice = typed === null ? 60 + minutes(startMs) : minutes(typed);
    const base = observed(
      "gpu-b",
      atMs,
      [0, 0, 0, 0],
      [session("alice", alice), session("eve", 60 + minutes(startMs))],
    );
    const kernel = (user: string) => ({
      memUsedMiB: 20_480,
      processes: [gpuProcess(user, "python", 20_480)],
    });
    return {
      ...base,
      gpus: [reading(0, 0, kernel("alice")), reading(1, 0, kernel("eve")), ...base.gpus.slice(2)],
    };
  };

describe("Done with mine, over the real Bolt app and a real store", { timeout: 120_000 }, () => {
  let h: BotHarness;
  afterEach(() => h.closeChecked());

  /** `user` presses *Done with mine* on gpu-b's alert: what they are answered. */
  async function pressDone(user: string): Promise<string> {
    const before = h.emulator.ephemerals(user).length;
    await h.user.clickButton({ user, message: h.alertMessage("gpu-b"), actionId: "done_with_mine" });
    await h.emulator.waitFor(() => h.emulator.ephemerals(user).length > before, `the answer to ${user}`);
    await h.settle();
    return h.latestEphemeral(user).text ?? "";
  }

  async function start(): Promise<{ typed: { atMs: number | null } }> {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig(
        { "gpu-b": { owners: [BOB], stop: "script" } },
        {
          policy: { idle_for_minutes: 5 },
          team: { timezone: "Europe/Berlin", logins: { [ALICE]: ["alice"], [EVE]: ["eve"] } },
        },
      ),
    });
    const typed = { atMs: null as number | null };
    const host = sharedHost(h.clock.now(), () => typed.atMs);
    h.pollFor(10, allHosts(host));
    await h.settle();
    return { typed };
  }

  test("each person with work on a shared host lets theirs go; the host stops once, when the last of them has", async () => {
    await start();
    const alert = h.alertMessage("gpu-b");
    assert.match(
      JSON.stringify(alert.blocks),
      /"Done with mine"/,
      "the alert offers it: two people's work holds the host",
    );
    assert.match(
      JSON.stringify(alert.blocks),
      /Recent input on gpu-b: alice 1 h 5 min ago[^"]*eve 1 h 5 min ago/,
    );

    assert.equal(
      await pressDone(CAROL),
      "Nothing on gpu-b is yours: no process or session of your logins (`team.logins` in the config), so there is nothing to let go.",
    );

    const noted = "Noted: your work on gpu-b may go. It stops once the bot hears the same from <@U0EVE>.";
    assert.equal(await pressDone(ALICE), noted);
    assert.equal(await pressDone(ALICE), noted, "pressed twice, said once in the thread");
    const said = h.threadTexts("gpu-b").filter((text) => text.includes("is done with"));
    assert.deepEqual(said, [
      "<@U0ALICE> is done with their work on gpu-b. It stops once the bot hears the same from <@U0EVE>.",
    ]);
    assert.deepEqual(poweroffRuns(h), [], "nothing stops for alice alone");
    const refreshed = JSON.stringify(h.alertMessage("gpu-b").blocks);
    assert.match(
      refreshed,
      /Recent input on gpu-b: eve 1 h \d+ min ago \(/,
      "the Stop confirm still warns of eve's session",
    );
    assert.doesNotMatch(refreshed, /alice 1 h \d+ min ago/, "and no longer of alice's, which she let go");

    assert.match(await pressDone(EVE), /^Stopping gpu-b: its progress and outcome are in/);
    await h.emulator.waitFor(() => h.state.stopRuns.latestFor("gpu-b")?.state === "done", "the stop");
    assert.deepEqual(poweroffRuns(h), ["gpu-b"]);
    assert.deepEqual(
      h.state.audit.byAction("done-with-mine").map((entry) => entry.actor),
      [ALICE, ALICE, EVE],
    );
    const stop = h.state.audit.byAction("stop").at(-1);
    assert.equal(stop?.actor, EVE);
  });

  test("coming back ends it: alice types, the alert ends, and the next alert waits for her again", async () => {
    const { typed } = await start();
    await pressDone(ALICE);
    h.clock.advance(2 * MINUTE_MS);
    typed.atMs = h.clock.now();
    const host = sharedHost(h.clock.now() - 10 * MINUTE_MS, () => typed.atMs);
    h.pollFor(2, allHosts(host));
    await h.settle();
    assert.equal(
      h.state.alerts.openFor("gpu-b", "idle"),
      null,
      "her session is active again: the host is in use",
    );
    h.pollFor(10, allHosts(host));
    await h.settle();
    assert.equal(
      await pressDone(EVE),
      "Noted: your work on gpu-b may go. It stops once the bot hears the same from <@U0ALICE>.",
    );
    assert.deepEqual(poweroffRuns(h), []);
  });

  test("it holds across the host's later alerts until its person comes back: a colleague's busy spell in between does not end it", async () => {
    const { typed } = await start();
    await pressDone(ALICE);
    const idle = sharedHost(h.clock.now() - 10 * MINUTE_MS, () => typed.atMs);
    const eveBusy: HostAt = (atMs) => {
      const base = idle(atMs);
      if (!base.ok) return base;
      return { ...base, gpus: base.gpus.map((gpu) => (gpu.index === 1 ? { ...gpu, utilPct: 95 } : gpu)) };
    };
    h.pollFor(15, allHosts(eveBusy));
    await h.settle();
    assert.equal(h.state.alerts.openFor("gpu-b", "idle"), null, "eve's cell ran: the alert ended");
    h.pollFor(130, allHosts(idle));
    await h.settle();
    assert.notEqual(
      h.state.alerts.openFor("gpu-b", "idle"),
      null,
      "idle again after the 2 h protection: a new alert",
    );
    assert.match(
      await pressDone(EVE),
      /^Stopping gpu-b/,
      "alice said it on the earlier alert and did not come back",
    );
    await h.emulator.waitFor(() => h.state.stopRuns.latestFor("gpu-b")?.state === "done", "the stop");
    assert.deepEqual(poweroffRuns(h), ["gpu-b"]);
  });

  test("the owner's Done with mine is not a Stop: with nothing of his there he lets nothing go", async () => {
    await start();
    assert.match(await pressDone(BOB), /^Nothing on gpu-b is yours/);
    assert.deepEqual(poweroffRuns(h), []);
  });
});
