import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { parseCommand } from "../../src/bot/commands/parse-command.ts";
import { HOUR_MS } from "../../src/shared/clock.ts";
import {
  ALICE,
  allHosts,
  BOB,
  BotHarness,
  CAROL,
  DAVE,
  EVE,
  idleHost,
  standardConfig,
} from "../helpers/bot-harness.ts";
import { actionIds as buttons, lastDm, shownText as shown } from "../helpers/shown-blocks.ts";

const HOSTS = ["gpu-a", "gpu-b", "gpu-c"] as const;
/** 50 people: W00–W09 in `paper` (priority 10), W10–W29 in `train` (5), the rest in no project. */
const WAITERS = Array.from({ length: 50 }, (_, i) => `U0W${String(i).padStart(2, "0")}`);

describe("project=X in the claim grammar", () => {
  test("anywhere after the target, with --wait", () => {
    assert.deepEqual(parseCommand("claim 2 a100 for 8h project=paper tuning --wait"), {
      kind: "claim",
      target: { kind: "count", count: 2, model: "a100" },
      durationMs: 8 * HOUR_MS,
      note: "tuning",
      wait: true,
      project: "paper",
    });
  });
});

describe("priorities over the real Bolt app", { timeout: 300_000 }, () => {
  let h: BotHarness;
  afterEach(() => h.closeChecked());

  test("a release racing 50 waiting requests: each GPU granted once, by priority then first come", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig(Object.fromEntries(HOSTS.map((host) => [host, {}])), {
        projects: {
          paper: { members: WAITERS.slice(0, 10), priority: 10 },
          train: { members: WAITERS.slice(10, 30), priority: 5 },
        },
      }),
    });
    const fleet = allHosts(...HOSTS.map(idleHost));
    h.pollFor(1, fleet);
    for (const host of HOSTS) await h.user.slashCommand({ user: DAVE, text: `claim ${host} for 4h` });
    const shuffled = [...WAITERS].sort((a, b) => (a.slice(-1) + a).localeCompare(b.slice(-1) + b));
    await Promise.all(shuffled.map((user) => h.user.slashCommand({ user, text: "claim 1 for 2h --wait" })));
    const line = h.state.queue.waiting();
    assert.equal(line.length, 50);
    const expected = [...line]
      .sort((a, b) => b.priority - a.priority || a.id - b.id)
      .slice(0, 12)
      .map((request) => request.user);
    await Promise.all([
      ...HOSTS.map((host) => h.user.slashCommand({ user: DAVE, text: `release ${host}` })),
      ...WAITERS.map((user) => h.user.slashCommand({ user, text: "queue" })),
      (async () => h.tickClaims())(),
    ]);
    await h.settle();
    const grants = h.state.queue.allGrants();
    const perGpu = new Map<string, number>();
    for (const grant of grants) {
      const key = `${grant.host}:${grant.gpuIndex}`;
      perGpu.set(key, (perGpu.get(key) ?? 0) + 1);
    }
    assert.equal(perGpu.size, 12);
    assert.deepEqual([...new Set(perGpu.values())], [1]);
    const granted = h.state.audit.byAction("queue-grant").map((entry) => entry.detail.holder as string);
    assert.deepEqual(new Set(granted), new Set(expected));
    const priorities = granted.map((user) => line.find((request) => request.user === user)?.priority);
    assert.deepEqual(
      priorities,
      [...priorities].sort((a, b) => (b ?? 0) - (a ?? 0)),
    );
    assert.deepEqual(h.state.queue.waiting().length, 38);
    for (const user of expected) assert.match(h.dmTexts(user).join("\n"), /is yours until/);
    assert.throws(
      () =>
        h.state.claims.add({
          host: "gpu-a",
          gpuIndex: 0,
          user: EVE,
          fromMs: h.clock.now(),
          untilMs: h.clock.now() + HOUR_MS,
          note: "",
        }),
      /UNIQUE constraint failed/,
    );
  });

  test("project=X must be one of the person's; /gpu queue shows priority and project; Release ends a grant", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig(
        { "gpu-a": {} },
        { projects: { paper: { members: [ALICE, EVE], priority: 10 }, batch: { members: [BOB] } } },
      ),
    });
    h.pollFor(1, allHosts(idleHost("gpu-a")));
    await h.user.slashCommand({ user: DAVE, text: "claim gpu-a for 1h" });
    const refused = await h.user.slashCommand({ user: ALICE, text: "claim 1 --wait project=batch" });
    assert.equal(
      refused.ackPayload?.text,
      "You are not a member of project `batch`: an admin adds you under `projects:` in the config.",
    );
    const unknown = await h.user.slashCommand({ user: ALICE, text: "claim 1 --wait project=nope" });
    assert.equal(unknown.ackPayload?.text, "There is no project `nope`. Projects: `paper`, `batch`.");
    await h.user.slashCommand({ user: BOB, text: "claim 1 --wait" });
    await h.user.slashCommand({ user: CAROL, text: "claim 1 --wait" });
    await h.user.slashCommand({ user: EVE, text: "claim 1 --wait project=paper" });
    const list = await h.user.slashCommand({ user: CAROL, text: "queue" });
    assert.match(
      shown(list.ackPayload?.blocks as unknown[]),
      new RegExp(
        `\\*Priority and project\\*\n1\\. <@${EVE}>: priority 10, project paper\n` +
          `2\\. <@${BOB}>: priority 0, project batch\n3\\. <@${CAROL}>: priority 0, no project\n`,
      ),
    );
    await h.user.slashCommand({ user: DAVE, text: "release" });
    await h.settle();
    const dm = lastDm(h, EVE);
    assert.deepEqual(buttons(dm.blocks), ["queue_confirm", "claim_extend_4h", "claim_release"]);
    await h.user.clickButton({ user: EVE, message: dm, actionId: "claim_release" });
    await h.emulator.waitFor(() => lastDm(h, EVE).edits.length === 1, "the DM replaced by the answer");
    const request = h.state.queue.byId(h.state.audit.byAction("queue-grant")[0]?.detail.requestId as number);
    assert.equal(request?.state, "released");
    assert.equal(h.state.audit.byAction("queue-release").length, 1);
    h.runFor(20, allHosts(idleHost("gpu-a")));
    await h.settle();
    assert.deepEqual(
      h.state.audit.byAction("queue-pass").map((entry) => entry.detail.holder),
      [BOB, CAROL],
    );
  });

  test("preemption: the holder's DM with Release now / I need 30 more minutes; released after the grace", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig(
        { "gpu-a": {} },
        {
          projects: {
            paper: { members: [ALICE], priority: 10 },
            batch: { members: [BOB], preempt: true },
          },
        },
      ),
    });
    const fleet = allHosts(idleHost("gpu-a"));
    h.pollFor(1, fleet);
    await h.user.slashCommand({ user: BOB, text: "claim gpu-a for 4h" });
    await h.user.slashCommand({ user: ALICE, text: "claim 2 for 1h --wait" });
    h.runFor(1, fleet);
    await h.settle();
    const ask = lastDm(h, BOB);
    assert.equal(
      shown(ask.blocks),
      `🙏 <@${ALICE}> is waiting for 2 GPUs (project paper, priority 10). Please make room: your claim on ` +
        "*gpu-a* is released at *10:32* unless you release it sooner. Nothing running is stopped, but the GPUs go to them.",
    );
    assert.deepEqual(buttons(ask.blocks), ["claim_release", "preempt_defer"]);
    assert.deepEqual(h.dmTexts(ALICE), [`Asked <@${BOB}> to make room by 10:32`]);
    await h.user.clickButton({ user: BOB, message: ask, actionId: "preempt_defer" });
    await h.emulator.waitFor(() => lastDm(h, BOB).edits.length === 1, "the DM replaced by the answer");
    assert.equal(lastDm(h, BOB).text, "⏳ You have until *11:02* to finish on gpu-a; then it is released.");
    h.runFor(59, fleet);
    await h.settle();
    assert.equal(h.state.claims.activeOn("gpu-a", h.clock.now())[0]?.user, BOB);
    h.runFor(1, fleet);
    await h.settle();
    assert.equal(h.dmTexts(BOB).at(-1), "gpu-a was released to make room");
    assert.match(h.dmTexts(ALICE).at(-1) ?? "", /^gpu-a:0,1 is yours until/);
    assert.deepEqual(
      ["queue-preempt-ask", "queue-preempt-defer", "queue-preempt-release", "queue-grant"].map(
        (action) => h.state.audit.byAction(action).length,
      ),
      [1, 1, 1, 1],
    );
  });
});
