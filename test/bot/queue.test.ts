import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { helpSections } from "../../src/bot/commands/command-table.ts";
import { parseCommand } from "../../src/bot/commands/parse-command.ts";
import { translator } from "../../src/messages/translator.ts";
import { HOUR_MS } from "../../src/shared/clock.ts";
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

const EN = translator({ language: "en", timeZone: "UTC", currency: "USD" });

describe("the waiting-list grammar", () => {
  test("--wait on both claim forms, queue and queue cancel; help lists them", () => {
    assert.deepEqual(parseCommand("claim 2 a100 for 8h tuning --wait"), {
      kind: "claim",
      target: { kind: "count", count: 2, model: "a100" },
      durationMs: 8 * HOUR_MS,
      note: "tuning",
      wait: true,
    });
    assert.deepEqual(parseCommand("claim gpu-a:0 --wait"), {
      kind: "claim",
      target: { kind: "slots", slots: { host: "gpu-a", gpus: [0] } },
      durationMs: null,
      note: "",
      wait: true,
    });
    assert.deepEqual(parseCommand("claim gpu-a:0 —wait for 2h"), {
      kind: "claim",
      target: { kind: "slots", slots: { host: "gpu-a", gpus: [0] } },
      durationMs: 2 * HOUR_MS,
      note: "",
      wait: true,
    });
    assert.equal("wait" in parseCommand("claim gpu-a:0"), false);
    assert.deepEqual(parseCommand("queue"), { kind: "queue", cancel: false });
    assert.deepEqual(parseCommand("Queue CANCEL"), { kind: "queue", cancel: true });
    assert.deepEqual(parseCommand("queue cancel now"), {
      kind: "invalid",
      problem: { kind: "unexpected", extra: "now", after: "queue" },
      command: "queue",
    });
    assert.match(
      helpSections(EN).join("\n"),
      /\/gpu queue \[cancel\] +the waiting list with each request's position/,
    );
    assert.match(
      helpSections(EN).join("\n"),
      /\/gpu claim <n> \[<model>\] \[for <duration>\] \[note…\] \[--wait\]/,
    );
  });
});

describe("the waiting list over the real Bolt app (Socket Mode)", { timeout: 120_000 }, () => {
  let h: BotHarness;
  afterEach(() => h.closeChecked());

  test("--wait queues; a release grants it with a DM naming CUDA_VISIBLE_DEVICES; Confirm keeps it", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig({ "gpu-a": { owners: [ALICE] } }),
    });
    h.pollFor(1, allHosts(idleHost("gpu-a")));
    await h.user.slashCommand({ user: BOB, text: "claim gpu-a for 2h" });
    const queued = await h.user.slashCommand({ user: EVE, text: "claim 2 for 8h tuning --wait" });
    assert.equal(
      queued.ackPayload?.text,
      "You are in line for 2 GPUs (8 h) (tuning): you are next. I'll DM you when it is yours; `/gpu queue cancel` leaves the line.",
    );
    const list = await h.user.slashCommand({ user: CAROL, text: "queue" });
    assert.equal(
      shown(list.ackPayload?.blocks as unknown[]),
      `*Waiting (1)*\n1. <@${EVE}>: 2 GPUs for 8 h (tuning), since 10:01\n` +
        "Estimated times, from the hour-of-week usage of the last 8 weeks\n" +
        "1. no estimate yet: 0 of the 28 days of usage history an estimate needs",
    );
    await h.user.slashCommand({ user: BOB, text: "release" });
    await h.settle();
    assert.deepEqual(h.dmTexts(EVE), ["gpu-a:0,1 is yours until 18:01"]);
    const dm = lastDm(h, EVE);
    assert.equal(
      shown(dm.blocks),
      "🎉 Your turn: *gpu-a:0,1* are yours until *18:01* (8 h) (tuning).\n• *gpu-a*, GPU 0,1: `CUDA_VISIBLE_DEVICES=0,1`\n" +
        "Confirm by 10:16, or it passes to the next in line.",
    );
    assert.deepEqual(buttons(dm.blocks), ["queue_confirm", "claim_extend_4h", "claim_release"]);
    await h.user.clickButton({ user: EVE, message: dm, actionId: "queue_confirm" });
    await h.emulator.waitFor(() => lastDm(h, EVE).edits.length === 1, "the DM replaced by the answer");
    assert.equal(lastDm(h, EVE).text, "gpu-a:0,1 is yours until 18:01.");
    h.runFor(30, allHosts(idleHost("gpu-a")));
    await h.settle();
    assert.deepEqual(
      h.state.claims.activeOn("gpu-a", h.clock.now()).map((claim) => [claim.gpuIndex, claim.user]),
      [
        [0, EVE],
        [1, EVE],
      ],
    );
    assert.deepEqual(
      ["queue-join", "queue-grant", "queue-confirm", "queue-pass"].map(
        (action) => h.state.audit.byAction(action).length,
      ),
      [1, 1, 1, 0],
    );
  });

  test("Wait for it on a conflict; unconfirmed, the grant passes on; /gpu queue and cancel", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig({ "gpu-a": { owners: [ALICE] } }),
    });
    h.pollFor(1, allHosts(idleHost("gpu-a")));
    await h.user.slashCommand({ user: BOB, text: "claim gpu-a:0 for 1h" });
    const conflict = await h.user.slashCommand({ user: EVE, text: "claim gpu-a:0 for 2h eval" });
    assert.deepEqual(buttons(conflict.ackPayload?.blocks as unknown[]), ["queue_wait", "claim_notify"]);
    await h.user.clickButton({ user: EVE, message: h.latestEphemeral(EVE), actionId: "queue_wait" });
    await h.emulator.waitFor(() => h.latestEphemeral(EVE).text.startsWith("You are in line"), "the answer");
    await h.user.slashCommand({ user: ALICE, text: "claim gpu-a:0 --wait" });
    await h.user.slashCommand({ user: CAROL, text: "claim gpu-a:0 --wait" });
    const list = await h.user.slashCommand({ user: ALICE, text: "queue" });
    assert.equal(
      shown(list.ackPayload?.blocks as unknown[]),
      `*Waiting (3)*\n1. <@${EVE}>: gpu-a:0 for 2 h (eval), since 10:01\n` +
        `2. <@${ALICE}>: gpu-a:0 for 8 h, since 10:01 ← you\n3. <@${CAROL}>: gpu-a:0 for 8 h, since 10:01\n` +
        "`/gpu queue cancel` takes you out of line.\n" +
        "Estimated times, from the hour-of-week usage of the last 8 weeks\n" +
        [1, 2, 3]
          .map(
            (position) => `${position}. no estimate yet: 0 of the 28 days of usage history an estimate needs`,
          )
          .join("\n"),
    );
    const cancel = await h.user.slashCommand({ user: ALICE, text: "queue cancel" });
    assert.equal(cancel.ackPayload?.text, "You left the line for gpu-a:0.");
    h.runFor(60, allHosts(idleHost("gpu-a")));
    await h.settle();
    assert.deepEqual(h.dmTexts(EVE).slice(-1), ["gpu-a:0 is yours until 13:01"]);
    h.runFor(14, allHosts(idleHost("gpu-a")));
    await h.settle();
    assert.equal(h.state.claims.activeOn("gpu-a", h.clock.now())[0]?.user, EVE);
    h.runFor(1, allHosts(idleHost("gpu-a")));
    await h.settle();
    assert.equal(h.dmTexts(EVE).at(-1)?.startsWith("⌛ gpu-a:0 was not confirmed by 11:16"), true);
    assert.deepEqual(h.dmTexts(CAROL), ["gpu-a:0 is yours until 19:16"]);
    assert.deepEqual(
      h.state.claims.activeOn("gpu-a", h.clock.now()).map((claim) => [claim.gpuIndex, claim.user]),
      [[0, CAROL]],
    );
    assert.deepEqual(
      ["queue-join", "queue-cancel", "queue-grant", "queue-pass"].map(
        (action) => h.state.audit.byAction(action).length,
      ),
      [3, 1, 2, 1],
    );
  });
});

for (const transport of ["socket", "http"] as const) {
  describe(`no GPU is ever granted twice (${transport === "socket" ? "Socket Mode" : "signed HTTP"})`, {
    timeout: 120_000,
  }, () => {
    let h: BotHarness;
    afterEach(() => h.closeChecked());

    test("a release freeing 2 GPUs while 50 queued requests arrive concurrently: each GPU granted once, in line order", async () => {
      h = await BotHarness.start({ transport, config: standardConfig({ "gpu-a": { owners: [ALICE] } }) });
      const waiters = Array.from({ length: 50 }, (_, i) => `U0W${String(i).padStart(3, "0")}`);
      for (const id of waiters) h.emulator.addUser({ id });
      h.pollFor(1, allHosts(idleHost("gpu-a")));
      await h.user.slashCommand({ user: BOB, text: "claim gpu-a:0,1 for 2h" });
      await h.user.slashCommand({ user: CAROL, text: "claim gpu-a:2,3 for 2h" });
      const first = await Promise.all(
        waiters.slice(0, 25).map((user) => h.user.slashCommand({ user, text: "claim 1 for 1h --wait" })),
      );
      assert.ok(first.every((delivery) => String(delivery.ackPayload?.text).startsWith("You are in line")));
      const [released, ...rest] = await Promise.all([
        h.user.slashCommand({ user: BOB, text: "release" }),
        ...waiters.slice(25).map((user) => h.user.slashCommand({ user, text: "claim 1 for 1h --wait" })),
      ]);
      assert.equal(released?.ackPayload?.text, "Released gpu-a:0,1.");
      assert.ok(rest.every((delivery) => delivery.acked));
      await h.settle();
      const grants = h.state.queue.allGrants();
      const perGpu = new Map<string, number>();
      for (const grant of grants)
        perGpu.set(
          `${grant.host}:${grant.gpuIndex}`,
          (perGpu.get(`${grant.host}:${grant.gpuIndex}`) ?? 0) + 1,
        );
      const held = h.state.claims.activeOn("gpu-a", h.clock.now());
      const direct = held.filter(
        (claim) => claim.user !== CAROL && !grants.some((g) => g.claimId === claim.id),
      );
      assert.deepEqual(
        [...perGpu.values()].every((count) => count === 1),
        true,
      );
      assert.equal(grants.length + direct.length, 2, "the two freed GPUs went out exactly once");
      assert.deepEqual(held.map((claim) => claim.gpuIndex).sort(), [0, 1, 2, 3]);
      const queuedFirst = h.state.queue.allGrants().map((grant) => h.state.queue.byId(grant.requestId)?.user);
      assert.deepEqual(queuedFirst, waiters.slice(0, grants.length), "granted in line order");
      for (const user of queuedFirst) assert.equal(h.dmTexts(user ?? "").length, 1);
      assert.equal(h.state.queue.waiting().length, 50 - 2);
    });
  });
}
