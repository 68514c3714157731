import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { helpSections } from "../../src/bot/commands/command-table.ts";
import { renderFleetBoard } from "../../src/bot/listeners/commands/gpu-status.ts";
import { translator } from "../../src/messages/translator.ts";
import { failedAt, observed, session } from "../checks/builders.ts";
import {
  ALICE,
  allHosts,
  BOB,
  BotHarness,
  busyHost,
  CAROL,
  DAVE,
  EVE,
  idleHost,
  poweroffRuns,
  standardConfig,
} from "../helpers/bot-harness.ts";

const EN = translator({ language: "en", timeZone: "UTC", currency: "USD" });

const HOUR_MS = 3_600_000;

interface Section {
  type: string;
  text?: { text: string };
}

/** The texts of a reply's section blocks, joined (what the person reads). */
function sectionsText(blocks: unknown[] | undefined): string {
  return (blocks ?? [])
    .map((block) => (block as Section).text?.text ?? "")
    .filter(Boolean)
    .join("\n");
}

for (const transport of ["socket", "http"] as const) {
  const over = transport === "socket" ? "Socket Mode" : "signed HTTP";

  describe(`Keep, Claim and /gpu over ${over}`, { timeout: 60_000 }, () => {
    let h: BotHarness;
    afterEach(() => h.closeChecked());

    test("Keep 4 h on the alert: snoozed until 14:06, noted in the thread, the alert resolved as kept", async () => {
      h = await BotHarness.start({
        transport,
        config: standardConfig({ "gpu-a": { owners: [ALICE], stop: "script" } }),
      });
      h.pollFor(6, allHosts(idleHost("gpu-a")));
      await h.settle();
      await h.user.clickButton({ user: ALICE, message: h.alertMessage("gpu-a"), actionId: "keep_host_4h" });
      await h.settle();
      assert.deepEqual(h.threadTexts("gpu-a"), [`gpu-a kept by <@${ALICE}> until 14:06 (4 h).`]);
      assert.deepEqual(h.ephemeralTexts(ALICE), [], "the alert and its thread say it; no third copy");
      assert.deepEqual(h.state.snoozes.activeAt("gpu-a", h.clock.now()), {
        host: "gpu-a",
        untilMs: h.clock.now() + 4 * HOUR_MS,
        byUser: ALICE,
        setAtMs: h.clock.now(),
      });
      assert.equal(h.state.alerts.recent("gpu-a", 1)[0]?.resolution, "snoozed");
      assert.equal(h.state.audit.byAction("keep")[0]?.actor, ALICE);
    });

    test("Keep until tomorrow runs to 09:00 tomorrow, cut to the admin's cap when that is shorter", async () => {
      h = await BotHarness.start({
        transport,
        config: standardConfig(
          { "gpu-a": { owners: [ALICE] }, "gpu-b": { owners: [ALICE] } },
          { policy: { idle_for_minutes: 5, max_keep_hours: 12, keep_until_tomorrow_at: "08:30" } },
        ),
      });
      h.pollFor(6, allHosts(idleHost("gpu-a")));
      await h.settle();
      await h.user.clickButton({
        user: ALICE,
        message: h.alertMessage("gpu-a"),
        actionId: "keep_host_tomorrow",
      });
      await h.settle();
      assert.deepEqual(h.threadTexts("gpu-a"), [
        `gpu-a kept by <@${ALICE}> until 22:06 (12 h); capped at 12 h, the longest keep allowed.`,
      ]);
      const keep = await h.user.slashCommand({ user: ALICE, text: "keep gpu-b 2h" });
      assert.equal(
        keep.ackPayload?.text,
        "Kept gpu-b until 12:06 (2 h): no idle alerts or automatic stop until then.",
      );
    });

    test("authorisation: owner, claimant, warden and admin may keep; anyone else is told who can", async () => {
      h = await BotHarness.start({ transport, config: standardConfig({ "gpu-a": { owners: [ALICE] } }) });
      h.pollFor(6, allHosts(idleHost("gpu-a")));
      h.state.claims.add({
        host: "gpu-a",
        gpuIndex: null,
        user: BOB,
        fromMs: h.clock.now(),
        untilMs: h.clock.now() + HOUR_MS,
        note: "",
      });
      const refused = await h.user.slashCommand({ user: EVE, text: "keep gpu-a 1h" });
      assert.equal(
        refused.ackPayload?.text,
        `Only the owner of gpu-a (<@${ALICE}>), its claimant (<@${BOB}>), the cost warden (<@${CAROL}>) or an admin (<@${DAVE}>) can keep it.`,
      );
      assert.equal(h.state.snoozes.activeAt("gpu-a", h.clock.now()), null);
      for (const [user, hours] of [
        [ALICE, 1],
        [BOB, 2],
        [CAROL, 3],
        [DAVE, 4],
      ] as const) {
        const kept = await h.user.slashCommand({ user, text: `keep gpu-a ${hours}h` });
        assert.equal(
          kept.ackPayload?.text,
          `Kept gpu-a until ${10 + hours}:06 (${hours} h): no idle alerts or automatic stop until then.`,
        );
        assert.equal(h.state.snoozes.activeAt("gpu-a", h.clock.now())?.byUser, user);
      }
      assert.deepEqual(
        h.state.audit.byAction("keep-refused").map((entry) => entry.actor),
        [EVE],
      );
      await h.settle();
    });

    test("Claim it: the clicker holds the host for 8 h; a second person is told who holds it", async () => {
      h = await BotHarness.start({ transport, config: standardConfig({ "gpu-a": { owners: [ALICE] } }) });
      h.pollFor(6, allHosts(idleHost("gpu-a")));
      await h.settle();
      await h.user.clickButton({ user: BOB, message: h.alertMessage("gpu-a"), actionId: "claim_host" });
      await h.emulator.waitFor(() => h.ephemeralTexts(BOB).length === 1, "the claim");
      await h.settle();
      assert.deepEqual(h.ephemeralTexts(BOB), ["You hold gpu-a until 18:06 (8 h)."]);
      assert.deepEqual(h.threadTexts("gpu-a"), [`gpu-a claimed by <@${BOB}> until 18:06.`]);
      assert.deepEqual(
        h.state.claims
          .activeOn("gpu-a", h.clock.now())
          .map((claim) => [claim.user, claim.gpuIndex, claim.untilMs]),
        [[BOB, null, h.clock.now() + 8 * HOUR_MS]],
      );
      assert.match(
        sectionsText(h.alertMessage("gpu-a").blocks),
        new RegExp(`<@${BOB}>`),
        "the alert names the claimant",
      );
      await h.user.clickButton({ user: EVE, message: h.alertMessage("gpu-a"), actionId: "claim_host" });
      await h.emulator.waitFor(() => h.ephemeralTexts(EVE).length === 1, "the conflict");
      assert.deepEqual(h.ephemeralTexts(EVE), [`gpu-a is claimed by <@${BOB}> until 18:06.`]);
      assert.equal(h.state.claims.activeOn("gpu-a", h.clock.now()).length, 1);
    });

    test("/gpu status: the fleet board, and one host in detail", async () => {
      h = await BotHarness.start({
        transport,
        config: standardConfig({
          "gpu-a": { owners: [ALICE], stop: "script" },
          "gpu-b": { owners: [BOB] },
          "gpu-c": { owners: [BOB] },
          "gpu-d": {},
          inference: { never_stop: true },
        }),
      });
      const sessionHost = (atMs: number) => observed("gpu-c", atMs, [0, 0], [session("carol", 2)]);
      const withProcess = (atMs: number) => {
        const observation = observed("gpu-a", atMs, [0, 0, 0, 0], []);
        observation.gpus[0]!.memUsedMiB = 12_288;
        observation.gpus[0]!.processes = [
          {
            pid: 77,
            user: "alice",
            name: "python",
            usedMemoryMiB: 12_288,
            container: null,
            pod: null,
            namespace: null,
          },
        ];
        return observation;
      };
      h.pollFor(
        5,
        allHosts(withProcess, busyHost("gpu-b"), sessionHost, idleHost("gpu-d"), busyHost("inference")),
      );
      h.pollFor(
        3,
        allHosts(
          withProcess,
          busyHost("gpu-b"),
          sessionHost,
          (atMs) => failedAt("gpu-d", atMs),
          busyHost("inference"),
        ),
      );
      await h.settle();
      h.state.claims.add({
        host: "gpu-a",
        gpuIndex: 0,
        user: BOB,
        fromMs: h.clock.now(),
        untilMs: h.clock.now() + HOUR_MS,
        note: "llama sft",
      });
      const board = await h.user.slashCommand({ user: EVE, text: "status" });
      assert.equal(
        board.ackPayload?.text,
        "Fleet: 5 hosts · 14 GPUs, 2 busy · 1 idle · 1 no data · 2 in use · 1 never stopped",
      );
      assert.equal(
        sectionsText(board.ackPayload?.blocks as unknown[]),
        [
          "*Fleet* · 5 hosts · 14 GPUs, 2 busy · 1 idle · 1 no data · 2 in use · 1 never stopped",
          "*Idle* (1)\n• *gpu-a* idle since 10:00 (8 min) · 4 GPUs at 0 % · GPU 0 claimed by <@U0BOB> until 11:08 · alert open",
          "*No data* (1)\n• *gpu-d* no data since 10:04 (gpu-d: ssh timed out after 20 s)",
          "*In use* (2)\n• *gpu-b* in use · 1/4 GPUs busy, mean 24 % · GPU 3 in use, unclaimed\n• *gpu-c* in use: carol logged in · 2 GPUs at 0 %",
          "*Never stopped* (1)\n• *inference* never stopped · 1/4 GPUs busy, mean 24 % · GPU 3 in use, unclaimed",
        ].join("\n"),
      );
      const detail = await h.user.slashCommand({ user: EVE, text: "status gpu-a" });
      assert.equal(
        sectionsText(detail.ackPayload?.blocks as unknown[]),
        [
          `*gpu-a* · idle since 10:00 (8 min) · 4 GPUs at 0 % · GPU 0 claimed by <@U0BOB> until 11:08 · alert open\nOwners: <@${ALICE}> · Stop runs \`${h.dir}/poweroff gpu-a\` · cost warden: <@${CAROL}>`,
          "`GPU 0` · H100 80GB HBM3 · 0 % · 12.0/79.6 GiB · claimed by <@U0BOB> · python (alice, 12.0 GiB)\n`GPU 1` · H100 80GB HBM3 · 0 % · 0.0/79.6 GiB\n`GPU 2` · H100 80GB HBM3 · 0 % · 0.0/79.6 GiB\n`GPU 3` · H100 80GB HBM3 · 0 % · 0.0/79.6 GiB",
          "Sessions: none.",
          "Claimed (GPU 0) by <@U0BOB> until 11:08 (llama sft)\nIdle alert open since 10:05",
        ].join("\n"),
      );
      const unknown = await h.user.slashCommand({ user: EVE, text: "status gpu-e" });
      assert.equal(
        unknown.ackPayload?.text,
        "no host gpu-e; did you mean gpu-a?\nRight form: `/gpu status [host]` — e.g. `/gpu status gpu-a`",
      );
    });

    test("/gpu status is always the board as it is now: after a keep, a claim, a poll, a minute", async () => {
      h = await BotHarness.start({
        transport,
        config: standardConfig({ "gpu-a": { owners: [ALICE] }, "gpu-b": { owners: [BOB] } }),
      });
      h.pollFor(40, allHosts(idleHost("gpu-a"), busyHost("gpu-b")));
      await h.settle();
      const boards: string[] = [];
      const ask = async () => {
        const answer = await h.user.slashCommand({ user: EVE, text: "status" });
        assert.deepEqual(answer.ackPayload, { response_type: "ephemeral", ...renderFleetBoard(h.deps) });
        boards.push(sectionsText(answer.ackPayload?.blocks as unknown[]));
      };
      await ask();
      await ask();
      await h.user.clickButton({ user: ALICE, message: h.alertMessage("gpu-a"), actionId: "keep_host_1h" });
      await h.settle();
      await ask();
      await h.user.slashCommand({ user: BOB, text: "claim gpu-b 2h" });
      await ask();
      h.pollFor(1, allHosts(idleHost("gpu-a"), idleHost("gpu-b")));
      await ask();
      h.clock.advance(5 * 60_000);
      await ask();
      assert.equal(boards[1], boards[0]);
      assert.match(boards[0]!, /gpu-a\* idle since/);
      assert.match(boards[2]!, /kept by <@U0ALICE> until/);
      assert.match(boards[3]!, /claimed by <@U0BOB>/);
      assert.notEqual(boards[4], boards[3]);
      assert.match(boards[5]!, /no data since/);
      assert.equal(new Set(boards).size, 5);
    });

    test("/gpu status for 150 hosts stays within Slack's limits and says how many are not listed", async () => {
      const hosts = Array.from({ length: 150 }, (_, i) => `node-${String(i).padStart(3, "0")}`);
      h = await BotHarness.start({ transport, config: standardConfig({}) });
      h.pollFor(2, (atMs) =>
        hosts.map((host, i) =>
          observed(host, atMs, i % 3 === 0 ? [0, 0, 0, 0, 0, 0, 0, 0] : [90, 0, 0, 0, 0, 0, 0, 0], []),
        ),
      );
      const board = await h.user.slashCommand({ user: EVE, text: "status" });
      assert.equal(board.acked, true);
      const blocks = board.ackPayload?.blocks as Section[];
      assert.ok(blocks.length <= 50);
      const shown = h.latestEphemeral(EVE);
      assert.equal(shown.text, "Fleet: 150 hosts · 1,200 GPUs, 100 busy · 50 going idle · 100 in use");
      const lines = sectionsText(blocks)
        .split("\n")
        .filter((line) => line.startsWith("• "));
      const closing = JSON.stringify(blocks.at(-1));
      const notListed = Number(/…and (\d+) more hosts/.exec(closing)?.[1] ?? 0);
      assert.equal(lines.length + notListed, 150);
    });

    test("/gpu help, bare /gpu with the asker's claims, and errors that show the right form", async () => {
      h = await BotHarness.start({
        transport,
        config: standardConfig({ "gpu-a": { owners: [ALICE] }, "gpu-b1": {} }),
      });
      h.pollFor(1, allHosts(idleHost("gpu-a"), idleHost("gpu-b1")));
      h.state.claims.add({
        host: "gpu-b1",
        gpuIndex: 1,
        user: BOB,
        fromMs: h.clock.now(),
        untilMs: h.clock.now() + HOUR_MS,
        note: "",
      });
      const answers: Record<string, string> = {};
      for (const text of [
        "help",
        "",
        "keep gpu-a",
        "keep gpu-a soon",
        "stpo gpu-a",
        "frobnicate",
        "keep gpu-b 1h",
        "status a b",
      ]) {
        const delivery = await h.user.slashCommand({ user: BOB, text });
        const payload = delivery.ackPayload ?? {};
        answers[text] =
          payload.blocks === undefined ? String(payload.text) : sectionsText(payload.blocks as unknown[]);
      }
      assert.equal(answers.help, helpSections(EN, "/gpu").join("\n"));
      assert.ok(answers[""]?.startsWith(answers.help ?? "-"));
      assert.match(answers[""] ?? "", /\nYour claims: gpu-b1:1 until 11:01\.$/);
      assert.deepEqual(
        [
          answers["keep gpu-a"],
          answers["keep gpu-a soon"],
          answers["stpo gpu-a"],
          answers.frobnicate,
          answers["keep gpu-b 1h"],
          answers["status a b"],
        ],
        [
          "`keep gpu-a` needs a duration.\nRight form: `/gpu keep <host> <duration>` — e.g. `/gpu keep gpu-a 4h`",
          "`soon` is not a duration: use `30m`, `4h`, `2d` or `tomorrow`.\nRight form: `/gpu keep <host> <duration>` — e.g. `/gpu keep gpu-a 4h`",
          "Unknown command `stpo`; did you mean `stop`?\nRight form: `/gpu stop <host>` — e.g. `/gpu stop gpu-a`",
          "Unknown command `frobnicate`.\n`/gpu help` lists the commands.",
          "no host gpu-b; did you mean gpu-b1?",
          "Unexpected `b` after `status`.\nRight form: `/gpu status [host]` — e.g. `/gpu status gpu-a`",
        ],
      );
    });

    test("auto-stop: when the countdown runs out the bot stops the host itself, through the same path", async () => {
      h = await BotHarness.start({
        transport,
        config: standardConfig({
          "gpu-a": { owners: [ALICE], stop: "script", auto_stop: { after_minutes: 30 } },
        }),
      });
      h.pollFor(6, allHosts(idleHost("gpu-a")));
      await h.settle();
      const alert = h.state.alerts.openFor("gpu-a", "idle");
      assert.notEqual(alert?.autoStopAtMs ?? null, null);
      h.pollFor(31, allHosts(idleHost("gpu-a")));
      await h.settle();
      const command = `${h.dir}/poweroff gpu-a`;
      assert.deepEqual(poweroffRuns(h), ["gpu-a"]);
      assert.deepEqual(h.threadTexts("gpu-a").slice(-2), [
        `Stopping gpu-a automatically (auto-stop: nobody kept the host): running \`${command}\`.`,
        `gpu-a stopped automatically: \`${command}\` exited 0.\n\`\`\`\npowering off gpu-a\n\`\`\``,
      ]);
      assert.equal(h.state.audit.byAction("stop")[0]?.actor, "gpu-warden");
      assert.equal(h.state.alerts.recent("gpu-a", 1)[0]?.resolution, "stopped");
    });
  });
}
