import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, test } from "node:test";
import { hostNowWords } from "../../src/bot/views/alerts/host-now-words.ts";
import { stopResultWords } from "../../src/bot/views/power/stop-words.ts";
import { INITIAL_IDLE_EPISODE } from "../../src/checks/idle-episode.ts";
import { DEFAULT_IDLE_POLICY } from "../../src/checks/idle-policy.ts";
import { translator } from "../../src/messages/translator.ts";
import { MINUTE_MS } from "../../src/shared/clock.ts";
import { BOT_ACTOR } from "../../src/usecases/power/action-text.ts";
import { assessHostNow } from "../../src/usecases/power/assess-host-now.ts";
import { endInterruptedStops } from "../../src/usecases/power/interrupted-stops.ts";
import {
  beginStop,
  runStop,
  type StopResult,
  stopAutomatically,
  stopHost,
} from "../../src/usecases/power/stop-host.ts";
import { failedAt, observed, reading, session } from "../checks/builders.ts";
import {
  ALICE,
  BOB,
  CAROL,
  DAVE,
  EVE,
  scriptRuns,
  stopScript,
  T0,
  UseCaseRig,
} from "../helpers/bot-harness.ts";

const UTC = "UTC";
const EN = translator({ language: "en", timeZone: UTC, currency: "USD" });
/** What the person who asked reads. */
const said = (result: StopResult) => stopResultWords(EN, result);

describe("assessHostNow: the re-check at confirmation time", () => {
  const now = T0 + 10 * MINUTE_MS;
  const assess = (latest: Parameters<typeof assessHostNow>[1]) => {
    const found = assessHostNow("gpu-a", latest, now, DEFAULT_IDLE_POLICY);
    return found.kind === "idle"
      ? found
      : { kind: found.kind, text: hostNowWords(EN, "gpu-a", found.facts), sinceMs: found.sinceMs };
  };

  test("idle: every GPU below the threshold and nobody active", () => {
    assert.deepEqual(
      assess({ observation: observed("gpu-a", now, [0, 3, 9.9], [session("bob", 45)]), lastOkAtMs: now }),
      {
        kind: "idle",
      },
    );
  });

  test("busy names the busiest GPUs", () => {
    assert.deepEqual(assess({ observation: observed("gpu-a", now, [0, 0, 0, 97]), lastOkAtMs: now }), {
      kind: "busy",
      text: "gpu-a is busy now: GPU 3 at 97 %",
      sinceMs: null,
    });
    assert.equal(
      (
        assess({ observation: observed("gpu-a", now, [10, 98, 80, 50, 12, null]), lastOkAtMs: now }) as {
          text: string;
        }
      ).text,
      "gpu-a is busy now: GPU 1 at 98 %, GPU 2 at 80 % and 3 more",
    );
  });

  test("an active login session makes it in use; one idle for the whole window does not", () => {
    assert.deepEqual(
      assess({
        observation: observed("gpu-a", now, [0, 0], [session("alice", 2), session("bob", 60)]),
        lastOkAtMs: now,
      }),
      { kind: "in-use", text: "gpu-a is in use now: alice is logged in (pts/0)", sinceMs: null },
    );
  });

  test("no data: stale, failed, a GPU without reading, never seen", () => {
    const at = T0 + 2 * MINUTE_MS;
    assert.deepEqual(assess({ observation: observed("gpu-a", at, [0]), lastOkAtMs: at }), {
      kind: "no-data",
      text: "no data from gpu-a since 09:02: not stopping a host I can't see",
      sinceMs: at,
    });
    assert.deepEqual(assess({ observation: failedAt("gpu-a", now), lastOkAtMs: at }), {
      kind: "no-data",
      text: "no data from gpu-a since 09:02 (ssh timed out after 20 s): not stopping a host I can't see",
      sinceMs: at,
    });
    const mig = observed("gpu-a", now, [0, 0]);
    mig.gpus[1] = reading(1, null, { mig: true });
    assert.deepEqual(assess({ observation: mig, lastOkAtMs: now }), {
      kind: "no-data",
      text: "gpu-a GPU 1 has no utilisation reading: not stopping a host I can't see",
      sinceMs: now,
    });
    assert.deepEqual(assess(null), {
      kind: "no-data",
      text: "no data from gpu-a yet: not stopping a host I can't see",
      sinceMs: null,
    });
  });
});

describe("stopHost", { timeout: 30_000 }, () => {
  let rig: UseCaseRig;
  afterEach(() => rig.close());

  const config = (hosts: Record<string, unknown>) => ({
    slack: { admins: [DAVE] },
    warden: { roster: [CAROL] },
    hosts,
  });
  const idleNow = () => rig.fleet.observe(observed("gpu-a", rig.clock.now(), [0, 0]));

  test("pre_stop runs first; its failure cancels the stop, frees the key and is reported", async () => {
    rig = new UseCaseRig((dir) =>
      config({
        "gpu-a": {
          owners: [ALICE],
          pre_stop: { command: [stopScript(dir, "snapshot", { exitCode: 3 }), "gpu-a"] },
          stop: { command: [stopScript(dir, "poweroff"), "gpu-a"] },
        },
      }),
    );
    idleNow();
    const result = await stopHost(rig.deps, { host: "gpu-a", actor: ALICE, reason: "test" });
    assert.equal(result.kind, "failed");
    assert.equal(
      said(result),
      `Stop of gpu-a cancelled: the pre-stop step \`${rig.dir}/snapshot gpu-a\` exited 3. Nothing was stopped.\n\`\`\`\npowering off gpu-a\n\`\`\``,
    );
    assert.deepEqual(scriptRuns(rig.dir, "snapshot"), ["gpu-a"]);
    assert.deepEqual(scriptRuns(rig.dir, "poweroff"), []);
    assert.equal(rig.state.stopRuns.latestFor("gpu-a")?.state, "failed");
    assert.deepEqual(
      rig.state.audit.forHost("gpu-a", 5).map((entry) => [entry.action, entry.exitCode]),
      [["pre-stop-failed", 3]],
    );
    assert.deepEqual(rig.alerts.thread("gpu-a"), [
      `<@${ALICE}> is stopping gpu-a: running \`${rig.dir}/snapshot gpu-a\` then \`${rig.dir}/poweroff gpu-a\`.`,
      said(result),
    ]);

    const again = await stopHost(rig.deps, { host: "gpu-a", actor: ALICE, reason: "test" });
    assert.equal(again.kind, "failed", "the key was freed: the second try runs again");
    assert.deepEqual(scriptRuns(rig.dir, "snapshot"), ["gpu-a", "gpu-a"]);
  });

  test("a webhook stop gets the host, the actor and the reason, and its HTTP status is the outcome", async () => {
    const bodies: unknown[] = [];
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on("end", () => {
        bodies.push(JSON.parse(body));
        res.writeHead(202).end("instance stopping");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/stop`;
      rig = new UseCaseRig(
        config({ "gpu-a": { owners: [ALICE], stop: { webhook: url, body: { zone: "eu" } } } }),
      );
      idleNow();
      const result = await stopHost(rig.deps, { host: "gpu-a", actor: CAROL, reason: "Stop button" });
      assert.equal(result.kind, "stopped");
      assert.equal(
        said(result),
        `gpu-a stopped by <@${CAROL}>: \`POST ${url}\` answered HTTP 202.\n\`\`\`\ninstance stopping\n\`\`\``,
      );
      assert.deepEqual(bodies, [
        {
          zone: "eu",
          host: "gpu-a",
          actor: CAROL,
          reason: "Stop button",
          forced: false,
          at: "2026-01-05T09:00:00.000Z",
        },
      ]);
      assert.deepEqual(rig.alerts.calls.at(-1), { kind: "resolve", host: "gpu-a", resolution: "stopped" });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  test("20 concurrent requests for one alert run the stop once; the others hear who is stopping it", async () => {
    rig = new UseCaseRig((dir) =>
      config({
        "gpu-a": {
          owners: [ALICE],
          stop: { command: [stopScript(dir, "poweroff", { sleepS: 0.2 }), "gpu-a"] },
        },
      }),
    );
    idleNow();
    const actors = [ALICE, CAROL, DAVE];
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        stopHost(rig.deps, { host: "gpu-a", actor: actors[i % 3]!, alertId: 7, reason: "test" }),
      ),
    );
    assert.deepEqual(scriptRuns(rig.dir, "poweroff"), ["gpu-a"]);
    assert.equal(results.filter((result) => result.kind === "stopped").length, 1);
    assert.deepEqual(
      [...new Set(results.filter((result) => result.kind !== "stopped").map((result) => said(result)))],
      [`gpu-a is already being stopped by <@${ALICE}> since 09:00.`],
    );
    const later = await stopHost(rig.deps, { host: "gpu-a", actor: DAVE, alertId: 7, reason: "test" });
    assert.equal(said(later), `gpu-a was already stopped by <@${ALICE}> at 09:00.`);
    assert.equal(rig.state.stopRuns.latestFor("gpu-a")?.key, "alert:7");
  });

  test("a host seen answering again after a stop can be stopped again (a new episode, a new key)", async () => {
    rig = new UseCaseRig((dir) =>
      config({ "gpu-a": { owners: [ALICE], stop: { command: [stopScript(dir, "poweroff"), "gpu-a"] } } }),
    );
    rig.fleet.states.set("gpu-a", {
      ...INITIAL_IDLE_EPISODE,
      status: "idle-pending",
      idleSinceMs: T0 - 5 * MINUTE_MS,
    });
    idleNow();
    assert.equal((await stopHost(rig.deps, { host: "gpu-a", actor: ALICE, reason: "test" })).kind, "stopped");
    const unseen = await stopHost(rig.deps, { host: "gpu-a", actor: ALICE, reason: "test" });
    assert.equal(said(unseen), `gpu-a was already stopped by <@${ALICE}> at 09:00.`);
    rig.clock.advance(60 * MINUTE_MS);
    idleNow();
    rig.fleet.states.set("gpu-a", {
      ...INITIAL_IDLE_EPISODE,
      status: "idle-pending",
      idleSinceMs: rig.clock.now(),
    });
    const again = await stopHost(rig.deps, { host: "gpu-a", actor: ALICE, reason: "test" });
    assert.equal(again.kind, "stopped");
    assert.equal(rig.state.stopRuns.latestFor("gpu-a")?.key, `host:gpu-a:${rig.clock.now()}`);
    assert.deepEqual(scriptRuns(rig.dir, "poweroff"), ["gpu-a", "gpu-a"]);
  });

  test("force: only an admin's counts, only past busy/in use/no data, and it is recorded", async () => {
    rig = new UseCaseRig((dir) =>
      config({ "gpu-a": { owners: [ALICE], stop: { command: [stopScript(dir, "poweroff"), "gpu-a"] } } }),
    );
    rig.fleet.observe(observed("gpu-a", rig.clock.now(), [0, 55]));
    const owner = await stopHost(rig.deps, { host: "gpu-a", actor: ALICE, force: true, reason: "test" });
    assert.deepEqual(owner.kind === "refused" && [owner.reason, said(owner), owner.forceable], [
      "busy",
      "gpu-a is busy now: GPU 1 at 55 %",
      true,
    ]);
    const admin = await stopHost(rig.deps, { host: "gpu-a", actor: DAVE, force: true, reason: "test" });
    assert.deepEqual(admin.kind === "stopped" && admin.forced, true);
    const [entry] = rig.state.audit.byAction("stop");
    assert.deepEqual(
      [entry?.actor, entry?.forced, entry?.detail.overrode],
      [DAVE, true, { reason: "busy", gpus: [{ slot: "1", utilPct: 55 }] }],
    );
    assert.equal(rig.state.stopRuns.latestFor("gpu-a")?.forced, true);
  });

  test("refusals: unknown host, never_stop, nobody allowed, no stop action", async () => {
    rig = new UseCaseRig({
      hosts: {
        "gpu-b1": { stop: { command: ["true"] } },
        inference: { never_stop: true, stop: { command: ["true"] } },
        "gpu-c": { owners: [ALICE] },
      },
      slack: { admins: [] },
    });
    const texts = [];
    for (const host of ["gpu-b", "inference", "gpu-b1", "gpu-c"]) {
      const result = await stopHost(rig.deps, { host, actor: ALICE, reason: "test" });
      texts.push(said(result));
    }
    assert.deepEqual(texts, [
      "no host gpu-b; did you mean gpu-b1?",
      "inference is marked `never_stop` in the config: it is never stopped.",
      "Nobody can stop gpu-b1 yet: add its owners under `hosts.gpu-b1.owners` or admins under `slack.admins` in the config.",
      "gpu-c has no stop action. Add one under `hosts.gpu-c.stop` in the config, e.g. `stop: { command: [ssh, gpu-c, sudo, poweroff] }` or `stop: { webhook: https://… }`.",
    ]);
    assert.deepEqual(
      rig.state.audit.byAction("stop-refused").map((entry) => [entry.host, entry.detail.reason]),
      [
        ["inference", "never-stop"],
        ["gpu-b1", "not-allowed"],
        ["gpu-c", "no-stop-action"],
      ],
    );
  });

  test("automatic stops need the episode still on, no keep and no claim; a cancelled one says why in the thread", async () => {
    rig = new UseCaseRig((dir) =>
      config({ "gpu-a": { owners: [ALICE], stop: { command: [stopScript(dir, "poweroff"), "gpu-a"] } } }),
    );
    idleNow();
    const idleState = {
      ...INITIAL_IDLE_EPISODE,
      status: "idle" as const,
      idleSinceMs: T0 - 40 * MINUTE_MS,
      episodeStartedAtMs: T0 - 10 * MINUTE_MS,
    };
    rig.fleet.states.set("gpu-a", { ...idleState, status: "idle-pending", episodeStartedAtMs: null });
    const pending = await stopAutomatically(rig.deps, "gpu-a", 3);
    rig.fleet.states.set("gpu-a", idleState);
    rig.state.snoozes.set({ host: "gpu-a", untilMs: T0 + 60 * MINUTE_MS, byUser: BOB, setAtMs: T0 });
    const kept = await stopAutomatically(rig.deps, "gpu-a", 3);
    rig.state.snoozes.set({ host: "gpu-a", untilMs: T0, byUser: BOB, setAtMs: T0 });
    rig.state.claims.add({
      host: "gpu-a",
      gpuIndex: null,
      user: EVE,
      fromMs: T0,
      untilMs: T0 + 8 * 60 * MINUTE_MS,
      note: "",
    });
    const claimed = await stopAutomatically(rig.deps, "gpu-a", 3);
    assert.deepEqual(
      [pending, kept, claimed].map((result) => said(result)),
      [
        "gpu-a is no longer in an idle episode (idle-pending).",
        `gpu-a is kept by <@${BOB}> until 10:00.`,
        `gpu-a is claimed by <@${EVE}> until 17:00.`,
      ],
    );
    assert.deepEqual(
      rig.alerts.thread("gpu-a"),
      [pending, kept, claimed].map((result) => `Automatic stop of gpu-a cancelled: ${said(result)}`),
    );
    assert.deepEqual(scriptRuns(rig.dir, "poweroff"), []);
  });

  test("a run a dead process left running blocks only until its timeout; then it is interrupted, not a refusal", async () => {
    rig = new UseCaseRig((dir) =>
      config({
        "gpu-a": {
          owners: [ALICE],
          stop: { command: [stopScript(dir, "poweroff"), "gpu-a"], timeout_seconds: 120 },
        },
      }),
    );
    const startedAtMs = rig.clock.now();
    const left = { key: "alert:4", host: "gpu-a", alertId: 4, actor: ALICE, forced: false, dryRun: false };
    rig.state.stopRuns.begin({ ...left, startedAtMs });
    rig.clock.advance(MINUTE_MS);
    rig.fleet.observe(observed("gpu-a", rig.clock.now(), [0, 55]));
    const early = await stopHost(rig.deps, { host: "gpu-a", actor: DAVE, force: true, reason: "test" });
    assert.equal(early.kind === "refused" && early.reason, "already-running");
    assert.deepEqual(endInterruptedStops(rig.deps), [], "within its timeout the run may still be going");

    rig.clock.advance(7 * 24 * 60 * MINUTE_MS);
    rig.fleet.observe(observed("gpu-a", rig.clock.now(), [0, 55]));
    const forced = await stopHost(rig.deps, { host: "gpu-a", actor: DAVE, force: true, reason: "test" });
    assert.equal(forced.kind === "stopped" && forced.forced, true);
    assert.deepEqual(rig.alerts.thread("gpu-a").slice(0, 1), [
      `The stop of gpu-a by <@${ALICE}> was interrupted: gpu-warden restarted before it finished, so it may or may not have run. gpu-a still reports, so it most likely did not stop. Stop can be tried again.`,
    ]);
    const [interrupted] = rig.state.audit.byAction("stop-interrupted");
    assert.deepEqual(
      [interrupted?.host, interrupted?.detail.by, interrupted?.detail.key],
      ["gpu-a", ALICE, "alert:4"],
    );
    assert.deepEqual(endInterruptedStops(rig.deps), [], "ended once");
    assert.equal(rig.state.audit.byAction("stop-interrupted").length, 1);
  });

  test("at start, only runs past their timeout are ended; a silent host may have stopped", () => {
    rig = new UseCaseRig((dir) =>
      config({ "gpu-a": { owners: [ALICE], stop: { command: [stopScript(dir, "poweroff"), "gpu-a"] } } }),
    );
    const run = { host: "gpu-a", alertId: null, actor: BOT_ACTOR, forced: false, dryRun: false };
    rig.state.stopRuns.begin({ ...run, key: "host:gpu-a:1", startedAtMs: rig.clock.now() });
    rig.clock.advance(10 * MINUTE_MS);
    assert.deepEqual(
      endInterruptedStops(rig.deps).map((ended) => ended.key),
      ["host:gpu-a:1"],
    );
    assert.equal(rig.state.stopRuns.latestFor("gpu-a")?.state, "interrupted");
    assert.deepEqual(rig.alerts.thread("gpu-a"), [
      "The automatic stop of gpu-a was interrupted: gpu-warden restarted before it finished, so it may or may not have run. gpu-a has not reported since, so it may have stopped. Stop can be tried again.",
    ]);
  });

  test("an error after the key is taken frees it (the stop can be tried again)", async () => {
    rig = new UseCaseRig((dir) =>
      config({ "gpu-a": { owners: [ALICE], stop: { command: [stopScript(dir, "poweroff"), "gpu-a"] } } }),
    );
    idleNow();
    const plan = beginStop(rig.deps, { host: "gpu-a", actor: ALICE, alertId: 4, reason: "test" });
    assert.equal(plan.kind, "begun");
    if (plan.kind !== "begun") return;
    rig.alerts.postInThread = () => {
      throw new Error("outbox is gone");
    };
    await assert.rejects(runStop(rig.deps, plan), /outbox is gone/);
    assert.equal(rig.state.stopRuns.latestFor("gpu-a")?.state, "failed");
  });
});
