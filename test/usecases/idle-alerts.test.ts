import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { hostCostBasis, hostHourCost } from "../../src/checks/cost-model.ts";
import { tariffOf } from "../../src/checks/tariff-price.ts";
import type { HostObservation } from "../../src/domain/observation.ts";
import { failedAt, gpuProcess, observed, reading, session } from "../checks/builders.ts";
import {
  AlertRig,
  at,
  buttons,
  CHANNEL,
  CLAIMANT,
  header,
  OWNER,
  STOP_HOOK,
  shownText,
  WARDEN,
} from "./idle-alerts-rig.ts";

const IDLE = [0, 0, 0, 0];
const BUSY = [95, 0, 0, 0];

const BASE = {
  team: { timezone: "Europe/Berlin", currency: "EUR" },
  slack: { channel: CHANNEL },
  warden: { roster: [WARDEN] },
};

/** gpu-a with a process holding memory on GPU 0, nobody logged in. */
function gpuA(minute: number, utilPcts: (number | null)[] = IDLE): HostObservation {
  const observation = observed("gpu-a", at(minute), utilPcts, []);
  observation.gpus[0] = reading(0, utilPcts[0] ?? null, {
    memUsedMiB: 30_720,
    processes: [gpuProcess("alice", "python train.py", 30_720)],
  });
  return observation;
}

let rig: AlertRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

async function openRig(config: Record<string, unknown>): Promise<AlertRig> {
  rig = await new AlertRig({ ...BASE, ...config }).open();
  return rig;
}

describe("idle alerts", { timeout: 60_000 }, () => {
  test("one alert per episode: DM to the owner first, edited in place, resolved when busy again", async () => {
    const r = await openRig({ hosts: { "gpu-a": { owners: [OWNER], cost_per_hour: 4.8 } } });
    await r.polls(0, 29, (m) => [gpuA(m)]);
    assert.equal(r.channelMessages().length, 0, "no alert before the idle window");
    assert.equal(r.slack.dms(OWNER).length, 0);

    await r.poll(30, [gpuA(30)]);
    const posts = r.slack.calls("chat.postMessage").map((call) => call.args.channel);
    assert.deepEqual(posts, [OWNER, CHANNEL], "the owner's DM goes out before the channel post");
    assert.equal(r.slack.dms(OWNER)[0]!.text, "💤 gpu-a is idle since 10:00 (30 min, €2.40 so far)");
    const [alert] = r.channelMessages();
    assert.ok(alert);
    assert.equal(header(alert), "💤 gpu-a is idle");
    assert.equal(alert.text, `💤 gpu-a is idle since 10:00 (30 min, €2.40 so far) <@${OWNER}>`);
    const shown = shownText(alert);
    assert.match(
      shown,
      /^\*gpu-a\* has been idle since \*10:00\*: \*30 min\*, \*€2\.40\* of capacity unused at €4\.80\/h; stopping saves €4\.80\/h\.\nOwner: <@U0OWNER>$/m,
    );
    assert.match(
      shown,
      /^GPU 0 \?+▁+ {3}0 % {2}30\.0 GiB of 80$/m,
      "a sparkline per GPU, `?` before the first sample",
    );
    assert.match(
      shown,
      /\*Memory held\*: 30\.0 GiB on 1 of 4 GPUs, by:\n• alice: `python train\.py` on GPU 0, 30\.0 GiB/,
    );
    assert.match(shown, /\*Sessions\*: nobody logged in\./);
    const alertId = r.store.alerts.openFor("gpu-a", "idle")!.id;
    assert.deepEqual(
      [...buttons(alert)],
      [
        ["stop_host", JSON.stringify({ host: "gpu-a", alertId })],
        ["keep_host_1h", JSON.stringify({ host: "gpu-a", alertId, keep: "1h" })],
        ["keep_host_4h", JSON.stringify({ host: "gpu-a", alertId, keep: "4h" })],
        ["keep_host_tomorrow", JSON.stringify({ host: "gpu-a", alertId, keep: "tomorrow" })],
        ["claim_host", JSON.stringify({ host: "gpu-a", alertId })],
      ],
    );

    await r.polls(31, 34, (m) => [gpuA(m)]);
    assert.equal(r.channelMessages()[0]!.edits.length, 0, "not edited while only the figures move (< 5 min)");
    await r.poll(35, [gpuA(35)]);
    assert.equal(r.channelMessages()[0]!.edits.length, 1);
    assert.equal(
      r.channelMessages()[0]!.text,
      `💤 gpu-a is idle since 10:00 (35 min, €2.80 so far) <@${OWNER}>`,
    );

    await r.poll(36, [withSession(gpuA(36))]);
    assert.equal(
      header(r.channelMessages()[0]!),
      "✅ gpu-a is busy again",
      "an active session counts as busy",
    );

    await r.polls(37, 66, (m) => [gpuA(m)]);
    assert.equal(r.channelMessages().length, 1, "the next episode needs the full idle window again");
    await r.poll(67, [gpuA(67)]);
    assert.equal(r.channelMessages().length, 2, "a new episode gets a new alert");
    await r.poll(80, [gpuA(80, BUSY)]);
    const [first, second] = r.channelMessages();
    assert.equal(header(first!), "✅ gpu-a is busy again");
    assert.match(shownText(first!), /^Was idle from \*10:00\* to \*10:36\* \(36 min, €2\.88\)\.$/m);
    assert.deepEqual([...buttons(first!)], [], "a resolved alert has no buttons");
    assert.equal(header(second!), "✅ gpu-a is busy again");
    assert.equal(r.store.alerts.allOpen().length, 0);
    assert.equal(r.slack.dms(OWNER).length, 2, "one DM per episode");
    assert.deepEqual(r.slack.failures(), []);
  });

  test("claimants hear first too; a host with no owner or claimant mentions nobody", async () => {
    const r = await openRig({ hosts: { "gpu-a": { owners: [OWNER] }, "gpu-b": {} } });
    r.store.claims.add({
      host: "gpu-a",
      gpuIndex: 1,
      user: CLAIMANT,
      fromMs: at(0),
      untilMs: at(600),
      note: "",
    });
    await r.polls(0, 30, (m) => [gpuA(m), observed("gpu-b", at(m), IDLE, [])]);
    assert.equal(r.slack.dms(OWNER).length, 1);
    assert.equal(r.slack.dms(CLAIMANT).length, 1);
    assert.match(shownText(r.slack.dms(CLAIMANT)[0]!), /You have a claim on it/);
    const [a, b] = r.channelMessages();
    assert.equal(header(a!), "💤 gpu-a is idle");
    assert.match(shownText(a!), /Owner: <@U0OWNER> · Claimed by: <@U0CLAIM>/);
    assert.equal(header(b!), "💤 gpu-b is idle");
    assert.match(shownText(b!), /No owner or claimant on record\./);
    assert.doesNotMatch(b!.text, /<@/);
    assert.doesNotMatch(shownText(b!), /burned/, "no money without cost_per_hour");
  });

  test("a purchased host burns its amortisation, upkeep and rated power (the cost model), not nothing", async () => {
    const hosts = {
      "gpu-a": { owners: [OWNER], purchase_price: 250_000, lifetime_months: 48, rated_watts: 6000 },
    };
    const r = await openRig({ hosts });
    await r.polls(0, 30, (m) => [gpuA(m)]);
    const [alert] = r.channelMessages();
    const perHour = hostHourCost(
      hostCostBasis(r.config.hosts["gpu-a"], r.config.costs),
      tariffOf(r.config.costs.electricity, r.config.team.timezone),
      at(30),
    );
    assert.ok(perHour !== null && perHour > 5, `cost per hour ${perHour}`);
    const money = (amount: number) => `€${amount.toFixed(2)}`;
    assert.match(alert!.text, new RegExp(`\\(30 min, ${money(perHour / 2).replace(".", "\\.")} so far\\)`));
    assert.match(
      shownText(alert!),
      new RegExp(`of capacity unused at ${money(perHour).replace(".", "\\.")}/h`),
    );
  });

  test("the cost warden is mentioned once, in the thread, after escalate_after", async () => {
    const r = await openRig({
      hosts: { "gpu-a": { owners: [OWNER], cost_per_hour: 2 } },
      policy: { escalate_after_minutes: 60 },
    });
    await r.polls(0, 89, (m) => [gpuA(m)]);
    const alert = r.channelMessages()[0]!;
    assert.deepEqual(r.thread(alert), [], "not before escalate_after since the alert");
    await r.polls(90, 130, (m) => [gpuA(m)]);
    const replies = r.thread(alert);
    assert.equal(replies.length, 1);
    assert.equal(
      replies[0]!.text,
      `📣 <@${WARDEN}> *gpu-a* has been idle for 1 h 30 min (€3.00 so far). As cost warden, please stop it or keep it.`,
    );
    assert.match(shownText(r.channelMessages()[0]!), /📣 Escalated to the cost warden <@U0WARDEN>\./);
    assert.equal(r.store.alerts.openFor("gpu-a", "idle")!.escalated, true);
  });

  test("a restart neither re-posts nor forgets: same message, same idle-since, escalation not repeated", async () => {
    const r = await openRig({
      hosts: { "gpu-a": { owners: [OWNER], cost_per_hour: 4.8 } },
      policy: { escalate_after_minutes: 10 },
    });
    await r.polls(0, 45, (m) => [gpuA(m)]);
    assert.equal(r.channelMessages().length, 1);
    assert.equal(r.thread(r.channelMessages()[0]!).length, 1, "escalated before the restart");

    await r.restart();
    await r.polls(46, 56, (m) => [gpuA(m)]);
    assert.equal(r.channelMessages().length, 1, "no second post after the restart");
    assert.equal(r.slack.dms(OWNER).length, 1, "no second DM");
    assert.equal(r.thread(r.channelMessages()[0]!).length, 1, "no second escalation");
    assert.equal(
      r.channelMessages()[0]!.text,
      `💤 gpu-a is idle since 10:00 (56 min, €4.48 so far) <@${OWNER}>`,
    );

    await r.restart();
    await r.poll(57, [gpuA(57, BUSY)]);
    assert.equal(r.channelMessages().length, 1);
    assert.equal(header(r.channelMessages()[0]!), "✅ gpu-a is busy again");
    assert.match(
      shownText(r.channelMessages()[0]!),
      /Was idle from \*10:00\* to \*10:57\* \(57 min, €4\.56\)/,
    );
  });

  test("a restart keeps the episode of a host with a forgotten tmux session (past polls store only a count)", async () => {
    const r = await openRig({ hosts: { "gpu-a": { owners: [OWNER] } } });
    const observe = (m: number) => [withSession(gpuA(m), 600 + m)];
    await r.polls(0, 40, observe);
    assert.equal(header(r.channelMessages()[0]!), "💤 gpu-a is idle");
    assert.match(shownText(r.channelMessages()[0]!), /• bob on pts\/0 from 10\.0\.0\.9, idle 10 h 40 min/);
    await r.restart();
    assert.equal(r.alerts.state("gpu-a")?.status, "idle", "rebuilt from history as idle, not busy");
    await r.polls(41, 50, observe);
    assert.equal(r.channelMessages().length, 1);
    assert.equal(header(r.channelMessages()[0]!), "💤 gpu-a is idle");
    await r.poll(51, [withSession(gpuA(51), 0)]);
    assert.equal(header(r.channelMessages()[0]!), "✅ gpu-a is busy again", "someone typed in the session");
  });

  test("a restart between a poll's write and its alerts posts the missed alert once", async () => {
    const r = await openRig({ hosts: { "gpu-a": { owners: [OWNER] } } });
    await r.polls(0, 29, (m) => [gpuA(m)]);
    r.metrics.writeCycle([gpuA(30)], at(30));
    await r.restart();
    await r.polls(31, 40, (m) => [gpuA(m)]);
    assert.equal(r.channelMessages().length, 1);
    assert.match(r.channelMessages()[0]!.text, /^💤 gpu-a is idle since 10:00/);
  });

  test("unknown data never produces an idle alert: [N/A], a source that is down, stale readings", async () => {
    const r = await openRig({ hosts: { "gpu-n": {}, "gpu-s": {}, "gpu-t": {}, "gpu-f": {} } });
    const observe = (m: number): HostObservation[] => {
      const stale = observed("gpu-t", at(Math.max(0, m - 10)), IDLE, []);
      return [
        observed("gpu-n", at(m), [null, null, null, null], []),
        m < 70 ? failedAt("gpu-s", at(m)) : observed("gpu-s", at(m), IDLE, []),
        m < 10 ? observed("gpu-t", at(m), IDLE, []) : stale,
        m % 20 === 19 ? failedAt("gpu-f", at(m)) : observed("gpu-f", at(m), IDLE, []),
      ];
    };
    await r.polls(0, 69, observe);
    const notices = r.channelMessages();
    assert.deepEqual(notices.map(header), [
      "⚠️ No data from gpu-n",
      "⚠️ No data from gpu-s",
      "⚠️ No data from gpu-t",
    ]);
    assert.equal(notices[0]!.text, "⚠️ No reading from host gpu-n on record (polled since 10:00)");
    assert.match(
      shownText(notices[0]!),
      /^No reading from host \*gpu-n\* on record: polled without one since \*10:00\*\.\nLatest attempt: gpu-n: 4 of 4 GPUs report no utilisation$/m,
    );
    assert.match(
      shownText(notices[1]!),
      /on record: polled without one since \*10:00\*\.\nLatest attempt: gpu-s: ssh timed out after 20 s$/m,
    );
    assert.match(
      shownText(notices[2]!),
      /^No data from host \*gpu-t\* since \*10:09\*, its last reading\.$/m,
      "the time of the last real sample, not of the first poll without one",
    );
    assert.equal(
      r.store.alerts.allOpen().filter((a) => a.kind === "idle").length,
      0,
      "no idle alert from unknown",
    );

    await r.polls(70, 99, observe);
    assert.equal(header(r.channelMessages()[1]!), "✅ Data from gpu-s is back");
    assert.match(
      shownText(r.channelMessages()[1]!),
      /No data from host \*gpu-s\* from \*10:00\* to \*11:10\* \(1 h 10 min\)\./,
    );
    assert.equal(r.channelMessages().length, 3, "still no idle alert: gpu-s has been known for 30 min only…");
    await r.poll(100, observe(100));
    assert.deepEqual(
      r.channelMessages().map(header),
      ["⚠️ No data from gpu-n", "✅ Data from gpu-s is back", "⚠️ No data from gpu-t", "💤 gpu-s is idle"],
      "…and gets one once it has been idle and known for the whole window; gpu-f (a failed poll every 20 min) never does",
    );
  });

  test("the no-data notice dates the outage from the last real sample (stored before a restart), in the team's zone only", async () => {
    const r = await openRig({ hosts: { "gpu-a": {}, "gpu-p": {} } });
    await r.polls(0, 2, (m) => [gpuA(m), observed("gpu-p", at(m), IDLE, [], "prometheus")]);
    await r.restart();
    const prometheusStale = (m: number): HostObservation => ({
      host: "gpu-p",
      source: "prometheus",
      atMs: at(m),
      ok: false,
      cause: "stale",
      message: "no data from gpu-p since 09:02 UTC",
    });
    const freshToTheBot = (m: number): HostObservation => ({
      host: "gpu-q",
      source: "prometheus",
      atMs: at(m),
      ok: false,
      cause: "stale",
      message: "no data from gpu-q since 07:00 UTC",
      lastSampleAtMs: at(-120),
    });
    await r.polls(300, 304, (m) => [failedAt("gpu-a", at(m)), prometheusStale(m), freshToTheBot(m)]);
    const [a, p, q] = r.channelMessages();
    assert.equal(
      q!.text,
      "⚠️ No data from host gpu-q since 08:00",
      "the source's last sample, in the team's zone",
    );
    assert.doesNotMatch(shownText(q!), /UTC|07:00/);
    assert.equal(a!.text, "⚠️ No data from host gpu-a since 10:02", "not since the bot's first poll (15:00)");
    assert.equal(
      shownText(a!),
      [
        "No data from host *gpu-a* since *10:02*, its last reading.",
        "Latest attempt: gpu-a: ssh timed out after 20 s",
        "Unknown is not idle: no idle alert and no stop for *gpu-a* until data is back.",
        "Times in Europe/Berlin.",
      ].join("\n"),
    );
    assert.equal(p!.text, "⚠️ No data from host gpu-p since 10:02");
    assert.doesNotMatch(shownText(p!), /UTC|09:02/, "one zone: the team's");
    await r.polls(305, 305, (m) => [gpuA(m), observed("gpu-p", at(m), IDLE, [], "prometheus")]);
    assert.match(
      shownText(r.channelMessages()[0]!),
      /^No data from host \*gpu-a\* from \*10:02\* to \*15:05\* \(5 h 3 min\)\.$/m,
    );
  });

  test("suspect readings (100 % with no memory at idle power): no alert, no stop, the owner told once per episode, even across a restart", async () => {
    const r = await openRig({
      hosts: {
        "gpu-l": { owners: [OWNER], auto_stop: { after_minutes: 30 }, stop: STOP_HOOK },
        "gpu-m": { auto_stop: { after_minutes: 30 }, stop: STOP_HOOK },
      },
    });
    const faulty = (host: string, m: number, utilPct = 100): HostObservation => {
      // A real source reads the clock again: its observation is a few ms after the poll's instant.
      const observation = observed(host, at(m) + 3, IDLE, []);
      observation.gpus[0] = reading(0, utilPct, { memUsedMiB: 0, powerW: 144.97 });
      return observation;
    };
    await r.polls(0, 60, (m) => [faulty("gpu-l", m), faulty("gpu-m", m)]);
    assert.deepEqual(r.channelMessages(), [], "neither an idle alert nor a no-data notice");
    assert.deepEqual(r.stops, [], "never stopped automatically");
    assert.equal(r.alerts.state("gpu-l")?.status, "suspect");
    const told = r.slack.dms(OWNER);
    assert.equal(told.length, 1);
    assert.equal(told[0]!.text, "❔ Suspect readings on gpu-l: GPU 0 at full utilisation with no memory");
    assert.match(
      shownText(told[0]!),
      /^❔ Suspect readings on \*gpu-l\* since \*10:00\*: GPU 0 reports 100 % with no memory held at 145 W\. This is a known driver\/exporter fault; the GPU is probably idle\. .*no idle alert, no automatic stop or release.* You get this because you own it\.$/m,
    );
    assert.equal(r.slack.dms(WARDEN).length, 1, "gpu-m has no owner: the cost warden hears");
    assert.match(
      shownText(r.slack.dms(WARDEN)[0]!),
      /Suspect readings on \*gpu-m\*.*as cost warden: it has no owner\./,
    );

    await r.restart();
    await r.polls(61, 70, (m) => [faulty("gpu-l", m), faulty("gpu-m", m)]);
    assert.equal(r.slack.dms(OWNER).length, 1, "not repeated after a restart");
    await r.polls(71, 72, (m) => [faulty("gpu-l", m, 0), faulty("gpu-m", m)]);
    await r.polls(73, 74, (m) => [faulty("gpu-l", m), faulty("gpu-m", m)]);
    assert.equal(r.slack.dms(OWNER).length, 2, "a new episode is told again");
    assert.deepEqual(
      r.store.audit.byAction("suspect-reading").map((entry) => entry.host),
      ["gpu-l", "gpu-m", "gpu-l"],
    );
  });

  test("an open idle alert whose GPU turns suspect resolves as suspect, not busy", async () => {
    const r = await openRig({ hosts: { "gpu-a": { owners: [OWNER] } } });
    await r.polls(0, 30, (m) => [observed("gpu-a", at(m), IDLE, [])]);
    assert.equal(header(r.channelMessages()[0]!), "💤 gpu-a is idle");
    const faulty = observed("gpu-a", at(31), IDLE, []);
    faulty.gpus[2] = reading(2, 100, { memUsedMiB: 0, powerW: 60 });
    await r.poll(31, [faulty]);
    assert.equal(header(r.channelMessages()[0]!), "❔ gpu-a: suspect readings");
    assert.match(
      shownText(r.channelMessages()[0]!),
      /^\*gpu-a\*: GPU 2 reports full utilisation with no memory held at idle power, a known driver fault\./m,
    );
  });

  test("a stop after which the host keeps reporting is said once, across restarts; a host that went dark after its stop is not doubted", async () => {
    const r = await openRig({
      hosts: { "gpu-a": { owners: [OWNER] }, "gpu-b": { owners: [OWNER] }, "gpu-c": { owners: [OWNER] } },
      policy: { stop_grace_minutes: 10 },
    });
    const hosts = ["gpu-a", "gpu-b", "gpu-c"];
    await r.polls(0, 39, (m) => hosts.map((host) => observed(host, at(m), IDLE, [])));
    for (const [host, actor] of [
      ["gpu-a", CLAIMANT],
      ["gpu-b", CLAIMANT],
      ["gpu-c", "gpu-warden"],
    ] as const) {
      const alertId = r.store.alerts.openFor(host, "idle")!.id;
      const { run } = r.store.stopRuns.begin({
        key: `alert:${alertId}`,
        host,
        alertId,
        actor,
        forced: false,
        dryRun: false,
        startedAtMs: at(40),
      });
      r.store.stopRuns.finish(run.id, "done", at(40));
      r.alerts.resolve(host, "stopped");
    }
    const observe = (m: number) => [
      observed("gpu-a", at(m) + 2, IDLE, []),
      m <= 45 ? failedAt("gpu-b", at(m)) : observed("gpu-b", at(m), IDLE, []),
      observed("gpu-c", at(m), IDLE, []),
    ];
    await r.polls(41, 47, observe);
    await r.restart();
    await r.polls(48, 52, observe);
    const [a, b, c] = r.channelMessages();
    const doubts = (message: typeof a) => r.thread(message!).filter((reply) => reply.text.startsWith("⚠️"));
    assert.deepEqual(
      doubts(a).map((reply) => reply.text),
      [
        "⚠️ gpu-a was stopped at 10:40 (by <@U0CLAIM>) but is still reporting (latest reading 10:50): the stop may not have worked. Check the host; Stop can be tried again (`/gpu stop gpu-a`).",
      ],
    );
    assert.deepEqual(doubts(b), [], "gpu-b went dark after its stop: the stop took");
    const toOwners = r.thread(c!).filter((reply) => reply.text.includes("⚠️"));
    assert.equal(toOwners.length, 1);
    assert.match(
      toOwners[0]?.text ?? "",
      new RegExp(`^<@${OWNER}>: ⚠️ gpu-c was stopped at 10:40 \\(automatically\\) but is still reporting`),
      "after an automatic stop, the thread names the owners, so Slack tells them",
    );
    assert.deepEqual(
      [CLAIMANT, OWNER].flatMap((user) => r.slack.dms(user).filter((dm) => dm.text.includes("⚠️ "))),
      [],
      "said once, in the thread: no DM repeats it",
    );
    await r.restart();
    await r.polls(53, 80, observe);
    assert.equal(doubts(a).length, 1, "said once, restarts included");
    const next = r.channelMessages().find((m) => m.ts !== a!.ts && header(m) === "💤 gpu-a is idle");
    assert.ok(next, "gpu-a's next idle episode has its alert");
    const link = `https://${r.slack.identity.teamDomain}.slack.com/archives/${CHANNEL}/p${a!.ts.replace(".", "")}`;
    assert.match(
      shownText(next),
      new RegExp(
        `^⚠️ The stop at \\*10:40\\* may not have worked: gpu-a kept reporting\\. See <${link.replace(/\./g, "\\.")}\\|the thread of the alert of 10:30>\\.$`,
        "m",
      ),
    );
    assert.equal(r.thread(c!).filter((reply) => reply.text.includes("⚠️")).length, 1);
    assert.equal(r.store.audit.byAction("stop-unconfirmed").length, 2);
  });

  test("auto_stop: a countdown of at least 30 min, then one stop unless someone keeps the host", async () => {
    const r = await openRig({
      hosts: {
        "gpu-a": { owners: [OWNER], auto_stop: { after_minutes: 45 }, stop: STOP_HOOK },
        "gpu-k": { owners: [OWNER], auto_stop: { after_minutes: 30 }, stop: STOP_HOOK },
      },
    });
    const observe = (m: number) => [gpuA(m), observed("gpu-k", at(m), IDLE, [])];
    await r.polls(0, 30, observe);
    const [a, k] = r.channelMessages();
    assert.match(shownText(a!), /⏱ Stopping at \*11:15\* unless someone keeps it\./);
    assert.match(shownText(k!), /⏱ Stopping at \*11:00\* unless someone keeps it\./);
    await r.polls(31, 39, observe);
    r.store.snoozes.set({ host: "gpu-k", untilMs: at(240), byUser: OWNER, setAtMs: at(39) });
    r.alerts.refresh("gpu-k");
    await r.worker.drain();
    assert.match(shownText(r.channelMessages()[1]!), /⏸ Kept until \*14:00\* by <@U0OWNER>\./);
    await r.polls(40, 74, observe);
    assert.deepEqual(r.stops, [], "not before the stop time; never for a kept host");
    const alertId = r.store.alerts.openFor("gpu-a", "idle")!.id;
    await r.poll(75, observe(75));
    assert.deepEqual(r.stops, [{ host: "gpu-a", actor: "gpu-warden", atMs: at(75) }]);
    assert.equal(r.store.stopRuns.latestFor("gpu-a")?.alertId, alertId, "the stop of that alert");
    await r.polls(76, 80, observe);
    assert.equal(r.stops.length, 1, "called once");
    const kept = r.channelMessages()[1]!;
    assert.equal(header(kept), "⏸ gpu-k is kept");
    assert.match(shownText(kept), /^Kept by <@U0OWNER> until \*14:00\*\.$/m);
  });

  test("AlertPort: refresh after a claim, postInThread, resolve as stopped by someone", async () => {
    const r = await openRig({ hosts: { "gpu-a": { owners: [OWNER] } } });
    r.alerts.postInThread("gpu-a", "no alert yet: this goes to the channel");
    await r.polls(0, 30, (m) => [gpuA(m)]);
    const alertId = r.store.alerts.openFor("gpu-a", "idle")!.id;
    r.store.claims.add({
      host: "gpu-a",
      gpuIndex: null,
      user: CLAIMANT,
      fromMs: at(30),
      untilMs: at(300),
      note: "",
    });
    r.alerts.refresh("gpu-a");
    r.alerts.postInThread("gpu-a", "claimed by someone");
    await r.worker.drain();
    const [note, alert] = r.channelMessages();
    assert.equal(note!.text, "no alert yet: this goes to the channel");
    assert.match(shownText(alert!), /Claimed by: <@U0CLAIM>/);
    assert.deepEqual(
      r.thread(alert!).map((m) => m.text),
      ["claimed by someone"],
    );

    const run = r.store.stopRuns.begin({
      key: `alert:${alertId}`,
      host: "gpu-a",
      alertId,
      actor: CLAIMANT,
      forced: false,
      dryRun: false,
      startedAtMs: at(31),
    });
    r.alerts.refresh("gpu-a");
    await r.worker.drain();
    assert.match(shownText(r.channelMessages()[1]!), /🛑 Stop requested by <@U0CLAIM>: running…/);
    r.store.stopRuns.finish(run.run.id, "done", at(32));
    r.alerts.resolve("gpu-a", "stopped");
    await r.worker.drain();
    assert.equal(header(r.channelMessages()[1]!), "🛑 gpu-a was stopped");
    assert.match(shownText(r.channelMessages()[1]!), /^Stopped by <@U0CLAIM>\.$/m);
    assert.equal(r.store.alerts.byId(alertId)!.resolution, "stopped");
    await r.polls(33, 70, (m) => [failedAt("gpu-a", at(m))]);
    assert.equal(
      r.channelMessages().length,
      2,
      "a host dark since the bot stopped it gets no no-data notice",
    );
  });
});

function withSession(observation: HostObservation, idleMinutes = 0): HostObservation {
  return observation.ok ? { ...observation, sessions: [session("bob", idleMinutes)] } : observation;
}
