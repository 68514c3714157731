import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import {
  ALICE,
  allHosts,
  BOB,
  BotHarness,
  busyHost,
  CAROL,
  CHANNEL,
  DAVE,
  EVE,
  idleHost,
  poweroffRuns,
  scriptRuns,
  standardConfig,
  stopScript,
} from "../helpers/bot-harness.ts";

const mentions = (...users: string[]) => users.map((user) => `<@${user}>`);

/** The clicker's one answer to a stop that goes ahead: where its progress is. */
const stopAck = (h: BotHarness, host: string) =>
  `Stopping ${host}: its progress and outcome are in <https://gpu-team.slack.com/archives/${CHANNEL}/p${h.alertMessage(host).ts.replace(".", "")}|the alert's thread>.`;

/** Every text `user` can see: the channel, every thread, their ephemerals and their DMs. */
const seenBy = (h: BotHarness, user: string) => {
  const channel = h.emulator.channel(CHANNEL);
  return [
    ...channel.messages.flatMap((message) => [
      message.text,
      ...channel.thread(message.ts).map((r) => r.text),
    ]),
    ...h.ephemeralTexts(user),
    ...h.dmTexts(user),
  ];
};

for (const transport of ["socket", "http"] as const) {
  const over = transport === "socket" ? "Socket Mode" : "signed HTTP";

  describe(`Stop over ${over}`, { timeout: 60_000 }, () => {
    let h: BotHarness;
    afterEach(() => h.closeChecked());

    test("the owner clicks Stop: the command runs once, its progress is said once, in the thread, the clicker is pointed there, the alert resolves", async () => {
      h = await BotHarness.start({
        transport,
        config: standardConfig({ "gpu-a": { owners: [ALICE], stop: "script" } }),
      });
      h.pollFor(6, allHosts(idleHost("gpu-a")));
      await h.settle();
      await h.user.clickButton({ user: ALICE, message: h.alertMessage("gpu-a"), actionId: "stop_host" });
      await h.emulator.waitFor(() => h.threadTexts("gpu-a").length === 2, "the outcome");
      await h.settle();
      const command = `${h.dir}/poweroff gpu-a`;
      const said = [
        `<@${ALICE}> is stopping gpu-a: running \`${command}\`.`,
        `gpu-a stopped by <@${ALICE}>: \`${command}\` exited 0.\n\`\`\`\npowering off gpu-a\n\`\`\``,
      ];
      assert.deepEqual(poweroffRuns(h), ["gpu-a"]);
      assert.deepEqual(h.threadTexts("gpu-a"), said);
      assert.deepEqual(h.ephemeralTexts(ALICE), [stopAck(h, "gpu-a")], "one answer, pointing to the thread");
      for (const text of said) {
        assert.equal(seenBy(h, ALICE).filter((seen) => seen === text).length, 1, `said once: ${text}`);
      }
      assert.equal(h.state.alerts.recent("gpu-a", 1)[0]?.resolution, "stopped");
      assert.match(h.alertMessage("gpu-a").text, /stopped/i);
      const [entry] = h.state.audit.byAction("stop");
      assert.deepEqual(
        [entry?.actor, entry?.host, entry?.exitCode, entry?.outputTail, entry?.forced, entry?.dryRun],
        [ALICE, "gpu-a", 0, "powering off gpu-a", false, false],
      );
    });

    test("authorisation: owner, claimant, warden and admin may stop; anyone else is told who can", async () => {
      const hosts = ["by-owner", "by-claimant", "by-warden", "by-admin"];
      h = await BotHarness.start({
        transport,
        config: standardConfig(
          Object.fromEntries(hosts.map((host) => [host, { owners: [ALICE], stop: "script" }])),
        ),
      });
      h.pollFor(6, allHosts(...hosts.map(idleHost)));
      await h.settle();
      for (const host of hosts) {
        h.state.claims.add({
          host,
          gpuIndex: 0,
          user: BOB,
          fromMs: h.clock.now(),
          untilMs: h.clock.now() + 3_600_000,
          note: "",
        });
      }
      for (const host of hosts) {
        await h.user.clickButton({ user: EVE, message: h.alertMessage(host), actionId: "stop_host" });
      }
      await h.emulator.waitFor(() => h.ephemeralTexts(EVE).length === 4, "four refusals");
      const [alice, bob, carol, dave] = mentions(ALICE, BOB, CAROL, DAVE);
      assert.deepEqual(
        h.ephemeralTexts(EVE),
        hosts.map(
          (host) =>
            `Only the owner of ${host} (${alice}), its claimant (${bob}), the cost warden (${carol}) or an admin (${dave}) can stop it.`,
        ),
      );
      const byRole: Array<[string, string]> = [
        ["by-owner", ALICE],
        ["by-claimant", BOB],
        ["by-warden", CAROL],
        ["by-admin", DAVE],
      ];
      await Promise.all(
        byRole.map(([host, user]) =>
          h.user.clickButton({ user, message: h.alertMessage(host), actionId: "stop_host" }),
        ),
      );
      for (const [host, user] of byRole) {
        await h.emulator.waitFor(() => h.threadTexts(host).length === 2, `${user}'s outcome`);
      }
      await h.settle();
      assert.deepEqual(poweroffRuns(h).sort(), [...hosts].sort());
      for (const [host, user] of byRole) {
        assert.deepEqual(h.ephemeralTexts(user), [stopAck(h, host)]);
        assert.match(h.threadTexts(host)[1] ?? "", new RegExp(`^${host} stopped by <@${user}>: `));
      }
      assert.deepEqual(
        h.state.audit.byAction("stop-refused").map((entry) => [entry.actor, entry.host]),
        hosts.map((host) => [EVE, host]),
      );
    });

    test("20 concurrent deliveries of one Stop click (4 people, Slack redelivering each 4 times) run the command once", async () => {
      h = await BotHarness.start({
        transport,
        config: standardConfig({ "gpu-a": { owners: [ALICE], stop: "script" } }),
      });
      h.pollFor(6, allHosts(idleHost("gpu-a")));
      await h.settle();
      const alert = h.alertMessage("gpu-a");
      const clickers = [ALICE, CAROL, DAVE, EVE];
      const deliveries = (
        await Promise.all(
          clickers.map(async (user) => {
            const first = await h.user.clickButton({ user, message: alert, actionId: "stop_host" });
            const again = await Promise.all(
              [1, 2, 3, 4].map((attempt) => h.user.replay(first, { attempt, reason: "timeout" })),
            );
            return [first, ...again];
          }),
        )
      ).flat();
      assert.equal(deliveries.length, 20);
      assert.ok(deliveries.every((delivery) => delivery.acked));
      await h.emulator.waitFor(
        () => h.state.stopRuns.latestFor("gpu-a")?.state === "done" && h.ephemeralTexts(EVE).length === 1,
        "the stop to finish",
      );
      const winner = h.state.stopRuns.latestFor("gpu-a")?.actor ?? "";
      await h.emulator.waitFor(
        () => [ALICE, CAROL, DAVE].every((user) => h.ephemeralTexts(user).length === 1),
        "every answer",
      );
      await h.settle();

      assert.deepEqual(poweroffRuns(h), ["gpu-a"]);
      assert.ok([ALICE, CAROL, DAVE].includes(winner));
      assert.deepEqual(h.ephemeralTexts(winner), [stopAck(h, "gpu-a")]);
      assert.match(h.threadTexts("gpu-a")[1] ?? "", new RegExp(`^gpu-a stopped by <@${winner}>: `));
      for (const user of [ALICE, CAROL, DAVE].filter((user) => user !== winner)) {
        assert.equal(h.ephemeralTexts(user).length, 1, `${user} gets one answer`);
        assert.match(
          h.ephemeralTexts(user)[0] ?? "",
          new RegExp(
            `^gpu-a (is already being stopped by <@${winner}> since 10:06|was already stopped by <@${winner}> at 10:06)\\.$`,
          ),
        );
      }
      assert.deepEqual(h.ephemeralTexts(EVE), [
        `Only the owner of gpu-a (<@${ALICE}>), the cost warden (<@${CAROL}>) or an admin (<@${DAVE}>) can stop it.`,
      ]);
      assert.equal(h.threadTexts("gpu-a").length, 2);
      assert.equal(h.state.audit.byAction("stop").length, 1);
    });

    test("a host busy again when Stop is clicked is not stopped; an admin may force it, recorded as forced", async () => {
      h = await BotHarness.start({
        transport,
        config: standardConfig({ "gpu-a": { owners: [ALICE], stop: "script" } }),
      });
      h.pollFor(6, allHosts(idleHost("gpu-a")));
      await h.settle();
      const alert = h.alertMessage("gpu-a");
      // NOTE: the alert's edit (host busy again) is held in the outbox, so the button is still on screen.
      await h.outbox.stop();
      h.poll(allHosts(busyHost("gpu-a")));
      await h.user.clickButton({ user: ALICE, message: alert, actionId: "stop_host" });
      await h.user.clickButton({ user: DAVE, message: alert, actionId: "stop_host" });
      await h.emulator.waitFor(
        () => h.ephemeralTexts(ALICE).length === 1 && h.ephemeralTexts(DAVE).length === 1,
        "the refusals",
      );
      assert.deepEqual(h.ephemeralTexts(ALICE), ["gpu-a is busy now: GPU 3 at 97 %"]);
      const offer = h.latestEphemeral(DAVE);
      assert.equal(offer.text, "gpu-a is busy now: GPU 3 at 97 %");
      assert.deepEqual(
        offer.blocks
          .flatMap((block) => (Array.isArray(block.elements) ? block.elements : []))
          .map((e) => (e as { action_id?: string }).action_id),
        ["stop_host_force", "dismiss"],
      );
      assert.deepEqual(poweroffRuns(h), []);

      await h.user.clickButton({ user: DAVE, message: offer, actionId: "stop_host_force" });
      await h.emulator.waitFor(
        () =>
          /^Stopping/.test(h.latestEphemeral(DAVE).text) &&
          h.state.stopRuns.latestFor("gpu-a")?.state === "done",
        "the forced stop",
      );
      h.outbox.start();
      await h.settle();
      const command = `${h.dir}/poweroff gpu-a`;
      assert.deepEqual(poweroffRuns(h), ["gpu-a"]);
      assert.deepEqual(h.ephemeralTexts(DAVE), [stopAck(h, "gpu-a")], "the offer is replaced by the pointer");
      assert.deepEqual(
        h.threadTexts("gpu-a").filter((text) => text.includes(DAVE)),
        [
          `<@${DAVE}> is stopping gpu-a: running \`${command}\` (forced by an admin: gpu-a is busy now: GPU 3 at 97 %).`,
          `gpu-a stopped by <@${DAVE}> (forced): \`${command}\` exited 0.\n\`\`\`\npowering off gpu-a\n\`\`\``,
        ],
      );
      const [entry] = h.state.audit.byAction("stop");
      assert.deepEqual(
        [entry?.actor, entry?.forced, entry?.detail.overrode],
        [DAVE, true, { reason: "busy", gpus: [{ slot: "3", utilPct: 97 }] }],
      );
      assert.deepEqual(
        h.state.audit.byAction("stop-refused").map((e) => [e.actor, e.detail.reason]),
        [
          [ALICE, "busy"],
          [DAVE, "busy"],
        ],
      );
    });

    test("a stop command that hangs is killed at its timeout, reported as failed, and Stop works again", async () => {
      h = await BotHarness.start({
        transport,
        config: (dir) => ({
          ...standardConfig({})(dir),
          hosts: {
            "gpu-h": {
              owners: [ALICE],
              stop: { command: [stopScript(dir, "hangs", { sleepS: 30 }), "gpu-h"], timeout_seconds: 0.5 },
            },
          },
        }),
      });
      h.pollFor(6, allHosts(idleHost("gpu-h")));
      await h.settle();
      await h.user.clickButton({ user: ALICE, message: h.alertMessage("gpu-h"), actionId: "stop_host" });
      await h.emulator.waitFor(() => h.threadTexts("gpu-h").length === 2, "the failure");
      await h.settle();
      const failed =
        `Stopping gpu-h failed: \`${h.dir}/hangs gpu-h\` was killed after 0.5 s (timeout). ` +
        "gpu-h may still be running; Stop can be tried again.\n```\npowering off gpu-h\n(killed after 0.5 s)\n```";
      assert.equal(h.threadTexts("gpu-h").at(-1), failed);
      assert.deepEqual(h.ephemeralTexts(ALICE), [stopAck(h, "gpu-h")]);
      assert.equal(seenBy(h, ALICE).filter((text) => text === failed).length, 1, "the failure said once");
      const [entry] = h.state.audit.byAction("stop-failed");
      assert.deepEqual(
        [entry?.actor, entry?.exitCode, entry?.outputTail, entry?.detail.timedOut],
        [ALICE, null, "powering off gpu-h\n(killed after 0.5 s)", true],
      );
      assert.equal(h.state.stopRuns.latestFor("gpu-h")?.state, "failed");
      assert.equal(h.state.alerts.openFor("gpu-h", "idle") !== null, true, "the alert stays open");

      await h.user.clickButton({ user: ALICE, message: h.alertMessage("gpu-h"), actionId: "stop_host" });
      await h.emulator.waitFor(() => h.threadTexts("gpu-h").length === 4, "the second try");
      assert.equal(h.ephemeralTexts(ALICE).length, 2, "one answer per click");
      assert.deepEqual(scriptRuns(h.dir, "hangs"), ["gpu-h", "gpu-h"]);
    });

    test("dry run: nothing runs, the thread is told what would run and the clicker pointed there, the alert stays open", async () => {
      h = await BotHarness.start({
        transport,
        config: standardConfig({ "gpu-d": { owners: [ALICE], stop: "script", dry_run: true } }),
      });
      h.pollFor(6, allHosts(idleHost("gpu-d")));
      await h.settle();
      await h.user.clickButton({ user: ALICE, message: h.alertMessage("gpu-d"), actionId: "stop_host" });
      await h.emulator.waitFor(() => h.threadTexts("gpu-d").length === 1, "the dry run");
      await h.settle();
      const said = `Dry run: would run \`${h.dir}/poweroff gpu-d\` to stop gpu-d (asked by <@${ALICE}>); nothing was changed.`;
      assert.deepEqual(h.threadTexts("gpu-d"), [said]);
      assert.deepEqual(h.ephemeralTexts(ALICE), [
        `Dry run for gpu-d: what it would run is in <https://gpu-team.slack.com/archives/${CHANNEL}/p${h.alertMessage("gpu-d").ts.replace(".", "")}|the alert's thread>.`,
      ]);
      assert.deepEqual(poweroffRuns(h), []);
      assert.notEqual(h.state.alerts.openFor("gpu-d", "idle"), null);
      assert.equal(h.state.stopRuns.latestFor("gpu-d"), null, "a dry run holds no stop key");
      const [entry] = h.state.audit.byAction("stop");
      assert.deepEqual([entry?.actor, entry?.dryRun, entry?.exitCode], [ALICE, true, null]);
    });

    test("`/gpu stop` previews what will run; Stop now goes through the button's path, Cancel removes the preview", async () => {
      h = await BotHarness.start({
        transport,
        config: standardConfig({
          "gpu-a": { owners: [ALICE], stop: "script" },
          "gpu-b": { owners: [ALICE], stop: "script" },
        }),
      });
      h.pollFor(6, allHosts(idleHost("gpu-a"), idleHost("gpu-b")));
      await h.settle();
      const command = `${h.dir}/poweroff gpu-a`;
      const ack = await h.user.slashCommand({ user: ALICE, text: "stop gpu-a" });
      assert.equal(ack.acked, true);
      const preview = h.latestEphemeral(ALICE);
      assert.equal(preview.text, "Stop gpu-a?");
      assert.deepEqual(preview.blocks[0]?.text, {
        type: "mrkdwn",
        text: `Stop *gpu-a*? This runs \`${command}\`.`,
      });
      assert.deepEqual(poweroffRuns(h), []);
      await h.user.clickButton({ user: ALICE, message: preview, actionId: "stop_host" });
      await h.emulator.waitFor(() => h.threadTexts("gpu-a").length === 2, "the stop");
      await h.settle();
      assert.deepEqual(poweroffRuns(h), ["gpu-a"]);
      assert.deepEqual(
        h.ephemeralTexts(ALICE),
        [stopAck(h, "gpu-a")],
        "the preview became the pointer to the thread",
      );
      assert.match(h.threadTexts("gpu-a")[1] ?? "", new RegExp(`^gpu-a stopped by <@${ALICE}>: `));
      assert.equal(
        h.state.stopRuns.latestFor("gpu-a")?.key,
        `alert:${h.state.alerts.recent("gpu-a", 1)[0]?.id}`,
      );

      await h.user.slashCommand({ user: ALICE, text: "stop gpu-b" });
      await h.user.clickButton({ user: ALICE, message: h.latestEphemeral(ALICE), actionId: "dismiss" });
      await h.emulator.waitFor(() => h.ephemeralTexts(ALICE).length === 1, "the preview to go");
      assert.deepEqual(poweroffRuns(h), ["gpu-a"]);
    });

    test("a host that never had an alert: its stop's progress is said once, in the channel, and the answer points there", async () => {
      h = await BotHarness.start({
        transport,
        config: standardConfig({ "gpu-a": { owners: [ALICE], stop: "script" } }),
      });
      h.pollFor(1, allHosts(idleHost("gpu-a")));
      await h.settle();
      assert.equal(h.state.alerts.latest("gpu-a"), null, "too early for an alert");
      await h.user.slashCommand({ user: ALICE, text: "stop gpu-a" });
      await h.user.clickButton({ user: ALICE, message: h.latestEphemeral(ALICE), actionId: "stop_host" });
      await h.emulator.waitFor(() => h.state.stopRuns.latestFor("gpu-a")?.state === "done", "the stop");
      await h.settle();
      assert.deepEqual(poweroffRuns(h), ["gpu-a"]);
      assert.deepEqual(h.ephemeralTexts(ALICE), [
        `Stopping gpu-a: its progress and outcome are in <#${CHANNEL}>.`,
      ]);
      const posted = h.emulator.channel(CHANNEL).messages.map((message) => message.text);
      assert.deepEqual(
        posted.filter((text) => text.includes(`<@${ALICE}>`)),
        [
          `<@${ALICE}> is stopping gpu-a: running \`${h.dir}/poweroff gpu-a\`.`,
          `gpu-a stopped by <@${ALICE}>: \`${h.dir}/poweroff gpu-a\` exited 0.\n\`\`\`\npowering off gpu-a\n\`\`\``,
        ],
      );
    });

    test("`/gpu stop` refuses what the button would refuse", async () => {
      h = await BotHarness.start({
        transport,
        config: standardConfig({
          "gpu-a": { owners: [ALICE], stop: "script" },
          "gpu-b1": { owners: [ALICE] },
          inference: { owners: [ALICE], never_stop: true, stop: "script" },
        }),
      });
      h.pollFor(6, allHosts(idleHost("gpu-a"), idleHost("gpu-b1"), busyHost("inference")));
      await h.settle();
      const answers: string[] = [];
      for (const [user, text] of [
        [ALICE, "stop gpu-b"],
        [ALICE, "stop gpu-b1"],
        [ALICE, "stop inference"],
        [EVE, "stop gpu-a"],
      ] as const) {
        const delivery = await h.user.slashCommand({ user, text });
        answers.push(String(delivery.ackPayload?.text));
      }
      assert.deepEqual(answers, [
        "no host gpu-b; did you mean gpu-b1?",
        "gpu-b1 has no stop action. Add one under `hosts.gpu-b1.stop` in the config, e.g. " +
          "`stop: { command: [ssh, gpu-b1, sudo, poweroff] }` or `stop: { webhook: https://… }`.",
        "inference is marked `never_stop` in the config: it is never stopped.",
        `Only the owner of gpu-a (<@${ALICE}>), the cost warden (<@${CAROL}>) or an admin (<@${DAVE}>) can stop it.`,
      ]);
      assert.deepEqual(poweroffRuns(h), []);
    });

    test("a button with a damaged value gets a plain answer and changes nothing", async () => {
      h = await BotHarness.start({
        transport,
        config: standardConfig({ "gpu-a": { owners: [ALICE], stop: "script" } }),
      });
      h.pollFor(6, allHosts(idleHost("gpu-a")));
      await h.settle();
      const posted = await h.slack.client.chat.postMessage({
        channel: "C0GPU",
        text: "forged",
        blocks: [
          {
            type: "actions",
            elements: [
              {
                type: "button",
                action_id: "stop_host",
                value: "gpu-a",
                text: { type: "plain_text", text: "Stop" },
              },
              {
                type: "button",
                action_id: "keep_host_4h",
                value: '{"host":"gpu-a","keep":"9y"}',
                text: { type: "plain_text", text: "Keep" },
              },
            ],
          },
        ],
      });
      const message = { channel: "C0GPU", ts: String(posted.ts) };
      await h.user.clickButton({ user: ALICE, message, actionId: "stop_host" });
      await h.user.clickButton({ user: ALICE, message, actionId: "keep_host_4h" });
      await h.emulator.waitFor(() => h.ephemeralTexts(ALICE).length === 2, "two answers");
      assert.match(
        h.ephemeralTexts(ALICE)[0] ?? "",
        /^That button could not be read \(the button value is not JSON .*\); nothing was done\.$/,
      );
      assert.match(
        h.ephemeralTexts(ALICE)[1] ?? "",
        /^That button could not be read \(the button value is malformed at keep: .*\); nothing was done\.$/,
      );
      assert.deepEqual(poweroffRuns(h), []);
      assert.equal(h.state.snoozes.activeAt("gpu-a", h.clock.now()), null);
    });
  });
}
