import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import {
  ALICE,
  allHosts,
  BOB,
  BotHarness,
  CHANNEL,
  EVE,
  idleHost,
  poweroffRuns,
  standardConfig,
} from "../helpers/bot-harness.ts";

const HOSTS = Array.from({ length: 24 }, (_, i) => `gpu-${String(i).padStart(2, "0")}`);
/** gpu-00…11 are Alice's (with a stop script), 12…19 Bob's, 20…23 Eve's. */
const ownerOf = (index: number) => (index < 12 ? ALICE : index < 20 ? BOB : EVE);

function stormConfig(extra: Record<string, unknown> = {}, named: (host: string) => string = (host) => host) {
  const hosts = Object.fromEntries(
    HOSTS.map((host, i) => [named(host), { owners: [ownerOf(i)], ...(i < 12 && { stop: "script" }) }]),
  );
  return standardConfig(hosts, { alerts: { digest_over: 10 }, ...extra }, { sleepS: 0 });
}

describe("no alert storms, over the real Bolt app and the rate-limiting emulator", {
  timeout: 120_000,
}, () => {
  let h: BotHarness;
  afterEach(() => h.closeChecked());

  test("24 hosts idle in one poll: one digest, their alerts in its thread in order, one DM per owner, nothing lost; Stop all mine stops Alice's", async () => {
    h = await BotHarness.start({ transport: "socket", config: stormConfig(), slackLimits: true });
    h.pollFor(6, allHosts(...HOSTS.map(idleHost)));
    await h.settle();

    const top = h.emulator.channel(CHANNEL).messages;
    assert.deepEqual(
      top.map((message) => message.text),
      ["💤 *24 hosts went idle*: the list in the thread."],
      "one digest in the channel",
    );
    const thread = h.emulator.channel(CHANNEL).thread(top[0]!.ts);
    assert.equal(thread.length, HOSTS.length, "every alert in the digest's thread");
    const alerts = HOSTS.map((host) => h.state.alerts.openFor(host, "idle") ?? assert.fail(`${host} alert`));
    assert.deepEqual(
      thread.map((message) => message.ts),
      alerts.map((alert) => alert.ts),
      "each alert's message is in the thread, in the order they opened; its ts is recorded",
    );
    assert.ok(thread.every((message) => JSON.stringify(message.blocks).includes('"stop_host"')));

    for (const [user, count] of [
      [ALICE, 12],
      [BOB, 8],
      [EVE, 4],
    ] as const) {
      const dms = h.dmTexts(user);
      assert.equal(dms.length, 1, `${user}: one DM`);
      assert.match(dms[0]!, new RegExp(`^💤 \\*${count} of your hosts went idle\\*`));
    }
    assert.equal(h.state.outbox.pendingCount(), 0, "nothing left behind");
    assert.equal(
      h.emulator.calls("chat.postMessage").filter((call) => call.status === 200).length,
      1 + HOSTS.length + 3,
      "each message posted once",
    );

    const dm = h.emulator.dms(ALICE)[0]!;
    await h.user.clickButton({ user: ALICE, message: dm, actionId: "stop_all_mine" });
    await h.emulator.waitFor(() => h.ephemeralTexts(ALICE).length === 1, "the answer");
    const linked = (host: string) =>
      `*<https://gpu-team.slack.com/archives/${CHANNEL}/p${h.alertMessage(host).ts.replace(".", "")}|${host}>*`;
    assert.equal(
      h.ephemeralTexts(ALICE)[0],
      `Stopping 12 hosts: ${HOSTS.slice(0, 12).map(linked).join(", ")}. Each one's progress and outcome are in its alert's thread.`,
    );
    await h.emulator.waitFor(() => poweroffRuns(h).length === 12, "the stops");
    const stoppedLine = (host: string) => new RegExp(`^${host} stopped by <@${ALICE}>: `);
    // NOTE: a stop's outcome is posted once its command has exited, after the command was seen to run.
    await h.emulator.waitFor(
      () => HOSTS.slice(0, 12).every((host) => stoppedLine(host).test(h.threadTexts(host).at(-1) ?? "")),
      "the stops' outcomes in their threads",
      30_000,
    );
    await h.settle();
    assert.deepEqual(poweroffRuns(h).sort(), HOSTS.slice(0, 12));
    assert.equal(h.ephemeralTexts(ALICE).length, 1, "one answer; each outcome is in its thread");
    for (const host of HOSTS.slice(0, 12)) {
      assert.match(h.threadTexts(host).at(-1) ?? "", stoppedLine(host));
    }
  });

  test("with clusters the digest names them, in either language", async () => {
    const inB = (host: string) => `b/${host}`;
    h = await BotHarness.start({ transport: "socket", config: stormConfig({}, inB) });
    h.pollFor(6, allHosts(...HOSTS.map(inB).map(idleHost)));
    await h.settle();
    assert.deepEqual(
      h.emulator.channel(CHANNEL).messages.map((message) => message.text),
      ["💤 *24 hosts went idle in cluster b*: the list in the thread."],
    );
    assert.match(h.dmTexts(BOB)[0]!, /^💤 \*8 of your hosts went idle\*: \*b\/gpu-12\*, /);
    await h.closeChecked();

    const aOrB = (host: string) => `${host < "gpu-20" ? "b" : "a"}/${host}`;
    h = await BotHarness.start({
      transport: "socket",
      config: stormConfig({ team: { timezone: "Europe/Berlin", language: "zh-CN" } }, aOrB),
    });
    h.pollFor(6, allHosts(...HOSTS.map(aOrB).map(idleHost)));
    await h.settle();
    assert.deepEqual(
      h.emulator.channel(CHANNEL).messages.map((message) => message.text),
      ["💤 集群 a和b 中 *24 台主机* 进入闲置：清单见线程。"],
    );
  });

  test("a hung call holds only its own conversation", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: stormConfig(),
      slackLimits: true,
      outboxTimeoutMs: 15_000,
    });
    const hang = h.emulator.failNext({ method: "chat.postMessage", where: { channel: BOB } }, { hang: true });
    h.pollFor(6, allHosts(...HOSTS.map(idleHost)));
    const digest = () => h.emulator.channel(CHANNEL).messages[0];
    await h.emulator.waitFor(
      () =>
        digest() !== undefined &&
        h.emulator.channel(CHANNEL).thread(digest()!.ts).length === HOSTS.length &&
        h.dmTexts(ALICE).length === 1 &&
        h.dmTexts(EVE).length === 1,
      "everything but Bob's DM",
      14_000,
    );
    assert.equal(hang.hits, 1);
    assert.deepEqual(h.dmTexts(BOB), [], "Bob's DM is the hung call, still waiting");
    await h.outbox.drain(60_000);
    assert.equal(h.dmTexts(BOB).length, 1, "retried after the client's timeout, once");
    assert.equal(
      h.problems()[0],
      "chat.postMessage timed out; Slack may have completed it, so it is looked for before it is sent again",
    );
    h.logs.splice(0);
  });
});
