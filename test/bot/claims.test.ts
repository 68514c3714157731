import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { viewProblems } from "../../src/playground/slack-emulator/validate-blocks.ts";
import { observed } from "../checks/builders.ts";
import {
  ALICE,
  allHosts,
  BOB,
  BotHarness,
  CAROL,
  EVE,
  idleHost,
  standardConfig,
} from "../helpers/bot-harness.ts";
import { actionIds as buttons, lastDm, shownText as shown } from "../helpers/shown-blocks.ts";

for (const transport of ["socket", "http"] as const) {
  describe(`100 concurrent claims of one GPU over ${transport === "socket" ? "Socket Mode" : "signed HTTP"}`, {
    timeout: 60_000,
  }, () => {
    let h: BotHarness;
    afterEach(() => h.closeChecked());

    test("exactly one wins; the 99 others hear who holds it, with Notify me when free", async () => {
      h = await BotHarness.start({ transport, config: standardConfig({ "gpu-a": { owners: [ALICE] } }) });
      const claimers = Array.from({ length: 100 }, (_, i) => `U0C${String(i).padStart(3, "0")}`);
      for (const id of claimers) h.emulator.addUser({ id });
      h.pollFor(2, allHosts(idleHost("gpu-a")));
      const deliveries = await Promise.all(
        claimers.map((user) => h.user.slashCommand({ user, text: "claim gpu-a:0 for 4h" })),
      );
      assert.ok(deliveries.every((delivery) => delivery.acked));
      const held = h.state.claims.activeOn("gpu-a", h.clock.now());
      assert.equal(held.length, 1);
      const winner = held[0]!.user;
      const texts = deliveries.map((delivery) => String(delivery.ackPayload?.text));
      assert.deepEqual(
        texts.filter((text) => text.startsWith("You hold")),
        ["You hold gpu-a:0 until 14:02 (4 h)."],
      );
      const conflicts = deliveries.filter(
        (delivery) => delivery.ackPayload?.text === `gpu-a:0 is claimed by <@${winner}> until 14:02.`,
      );
      assert.equal(conflicts.length, 99);
      for (const delivery of conflicts) {
        assert.deepEqual(buttons(delivery.ackPayload?.blocks as unknown[]), ["queue_wait", "claim_notify"]);
      }
      assert.equal(h.state.audit.byAction("claim").length, 1);
      await h.settle();
    });
  });
}

describe("claims over the real Bolt app (Socket Mode)", { timeout: 60_000 }, () => {
  let h: BotHarness;
  afterEach(() => h.closeChecked());

  const start = async (hosts: Record<string, Record<string, unknown>> = { "gpu-a": { owners: [ALICE] } }) => {
    h = await BotHarness.start({ transport: "socket", config: standardConfig(hosts) });
  };

  test("waitlist: Notify me when free, then a DM with a Claim button when it frees; the click claims it", async () => {
    await start();
    h.pollFor(1, allHosts(idleHost("gpu-a")));
    await h.user.slashCommand({ user: BOB, text: "claim gpu-a:0,1 for 2h llama sft" });
    const conflict = await h.user.slashCommand({ user: EVE, text: "claim gpu-a:1" });
    assert.equal(conflict.ackPayload?.text, `gpu-a:1 is claimed by <@${BOB}> until 12:01 (llama sft).`);
    await h.user.clickButton({ user: EVE, message: h.latestEphemeral(EVE), actionId: "claim_notify" });
    await h.emulator.waitFor(() => h.latestEphemeral(EVE).text.startsWith("I'll DM"), "the waitlist answer");
    assert.equal(h.latestEphemeral(EVE).text, "I'll DM you when gpu-a:1 is free.");
    const released = await h.user.slashCommand({ user: BOB, text: "release" });
    assert.equal(released.ackPayload?.text, "Released gpu-a:0,1.");
    await h.settle();
    assert.deepEqual(h.dmTexts(EVE), ["gpu-a:1 is free now"]);
    await h.user.clickButton({ user: EVE, message: lastDm(h, EVE), actionId: "claim_slots" });
    await h.emulator.waitFor(() => lastDm(h, EVE).edits.length === 1, "the DM replaced by the answer");
    assert.equal(lastDm(h, EVE).text, "You hold gpu-a:1 until 18:01 (8 h).");
    assert.deepEqual(
      h.state.claims.activeOn("gpu-a", h.clock.now()).map((claim) => [claim.user, claim.gpuIndex]),
      [[EVE, 1]],
    );
    await h.settle();
  });

  test("the reminder DM's Extend 4 h extends; at the end the holder is told; audited throughout", async () => {
    await start();
    h.pollFor(1, allHosts(idleHost("gpu-a")));
    await h.user.slashCommand({ user: BOB, text: "claim gpu-a:2 for 2h" });
    const busy = (atMs: number) => [observed("gpu-a", atMs, [0, 0, 80, 0], [])];
    h.runFor(60, busy);
    await h.settle();
    assert.deepEqual(h.dmTexts(BOB), ["Your claim on gpu-a:2 ends at 12:01"]);
    await h.user.clickButton({ user: BOB, message: lastDm(h, BOB), actionId: "claim_extend_4h" });
    await h.emulator.waitFor(() => lastDm(h, BOB).edits.length === 1, "the DM replaced");
    assert.equal(lastDm(h, BOB).text, "gpu-a:2 is yours until 16:01.");
    assert.deepEqual(buttons(lastDm(h, BOB).blocks), [], "the buttons are gone");
    h.runFor(239, busy);
    await h.settle();
    assert.equal(h.dmTexts(BOB).length, 1);
    h.runFor(1, busy);
    await h.settle();
    assert.deepEqual(h.dmTexts(BOB).slice(1), ["Your claim on gpu-a:2 ends at 16:01"]);
    h.runFor(60, busy);
    await h.settle();
    assert.deepEqual(h.dmTexts(BOB).slice(2), ["⌛ Your claim on gpu-a:2 ended at 16:01."]);
    assert.deepEqual(
      ["claim", "claim-extend", "claim-expire"].map((action) =>
        h.state.audit.byAction(action).map((entry) => [entry.actor, entry.host]),
      ),
      [[[BOB, "gpu-a"]], [[BOB, "gpu-a"]], [["gpu-warden", "gpu-a"]]],
    );
  });

  test("force release: the warden's conflict answer offers it, the holder gets a DM; anyone else is refused", async () => {
    await start();
    h.pollFor(1, allHosts(idleHost("gpu-a")));
    await h.user.slashCommand({ user: BOB, text: "claim gpu-a for 1d big run" });
    const refused = await h.user.slashCommand({ user: EVE, text: "release gpu-a" });
    assert.equal(
      refused.ackPayload?.text,
      `gpu-a is claimed by <@${BOB}> until tomorrow 10:01 (big run). Only <@${BOB}>, the cost warden (<@${CAROL}>) or an admin (<@U0DAVE>) can release it.`,
    );
    const eveConflict = await h.user.slashCommand({ user: EVE, text: "claim gpu-a:0" });
    assert.deepEqual(buttons(eveConflict.ackPayload?.blocks as unknown[]), ["queue_wait", "claim_notify"]);
    const wardenConflict = await h.user.slashCommand({ user: CAROL, text: "claim gpu-a:0" });
    assert.deepEqual(buttons(wardenConflict.ackPayload?.blocks as unknown[]), [
      "queue_wait",
      "claim_notify",
      "claim_force_release",
    ]);
    await h.user.clickButton({
      user: CAROL,
      message: h.latestEphemeral(CAROL),
      actionId: "claim_force_release",
    });
    await h.emulator.waitFor(() => h.latestEphemeral(CAROL).text.startsWith("Released"), "the answer");
    assert.equal(h.latestEphemeral(CAROL).text, `Released gpu-a, claimed by <@${BOB}>; they have been told.`);
    await h.settle();
    assert.deepEqual(h.dmTexts(BOB), [
      `🔓 <@${CAROL}> (the cost warden) released your claim on gpu-a (big run), which ran until tomorrow 10:01.`,
    ]);
    assert.deepEqual(
      h.state.audit
        .byAction("claim-force-release")
        .map((entry) => [entry.actor, entry.forced, entry.detail.holder]),
      [[CAROL, true, BOB]],
    );
  });

  test("the idle alert names the claimant, and its Claim it conflict answer offers the waitlist", async () => {
    await start();
    h.pollFor(1, allHosts(idleHost("gpu-a")));
    const early = await h.user.slashCommand({ user: EVE, text: "claim gpu-c" });
    assert.equal(
      early.ackPayload?.text,
      "no host gpu-c; did you mean gpu-a?\nRight form: `/gpu claim <host>[:<gpus>] [for <duration>] [note…] [--wait] [project=<name>]` — e.g. " +
        "`/gpu claim gpu-a:0,1 for 4h llama sft` or `/gpu claim <n> [<model>] [for <duration>] [note…] [--wait] [project=<name>]` — e.g. `/gpu claim 2 a100 for 8h tuning --wait` or " +
        "`/gpu claim <n> gpus>=<GiB> [for <duration>] [note…] [--valley] [--wait]` — e.g. `/gpu claim 2 gpus>=40g for 8h --valley`",
    );
    await h.user.slashCommand({ user: BOB, text: "claim gpu-a:3 for 4h" });
    h.pollFor(6, allHosts(idleHost("gpu-a")));
    await h.settle();
    assert.match(shown(h.alertMessage("gpu-a").blocks), /Claimed by: <@U0BOB>/);
    await h.user.clickButton({ user: EVE, message: h.alertMessage("gpu-a"), actionId: "claim_host" });
    await h.emulator.waitFor(() => h.ephemeralTexts(EVE).length === 2, "the answer");
    const answer = h.latestEphemeral(EVE);
    assert.equal(answer.text, `gpu-a:3 is claimed by <@${BOB}> until 14:01.`);
    assert.deepEqual(buttons(answer.blocks), ["queue_wait", "claim_notify"]);
  });

  test("App Home: published on app_home_opened, refreshed when claims change, Release works from it", async () => {
    await start({ "gpu-a": { owners: [ALICE] }, "gpu-b": {} });
    h.pollFor(
      1,
      allHosts(idleHost("gpu-a"), (atMs) => observed("gpu-b", atMs, [97, 0], [])),
    );
    await h.user.event({ type: "app_home_opened", user: BOB });
    await h.settle();
    const first = h.emulator.home(BOB);
    assert.ok(first !== undefined, "published");
    assert.deepEqual(viewProblems(first.view, "home"), []);
    const text = shown(first.view.blocks as unknown[]);
    assert.match(text, /\*Your claims:\* none\./);
    assert.match(text, /\*Cost warden this month:\* <@U0CAROL>/);
    assert.match(text, /• \*gpu-a\* idle for 1 min · util `0 0 0 0` %/);
    assert.match(text, /• \*gpu-b\* in use · util `97 0` % · GPU 0 in use, unclaimed/);
    await h.user.slashCommand({ user: BOB, text: "claim gpu-a:0,1 for 3h eval" });
    await h.settle();
    const after = h.emulator.home(BOB)!;
    assert.match(
      shown(after.view.blocks as unknown[]),
      /\*gpu-a:0,1\* \(eval\) until \*13:01\* \(3 h left\) · now `0 0` %/,
    );
    assert.match(
      shown(after.view.blocks as unknown[]),
      /• \*gpu-a\* .*GPUs 0,1 claimed by <@U0BOB> until 13:01/,
    );
    await h.user.clickButton({ user: BOB, view: after, actionId: "claim_release" });
    await h.emulator.waitFor(
      () => shown(h.emulator.home(BOB)?.view.blocks as unknown[]).startsWith("Released gpu-a:0,1."),
      "the Home tab with the answer on top",
    );
    assert.match(shown(h.emulator.home(BOB)?.view.blocks as unknown[]), /\*Your claims:\* none\./);
    assert.equal(h.state.claims.activeAt(h.clock.now()).length, 0);
    await h.user.event({ type: "app_home_opened", user: EVE, tab: "messages" });
    await h.settle();
    assert.equal(h.emulator.home(EVE), undefined, "the Messages tab publishes nothing");
  });

  test("App Home for a 200-host fleet stays within 100 blocks and accounts for every host", async () => {
    const hosts = Array.from({ length: 200 }, (_, i) => `node-${String(i).padStart(3, "0")}`);
    await start({});
    h.pollFor(2, (atMs) =>
      hosts.map((host, i) =>
        observed(host, atMs, i % 4 === 0 ? [0, 0, 0, 0, 0, 0, 0, 0] : [90, 0, 0, 0, 0, 0, 0, 0], []),
      ),
    );
    for (const [i, user] of [BOB, EVE].entries()) {
      await h.user.slashCommand({ user, text: `claim node-00${i}:0-3 for 2h` });
    }
    await h.user.event({ type: "app_home_opened", user: BOB });
    await h.settle();
    const home = h.emulator.home(BOB)!;
    const blocks = home.view.blocks as unknown[];
    assert.ok(blocks.length <= 100, `${blocks.length} blocks`);
    assert.deepEqual(viewProblems(home.view, "home"), []);
    const text = shown(blocks);
    const listed = text.split("\n").filter((line) => line.startsWith("• ")).length;
    const more = Number(/…and (\d+) more hosts/.exec(text)?.[1] ?? 0);
    assert.equal(listed + more, 200);
    assert.match(text, /\*Fleet\* · 200 hosts · 1,600 GPUs, 150 busy/);
    assert.equal(h.state.claims.activeAt(h.clock.now()).length, 8);
  });
});
