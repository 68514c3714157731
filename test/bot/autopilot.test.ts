import assert from "node:assert/strict";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, test } from "node:test";
import type { HostObservation } from "../../src/domain/observation.ts";
import { HOUR_MS, MINUTE_MS } from "../../src/shared/clock.ts";
import { gpuProcess, observed, reading, session } from "../checks/builders.ts";
import {
  ALICE,
  allHosts,
  BOB,
  BotHarness,
  CAROL,
  EVE,
  type HostAt,
  idleHost,
  poweroffRuns,
  standardConfig,
} from "../helpers/bot-harness.ts";
import { lastDm, shownText } from "../helpers/shown-blocks.ts";

/** T0 is Monday 10:00 in Berlin; this is Tuesday 01:00 there. */
const TO_NIGHT_MS = 15 * HOUR_MS;
/** Monday 13:00 in Berlin. */
const TO_AFTERNOON_MS = 3 * HOUR_MS;
const DAY = 24 * HOUR_MS;
/** Monday 12 January 2026 09:00 in Berlin: "tomorrow" for a Keep pressed on Friday 9 or at that weekend. */
const MONDAY_0900 = Date.UTC(2026, 0, 12, 8, 0);
/** Sunday 11 January 2026 10:00 in Berlin. */
const SUNDAY_1000 = Date.UTC(2026, 0, 11, 9, 0);
/** Monday 12 January 2026 17:30 in Berlin. */
const MONDAY_1730 = Date.UTC(2026, 0, 12, 16, 30);

/** A notebook kernel on GPU 0 holding 20 GiB at 0 %, and alice's login whose last input was `idleMinutes(atMs)` ago. */
const notebookHost =
  (host: string, startMs: number, idleAtStartMinutes: number, growing: boolean): HostAt =>
  (atMs) => {
    const idleMinutes = idleAtStartMinutes + (growing ? Math.floor((atMs - startMs) / MINUTE_MS) : 0);
    const base = observed(host, atMs, [0, 0, 0, 0], [session("alice", idleMinutes)]);
    const kernel = { memUsedMiB: 20_480, processes: [gpuProcess("alice", "python", 20_480)] };
    return { ...base, gpus: [reading(0, 0, kernel), ...base.gpus.slice(1)] } satisfies HostObservation;
  };

/** A stand-in command `dir/name` that appends `name host` to `dir/order.log`. */
function orderScript(dir: string, name: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\necho "${name} $1" >> '${join(dir, "order.log")}'\n`);
  chmodSync(path, 0o755);
  return path;
}

function orderLog(h: BotHarness): string[] {
  const log = join(h.dir, "order.log");
  return existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : [];
}

const autopilotDms = (h: BotHarness, user: string) =>
  h.dmTexts(user).filter((text) => text.includes("stops at"));

describe("the autopilot, over the real Bolt app and a real store", { timeout: 120_000 }, () => {
  let h: BotHarness;
  afterEach(() => h.closeChecked());

  test("an empty host at night: one DM with Keep, the countdown on the alert and in /gpu status, then one stop with its evidence in the thread", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig({ "gpu-a": { owners: [ALICE], stop: "script" } }),
    });
    h.clock.advance(TO_NIGHT_MS);
    h.pollFor(31, allHosts(idleHost("gpu-a")));
    await h.settle();
    assert.deepEqual(autopilotDms(h, ALICE), [
      "gpu-a has had nothing on it for 30 min; it stops at 02:00 unless you keep it",
    ]);
    const dm = lastDm(h, ALICE);
    assert.match(
      shownText(dm.blocks as unknown[]),
      /🤖 \*gpu-a\* has had nothing on it for 30 min; it stops at \*02:00\*/,
    );
    assert.match(JSON.stringify(dm.blocks), /"text":"Keep"/);
    assert.match(
      shownText(h.alertMessage("gpu-a").blocks as unknown[]),
      /⏱ Stopping at \*02:00\* unless someone keeps it\./,
    );
    const status = await h.user.slashCommand({ user: BOB, text: "status gpu-a" });
    assert.match(JSON.stringify(status.ackPayload), /auto-stop at 02:00/);
    assert.equal(h.state.autopilot.get("gpu-a")?.stopAtMs, h.clock.now() - MINUTE_MS + 30 * MINUTE_MS);

    h.pollFor(29, allHosts(idleHost("gpu-a")));
    await h.settle();
    assert.deepEqual(poweroffRuns(h), [], "not before the time it said");
    h.pollFor(1, allHosts(idleHost("gpu-a")));
    await h.settle();
    assert.deepEqual(poweroffRuns(h), ["gpu-a"]);
    const thread = h.threadTexts("gpu-a");
    assert.ok(
      thread.some((text) =>
        text.startsWith(
          "🤖 Autopilot: nothing on gpu-a since 01:00 (1 h): no GPU process, no memory held, no login, no claim, no reservation within the hour; nobody kept it.",
        ),
      ),
      thread.join("\n"),
    );
    const progress = thread.filter((text) =>
      /^(Stopping gpu-a automatically|gpu-a stopped automatically)/.test(text),
    );
    assert.equal(progress.length, 2, "the stop's progress, in the thread");
    assert.deepEqual(
      [...h.dmTexts(ALICE), ...h.ephemeralTexts(ALICE)].filter((text) => /automatically/.test(text)),
      [],
      "said once: not repeated to the owner",
    );
    assert.equal(h.state.audit.byAction("stop")[0]?.detail.reason, "autopilot: nothing on the host");
    assert.equal(h.state.autopilot.get("gpu-a"), null);
    h.pollFor(40, allHosts(idleHost("gpu-a")));
    await h.settle();
    assert.deepEqual(poweroffRuns(h), ["gpu-a"], "one stop per alert");
    assert.equal(
      autopilotDms(h, ALICE)[1],
      "gpu-a has had nothing on it for 30 min; it stops at 03:02 unless you keep it",
      "a host that reports again after its stop gets a fresh 30 min",
    );
  });

  test("a notebook with input in the last hour is never touched", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig(
        { "gpu-a": { owners: [ALICE], stop: "script" } },
        { policy: { idle_for_minutes: 5, autopilot: { stale_hours: 2 } } },
      ),
    });
    h.clock.advance(TO_NIGHT_MS);
    h.pollFor(240, allHosts(notebookHost("gpu-a", h.clock.now(), 20, false)));
    await h.settle();
    assert.ok(h.state.alerts.openFor("gpu-a", "idle") !== null, "the idle alert is up");
    assert.deepEqual(autopilotDms(h, ALICE), []);
    assert.deepEqual(poweroffRuns(h), []);
    assert.deepEqual(h.state.audit.byAction("autopilot-warned"), []);
  });

  test("a stale kernel: an evening DM names the process, its owner and its memory; outside working hours pre_stop runs, then the stop", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: (dir) => ({
        ...standardConfig({}, { policy: { idle_for_minutes: 5, autopilot: { stale_hours: 2 } } })(dir),
        hosts: {
          "gpu-a": {
            owners: [ALICE],
            pre_stop: { command: [orderScript(dir, "checkpoint"), "gpu-a"] },
            stop: { command: [orderScript(dir, "poweroff"), "gpu-a"] },
          },
        },
      }),
    });
    h.clock.advance(TO_AFTERNOON_MS);
    const host = notebookHost("gpu-a", h.clock.now(), 60, true);
    h.pollFor(270, allHosts(host));
    await h.settle();
    assert.deepEqual(autopilotDms(h, ALICE), [], "stale since 15:00, but warned in the evening");
    h.pollFor(1, allHosts(host));
    await h.settle();
    const expected =
      "gpu-a: only python (pid 4242) of alice, holding 20.0 GiB; a login of alice on pts/0 left, with no input for 4 h 30 min; it stops at 18:00 unless you keep it";
    assert.deepEqual(autopilotDms(h, ALICE), [expected]);
    assert.deepEqual(autopilotDms(h, CAROL), [expected], "the cost warden hears too");
    const dm = lastDm(h, ALICE);
    assert.match(
      shownText(dm.blocks as unknown[]),
      /outside working hours, unless you keep it; its pre-stop hook runs first\./,
    );
    assert.match(JSON.stringify(dm.blocks), /"text":"Keep until tomorrow 09:00".*"text":"Stop now"/);
    h.pollFor(29, allHosts(host));
    await h.settle();
    assert.deepEqual(orderLog(h), [], "not during working hours");
    h.pollFor(1, allHosts(host));
    await h.settle();
    assert.deepEqual(orderLog(h), ["checkpoint gpu-a", "poweroff gpu-a"]);
    assert.ok(
      h
        .threadTexts("gpu-a")
        .some((text) =>
          text.startsWith(
            "🤖 Autopilot: GPUs on gpu-a idle since 13:00 (5 h), only python (pid 4242) of alice, holding 20.0 GiB; a login of alice on pts/0 left with no input, outside working hours",
          ),
        ),
    );
  });

  test("a stale kernel on a Friday: the evening DM's Keep runs to Monday 09:00 and says so", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig(
        { "gpu-a": { owners: [ALICE], stop: "script" } },
        { policy: { idle_for_minutes: 5, autopilot: { stale_hours: 2 } } },
      ),
    });
    h.clock.advance(4 * DAY + TO_AFTERNOON_MS);
    const host = notebookHost("gpu-a", h.clock.now(), 60, true);
    h.pollFor(271, allHosts(host));
    await h.settle();
    assert.equal(autopilotDms(h, ALICE).length, 1, "the Friday evening DM");
    const dm = lastDm(h, ALICE);
    assert.match(JSON.stringify(dm.blocks), /"text":"Keep until Mon 09:00"/);
    assert.match(
      JSON.stringify(h.alertMessage("gpu-a").blocks),
      /"text":"Keep until Mon 09:00"/,
      "the alert's button says the same",
    );
    await h.user.clickButton({ user: ALICE, message: dm, actionId: "keep_host_tomorrow" });
    await h.emulator.waitFor(() => h.state.snoozes.activeAt("gpu-a", h.clock.now()) !== null, "the keep");
    await h.settle();
    const thread = h.threadTexts("gpu-a");
    assert.ok(
      thread.some((text) => /kept by <@U0ALICE> until Mon, Jan 12 09:00/.test(text)),
      thread.join("\n"),
    );
    assert.equal(h.state.snoozes.activeAt("gpu-a", h.clock.now())?.untilMs, MONDAY_0900);
    h.pollFor(31, allHosts(host));
    await h.settle();
    assert.deepEqual(poweroffRuns(h), [], "kept: not stopped at 18:00");
  });

  test("a stale kernel left over the weekend: neither the warden nor the autopilot stops it before Monday's evening", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig(
        { "gpu-a": { owners: [ALICE], stop: "script" }, "gpu-b": { owners: [BOB], stop: "script" } },
        { policy: { idle_for_minutes: 5, autopilot: { stale_hours: 2 } } },
      ),
    });
    h.clock.advance(SUNDAY_1000 - h.clock.now());
    const stale = notebookHost("gpu-a", h.clock.now(), 60, true);
    const recent = notebookHost("gpu-b", h.clock.now(), 20, false);
    const hosts = allHosts(stale, recent);
    const pollUntil = async (atMs: number) => {
      while (h.clock.now() < atMs) {
        h.pollFor(Math.min(60, (atMs - h.clock.now()) / MINUTE_MS), hosts);
        await h.settle();
      }
    };
    const escalations = (host: string) =>
      h.threadTexts(host).filter((text) => text.includes("As cost warden, please stop it or keep it"));
    await pollUntil(SUNDAY_1000 + 12 * HOUR_MS);
    assert.deepEqual(autopilotDms(h, ALICE), [], "Sunday: no warning");
    assert.equal(h.state.autopilot.get("gpu-a"), null);
    assert.deepEqual(
      escalations("gpu-a"),
      [],
      "nobody typed there for stale_hours: the autopilot's, not the warden's",
    );
    assert.equal(escalations("gpu-b").length, 1, "recent input: the warden is asked");
    await pollUntil(MONDAY_1730);
    assert.deepEqual(autopilotDms(h, ALICE), [], "nor in the night and morning before work");
    assert.deepEqual(poweroffRuns(h), []);
    await pollUntil(MONDAY_1730 + MINUTE_MS);
    assert.match(autopilotDms(h, ALICE)[0] ?? "", /it stops at 18:00 unless you keep it$/, "Monday evening");
    assert.equal(autopilotDms(h, CAROL).length, 1, "the cost warden hears of it here");
    await pollUntil(MONDAY_1730 + 32 * MINUTE_MS);
    assert.deepEqual(poweroffRuns(h), ["gpu-a"], "Monday 18:00");
  });

  test("a host nobody typed on for stale_hours is escalated in a working day's evening, before the autopilot's stale rule holds", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig(
        { "gpu-a": { owners: [ALICE], stop: "script" } },
        { policy: { idle_for_minutes: 5, escalate_after_minutes: 10, autopilot: { stale_hours: 2 } } },
      ),
    });
    h.clock.advance(DAY + 8 * HOUR_MS);
    h.pollFor(30, allHosts(notebookHost("gpu-a", h.clock.now(), 200, true)));
    await h.settle();
    assert.equal(
      h.threadTexts("gpu-a").filter((text) => text.includes("As cost warden, please stop it or keep it"))
        .length,
      1,
      "Tuesday evening: the warden is asked",
    );
    assert.equal(h.state.autopilot.get("gpu-a"), null, "GPUs idle for less than stale_hours: no plan yet");
  });

  test("a stale kernel on someone else's host: its person (team.logins) hears at 17:30 and may keep it; a colleague may not", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig(
        { "gpu-a": { owners: [BOB], stop: "script" } },
        {
          team: { timezone: "Europe/Berlin", logins: { [ALICE]: ["alice"], [EVE]: ["eve"] } },
          policy: { idle_for_minutes: 5, autopilot: { stale_hours: 2 } },
        },
      ),
    });
    h.clock.advance(TO_AFTERNOON_MS);
    const host = notebookHost("gpu-a", h.clock.now(), 60, true);
    h.pollFor(271, allHosts(host));
    await h.settle();
    assert.equal(autopilotDms(h, BOB).length, 1, "the owner hears");
    assert.equal(autopilotDms(h, ALICE).length, 1, "alice's notebook: alice hears");
    assert.deepEqual(autopilotDms(h, EVE), [], "eve has nothing on gpu-a");
    const refused = await h.user.slashCommand({ user: EVE, text: "keep gpu-a tomorrow" });
    assert.match(String(refused.ackPayload?.text), /^Only the owner of gpu-a \(<@U0BOB>\).* can keep it\.$/);
    assert.equal(h.state.snoozes.activeAt("gpu-a", h.clock.now()), null);
    await h.user.clickButton({ user: ALICE, message: lastDm(h, ALICE), actionId: "keep_host_tomorrow" });
    await h.emulator.waitFor(() => h.state.snoozes.activeAt("gpu-a", h.clock.now()) !== null, "the keep");
    assert.equal(h.state.snoozes.activeAt("gpu-a", h.clock.now())?.byUser, ALICE);
    h.pollFor(31, allHosts(host));
    await h.settle();
    assert.deepEqual(poweroffRuns(h), [], "kept by the notebook's person: not stopped at 18:00");
  });

  test("a person whose notebook is all that is on someone else's host may stop it; not with a colleague's kernel there too", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig(
        { "gpu-a": { owners: [BOB], stop: "script" }, "gpu-b": { owners: [BOB], stop: "script" } },
        { team: { timezone: "Europe/Berlin", logins: { [ALICE]: ["alice"], [EVE]: ["eve"] } } },
      ),
    });
    const alone = notebookHost("gpu-a", h.clock.now(), 60, true);
    const shared: HostAt = (atMs) => {
      const base = notebookHost("gpu-b", h.clock.now(), 60, true)(atMs);
      if (!base.ok) return base;
      const other = { memUsedMiB: 10_240, processes: [gpuProcess("eve", "python", 10_240)] };
      return { ...base, gpus: [base.gpus[0]!, reading(1, 0, other), ...base.gpus.slice(2)] };
    };
    h.pollFor(6, allHosts(alone, shared));
    await h.settle();
    const refusals = [];
    for (const [user, host] of [
      [EVE, "gpu-a"],
      [ALICE, "gpu-b"],
    ] as const) {
      const ack = await h.user.slashCommand({ user, text: `stop ${host}` });
      refusals.push(String(ack.ackPayload?.text ?? h.latestEphemeral(user).text));
    }
    for (const text of refusals) assert.match(text, /^Only the owner of gpu-[ab] \(<@U0BOB>\)/);
    await h.user.slashCommand({ user: ALICE, text: "stop gpu-a" });
    assert.equal(h.latestEphemeral(ALICE).text, "Stop gpu-a?");
    await h.user.clickButton({ user: ALICE, message: h.latestEphemeral(ALICE), actionId: "stop_host" });
    await h.emulator.waitFor(() => h.state.stopRuns.latestFor("gpu-a")?.state === "done", "the stop");
    assert.deepEqual(poweroffRuns(h), ["gpu-a"]);
  });

  test("Keep pressed in the warning DM holds the host", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig({ "gpu-a": { owners: [ALICE], stop: "script" } }),
    });
    h.clock.advance(TO_NIGHT_MS);
    h.pollFor(31, allHosts(idleHost("gpu-a")));
    await h.settle();
    assert.equal(autopilotDms(h, ALICE).length, 1);
    await h.user.clickButton({ user: ALICE, message: lastDm(h, ALICE), actionId: "keep_host_tomorrow" });
    await h.emulator.waitFor(() => h.state.snoozes.activeAt("gpu-a", h.clock.now()) !== null, "the keep");
    h.pollFor(90, allHosts(idleHost("gpu-a")));
    await h.settle();
    assert.deepEqual(poweroffRuns(h), []);
    assert.equal(h.state.autopilot.get("gpu-a"), null);
    assert.equal(autopilotDms(h, ALICE).length, 1);
  });

  test("a claim, or a reservation within the hour, holds the host", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig(
        {
          "gpu-a": { owners: [ALICE], stop: "script" },
          "gpu-b": { owners: [ALICE], stop: "script" },
          "gpu-c": { owners: [ALICE], stop: "script" },
        },
        { reservations: [{ user: BOB, gpus: "gpu-b", every: "daily", from: "02:00", to: "06:00" }] },
      ),
    });
    h.clock.advance(TO_NIGHT_MS);
    const hosts = allHosts(idleHost("gpu-a"), idleHost("gpu-b"), idleHost("gpu-c"));
    h.pollFor(1, hosts);
    await h.user.slashCommand({ user: BOB, text: "claim gpu-a for 8h" });
    h.pollFor(90, hosts);
    await h.settle();
    assert.deepEqual(poweroffRuns(h), ["gpu-c"], "only the host nobody holds");
    assert.deepEqual(autopilotDms(h, ALICE), [
      "gpu-c has had nothing on it for 30 min; it stops at 02:00 unless you keep it",
    ]);
    assert.deepEqual(autopilotDms(h, BOB), []);
  });

  test("at night a claim made before its run ended no longer holds the empty host: the claimant is warned, the host stops, the claim stays", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig({ "gpu-a": { owners: [ALICE], stop: "script" } }),
    });
    h.clock.advance(12 * HOUR_MS);
    const run: HostAt = (atMs) => {
      const base = observed("gpu-a", atMs, [0, 0, 0, 0], []);
      const train = { memUsedMiB: 71_000, processes: [gpuProcess("bob", "python3 train.py", 71_000)] };
      return { ...base, gpus: [reading(0, 95, train), ...base.gpus.slice(1)] } satisfies HostObservation;
    };
    h.pollFor(1, allHosts(run));
    const claimed = await h.user.slashCommand({ user: BOB, text: "claim gpu-a for 8h" });
    assert.match(String(claimed.ackPayload?.text), /gpu-a/);
    h.pollFor(20, allHosts(run));
    h.pollFor(29, allHosts(idleHost("gpu-a")));
    await h.settle();
    assert.deepEqual(poweroffRuns(h), [], "the empty host's first 30 minutes: nothing yet");
    assert.deepEqual(autopilotDms(h, BOB), []);
    h.pollFor(3, allHosts(idleHost("gpu-a")));
    await h.settle();
    const warning = autopilotDms(h, BOB);
    assert.equal(warning.length, 1, "the claimant is warned");
    assert.match(
      shownText(lastDm(h, BOB).blocks as unknown[]),
      /<@U0BOB> claimed it before it emptied; outside working hours that claim no longer holds an empty host\. The GPUs stay claimed, and `\/gpu start gpu-a` brings it back\./,
    );
    for (let minute = 0; minute < 31 && poweroffRuns(h).length === 0; minute++) {
      h.pollFor(1, allHosts(idleHost("gpu-a")));
      await h.settle();
    }
    assert.deepEqual(poweroffRuns(h), ["gpu-a"]);
    assert.ok(
      h
        .threadTexts("gpu-a")
        .some((text) =>
          /the claim of <@U0BOB> is older than that, and it is outside working hours/.test(text),
        ),
      h.threadTexts("gpu-a").join("\n"),
    );
    assert.equal(h.state.claims.activeOn("gpu-a", h.clock.now()).length, 1, "the claim stays");
  });

  test("a Keep pressed for a notebook ends at night once the host has had nothing on it for 30 min: the keeper hears, then the usual warning and stop", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig({ "gpu-a": { owners: [ALICE], stop: "script" } }),
    });
    h.clock.advance(6 * HOUR_MS);
    const startMs = h.clock.now();
    h.pollFor(1, allHosts(notebookHost("gpu-a", startMs, 1, false)));
    const kept = await h.user.slashCommand({ user: ALICE, text: "keep gpu-a tomorrow" });
    assert.match(String(kept.ackPayload?.text), /gpu-a/);
    h.pollFor(3 * 60, allHosts(notebookHost("gpu-a", startMs, 1, false)));
    h.pollFor(29, allHosts(idleHost("gpu-a")));
    await h.settle();
    assert.notEqual(
      h.state.snoozes.activeAt("gpu-a", h.clock.now()),
      null,
      "empty for less than 30 min: kept",
    );
    h.pollFor(2, allHosts(idleHost("gpu-a")));
    await h.settle();
    assert.equal(h.state.snoozes.activeAt("gpu-a", h.clock.now()), null, "the Keep has ended");
    assert.deepEqual(
      h.dmTexts(ALICE).filter((text) => text.includes("Your Keep")),
      [
        "🤖 Your Keep of *gpu-a* (until Tue 09:00) has ended: nothing has been on it since 19:01, and outside working hours an empty host is stopped after the autopilot's warning. `/gpu keep gpu-a tomorrow` keeps it again.",
      ],
    );
    assert.equal(h.state.audit.byAction("keep-ended")[0]?.detail.keptBy, ALICE);
    h.pollFor(2, allHosts(idleHost("gpu-a")));
    await h.settle();
    assert.match(
      autopilotDms(h, ALICE)[0] ?? "",
      /^gpu-a has had nothing on it for 3\d min; it stops at 20:0\d unless you keep it$/,
    );
    h.pollFor(31, allHosts(idleHost("gpu-a")));
    await h.settle();
    assert.deepEqual(poweroffRuns(h), ["gpu-a"]);
  });

  test("a claim or a Keep made on an empty host at night still holds it after a restart: the bot did not see the host empty after them", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig({
        "gpu-a": { owners: [ALICE], stop: "script" },
        "gpu-b": { owners: [ALICE], stop: "script" },
      }),
    });
    h.clock.advance(TO_NIGHT_MS);
    const hosts = allHosts(idleHost("gpu-a"), idleHost("gpu-b"));
    h.pollFor(1, hosts);
    await h.user.slashCommand({ user: BOB, text: "claim gpu-a for 8h" });
    await h.user.slashCommand({ user: ALICE, text: "keep gpu-b tomorrow" });
    h.pollFor(10, hosts);
    await h.settle();
    await h.restartAlerts();
    h.pollFor(90, hosts);
    await h.settle();
    assert.deepEqual(poweroffRuns(h), []);
    assert.notEqual(h.state.snoozes.activeAt("gpu-b", h.clock.now()), null, "the Keep holds");
    assert.deepEqual(h.state.audit.byAction("keep-ended"), []);
    assert.deepEqual(autopilotDms(h, BOB), []);
  });

  test("a restart during the warning neither forgets the plan nor warns or stops twice", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig({ "gpu-a": { owners: [ALICE], stop: "script" } }),
    });
    h.clock.advance(TO_NIGHT_MS);
    h.pollFor(41, allHosts(idleHost("gpu-a")));
    await h.settle();
    await h.restartAlerts();
    h.pollFor(19, allHosts(idleHost("gpu-a")));
    await h.settle();
    assert.deepEqual(poweroffRuns(h), []);
    h.pollFor(1, allHosts(idleHost("gpu-a")));
    await h.settle();
    await h.restartAlerts();
    h.pollFor(1, allHosts(idleHost("gpu-a")));
    await h.settle();
    assert.deepEqual(poweroffRuns(h), ["gpu-a"]);
    assert.equal(autopilotDms(h, ALICE).length, 1);
  });

  test("an alert the autopilot will settle is not escalated to the cost warden; one it may not settle is", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig(
        {
          "gpu-a": { owners: [ALICE], stop: "script" },
          "gpu-b": { owners: [ALICE], stop: "script", autopilot: false },
        },
        { policy: { idle_for_minutes: 5, escalate_after_minutes: 10 } },
      ),
    });
    h.clock.advance(TO_NIGHT_MS);
    const hosts = allHosts(idleHost("gpu-a"), idleHost("gpu-b"));
    const escalations = (host: string) =>
      h.threadTexts(host).filter((text) => text.includes("As cost warden, please stop it or keep it"));
    h.pollFor(55, hosts);
    await h.settle();
    assert.equal(h.state.autopilot.get("gpu-a")?.host, "gpu-a", "the autopilot's stop is planned");
    assert.deepEqual(escalations("gpu-a"), [], "nothing for the warden to do: the stop is planned");
    assert.equal(escalations("gpu-b").length, 1, "the autopilot is off there: the warden is asked");
    h.pollFor(10, hosts);
    await h.settle();
    assert.deepEqual(poweroffRuns(h), ["gpu-a"]);
    assert.deepEqual(escalations("gpu-a"), []);
  });
});
