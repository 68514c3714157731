import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import { viewProblems } from "../../src/playground/slack-emulator/validate-blocks.ts";
import { latestStart } from "../../src/usecases/power/start-host.ts";
import { stopHost } from "../../src/usecases/power/stop-host.ts";
import { observed } from "../checks/builders.ts";
import {
  ALICE,
  BOB,
  BotHarness,
  CAROL,
  CHANNEL,
  DAVE,
  EVE,
  scriptRuns,
  standardConfig,
  stopScript,
} from "../helpers/bot-harness.ts";
import { actionIds, shownText } from "../helpers/shown-blocks.ts";

/** gpu-a (owner Alice, project `ml` with Bob) with the stand-in stop and a stand-in start `<dir>/poweron`. */
function config(start: { exitCode?: number; sleepS?: number } = {}, extra: Record<string, unknown> = {}) {
  return (dir: string) => {
    const raw = standardConfig(
      { "gpu-a": { owners: [ALICE], stop: "script" } },
      { projects: { ml: { members: [BOB] } }, ...extra },
      { sleepS: 0 },
    )(dir) as { hosts: Record<string, Record<string, unknown>> };
    const path = stopScript(dir, "poweron", { sleepS: start.sleepS ?? 0.2, exitCode: start.exitCode ?? 0 });
    raw.hosts["gpu-a"]!.start = { command: [path, "gpu-a"] };
    return raw;
  };
}

const gpuA = (gpus: number) => (atMs: number) => [observed("gpu-a", atMs, Array(gpus).fill(0), [])];
const nothing = () => [];

/** The host idles, Alice stops it through the bot, then it stops reporting. */
async function stopped(h: BotHarness, gpus = 4): Promise<void> {
  h.pollFor(6, gpuA(gpus));
  const result = await stopHost(h.deps, { host: "gpu-a", actor: ALICE, reason: "/gpu stop" });
  assert.equal(result.kind, "stopped");
  h.pollFor(2, nothing);
  await h.settle();
}

const startRuns = (h: BotHarness) => scriptRuns(h.dir, "poweron");

describe("/gpu start over Socket Mode", { timeout: 60_000 }, () => {
  let h: BotHarness;
  afterEach(() => h.closeChecked());

  test("someone else is refused and audited; a project member starts it once and hears when it reports", async () => {
    h = await BotHarness.start({ transport: "socket", config: config() });
    await stopped(h);
    const status = await h.user.slashCommand({ user: EVE, text: "status gpu-a" });
    assert.match(String(status.ackPayload?.text), new RegExp(`^gpu-a: stopped since 10:0\\d by <@${ALICE}>`));
    const board = await h.user.slashCommand({ user: EVE, text: "status" });
    assert.match(JSON.stringify(board.ackPayload?.blocks), /stopped since 10:0\d by/);
    const refused = await h.user.slashCommand({ user: EVE, text: "start gpu-a" });
    assert.equal(
      refused.ackPayload?.text,
      `Only the owner of gpu-a (<@${ALICE}>), the cost warden (<@${CAROL}>) or an admin (<@${DAVE}>), or a member of a project (ml), can start gpu-a.`,
    );
    assert.deepEqual(
      h.state.audit.byAction("start-refused").map((entry) => [entry.actor, entry.host]),
      [[EVE, "gpu-a"]],
    );
    const command = `${h.dir}/poweron gpu-a`;
    const asked = await h.user.slashCommand({ user: BOB, text: "start gpu-a" });
    assert.equal(
      asked.ackPayload?.text,
      `Starting gpu-a: its progress is in <https://gpu-team.slack.com/archives/${CHANNEL}/p${h.alertMessage("gpu-a").ts.replace(".", "")}|the alert's thread>. I'll send you a message when it reports again.`,
      "the answer points to the thread, where the start's progress is said once",
    );
    const again = await h.user.slashCommand({ user: ALICE, text: "start gpu-a" });
    assert.match(String(again.ackPayload?.text), /^gpu-a is already being started \(since 10:0\d\)/);
    await h.emulator.waitFor(() => h.state.audit.byAction("start").length === 1, "the start ran");
    assert.deepEqual(startRuns(h), ["gpu-a"]);
    const [entry] = h.state.audit.byAction("start");
    assert.deepEqual([entry?.actor, entry?.exitCode, entry?.dryRun], [BOB, 0, false]);
    h.pollFor(1, gpuA(4));
    await h.settle();
    const up = /^gpu-a is up again and reporting \(started 10:0\d\)\.$/;
    assert.equal(h.dmTexts(BOB).filter((text) => up.test(text)).length, 1);
    assert.equal(h.dmTexts(ALICE).filter((text) => up.test(text)).length, 1);
    const thread = h.threadTexts("gpu-a");
    assert.ok(thread.includes(`<@${BOB}> is starting gpu-a: running \`${command}\`.`), thread.join("\n"));
    assert.ok(thread.some((text) => up.test(text)));
    h.pollFor(3, gpuA(4));
    const upAgain = await h.user.slashCommand({ user: BOB, text: "start gpu-a" });
    assert.match(String(upAgain.ackPayload?.text), /^gpu-a is up: it reported 10:\d\d\. Nothing to start\.$/);
    assert.deepEqual(startRuns(h), ["gpu-a"]);
  });

  test("Start on the stopped alert: an action that exits non-zero is said in the thread and to the person", async () => {
    h = await BotHarness.start({ transport: "socket", config: config({ exitCode: 3 }) });
    await stopped(h);
    const alert = h.alertMessage("gpu-a");
    assert.match(alert.text, /stopped/i);
    await h.user.clickButton({ user: ALICE, message: alert, actionId: "start_host" });
    await h.emulator.waitFor(() => h.state.audit.byAction("start-failed").length === 1, "the start failed");
    await h.settle();
    const failed = `Starting gpu-a failed: \`${h.dir}/poweron gpu-a\` exited 3. It is still off; \`/gpu start gpu-a\` tries again.`;
    assert.ok(
      h.dmTexts(ALICE).some((text) => text.startsWith(failed)),
      h.dmTexts(ALICE).join("\n"),
    );
    assert.ok(h.threadTexts("gpu-a").some((text) => text.startsWith(failed)));
    assert.deepEqual(
      h.ephemeralTexts(ALICE),
      [
        `Starting gpu-a: its progress is in <https://gpu-team.slack.com/archives/${CHANNEL}/p${alert.ts.replace(".", "")}|the alert's thread>. I'll send you a message when it reports again.`,
      ],
      "the clicker's one answer points to the thread",
    );
  });

  test("a host that never reports after its start is said once, after start_grace_minutes", async () => {
    h = await BotHarness.start({ transport: "socket", config: config() });
    await stopped(h);
    await h.user.slashCommand({ user: ALICE, text: "start gpu-a" });
    await h.emulator.waitFor(() => h.state.audit.byAction("start").length === 1, "the start ran");
    h.pollFor(9, nothing);
    await h.settle();
    const unconfirmed = /^gpu-a was started 10:\d\d but has not reported within 10 min/;
    assert.equal(h.dmTexts(ALICE).filter((text) => unconfirmed.test(text)).length, 0);
    h.pollFor(5, nothing);
    await h.settle();
    assert.equal(h.dmTexts(ALICE).filter((text) => unconfirmed.test(text)).length, 1);
    assert.equal(h.threadTexts("gpu-a").filter((text) => unconfirmed.test(text)).length, 1);
    assert.equal(h.state.audit.byAction("start-unconfirmed").length, 1);
  });
});

describe("a stopped host in App Home and before a reservation", { timeout: 60_000 }, () => {
  let h: BotHarness;
  afterEach(() => h.closeChecked());

  test("App Home shows it stopped since … by … with Start, which starts it", async () => {
    h = await BotHarness.start({ transport: "socket", config: config() });
    await stopped(h);
    await h.user.event({ type: "app_home_opened", user: ALICE });
    await h.settle();
    const home = h.emulator.home(ALICE)!;
    assert.deepEqual(viewProblems(home.view, "home"), []);
    assert.match(
      shownText(home.view.blocks as unknown[]),
      new RegExp(`• \\*gpu-a\\* stopped since 10:0\\d by <@${ALICE}>`),
    );
    assert.ok(actionIds(home.view.blocks as unknown[]).includes("start_host"));
    await h.user.clickButton({ user: ALICE, view: home, actionId: "start_host" });
    await h.emulator.waitFor(() => h.state.audit.byAction("start").length === 1, "the start ran");
    assert.deepEqual(startRuns(h), ["gpu-a"]);
  });

  test("a reservation starts it start_ahead_minutes before its window, once, and tells the holder when it reports", async () => {
    const reservations = [{ user: BOB, gpus: "gpu-a", every: "daily", from: "10:30", to: "12:00" }];
    h = await BotHarness.start({ transport: "socket", config: config({}, { reservations }) });
    await stopped(h);
    h.runFor(11, nothing);
    assert.equal(latestStart(h.deps, "gpu-a"), null, "not before 10:20");
    h.runFor(1, nothing);
    assert.equal(latestStart(h.deps, "gpu-a")?.startedAtMs, h.clock.now(), "at 10:20");
    await h.emulator.waitFor(() => h.state.audit.byAction("start").length === 1, "the start ran");
    assert.ok(
      h
        .threadTexts("gpu-a")
        .some((text) => text.startsWith(`Starting gpu-a before the reservation of <@${BOB}>`)),
    );
    h.runFor(1, gpuA(4));
    await h.settle();
    assert.equal(h.dmTexts(BOB).filter((text) => text.startsWith("gpu-a is up again")).length, 1);
    h.runFor(15, nothing);
    await h.settle();
    assert.deepEqual(startRuns(h), ["gpu-a"]);
  });
});

describe("claims of a stopped host over signed HTTP", { timeout: 60_000 }, () => {
  let h: BotHarness;
  afterEach(() => h.closeChecked());

  test("20 concurrent claims start it exactly once; every claimant hears when it reports", async () => {
    h = await BotHarness.start({ transport: "http", config: config({ sleepS: 0.5 }) });
    await stopped(h, 20);
    const claimers = Array.from({ length: 20 }, (_, i) => `U0S${String(i).padStart(3, "0")}`);
    for (const id of claimers) h.emulator.addUser({ id });
    const deliveries = await Promise.all(
      claimers.map((user, i) => h.user.slashCommand({ user, text: `claim gpu-a:${i} for 4h` })),
    );
    assert.ok(deliveries.every((delivery) => delivery.acked));
    assert.equal(h.state.claims.activeOn("gpu-a", h.clock.now()).length, 20);
    await h.emulator.waitFor(() => h.state.audit.byAction("start").length === 1, "the start ran");
    assert.deepEqual(startRuns(h), ["gpu-a"]);
    h.pollFor(1, gpuA(20));
    await h.settle();
    for (const user of claimers) {
      const texts = h.dmTexts(user);
      assert.ok(
        texts.some((text) => text.startsWith("Starting gpu-a for the claim of")),
        `${user}: ${texts.join(" | ")}`,
      );
      assert.equal(texts.filter((text) => text.startsWith("gpu-a is up again")).length, 1, user);
    }
    assert.deepEqual(startRuns(h), ["gpu-a"]);
  });
});
