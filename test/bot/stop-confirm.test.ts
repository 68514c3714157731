import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";
import type { HostObservation } from "../../src/domain/observation.ts";
import type { StoredMessage } from "../../src/playground/slack-emulator/emulator-state.ts";
import { gpuProcess, observed, reading, session } from "../checks/builders.ts";
import { ALICE, BotHarness, poweroffRuns, standardConfig } from "../helpers/bot-harness.ts";

type Block = Record<string, unknown> & { type: string };
interface Confirm {
  title: { text: string };
  text: { text: string };
}

/** The confirm dialog of the message's Stop button, as Slack shows it. */
function stopConfirm(message: StoredMessage): Confirm {
  for (const block of message.blocks as Block[]) {
    if (block.type !== "actions") continue;
    for (const element of block.elements as { action_id: string; confirm?: Confirm }[]) {
      if (element.action_id === "stop_host" && element.confirm !== undefined) return element.confirm;
    }
  }
  throw new Error("no Stop button with a confirm dialog");
}

/** gpu-a: GPU 0 holds 70 GiB with no process listed (a notebook's kernel, as Prometheus shows it). */
function notebookHost(atMs: number): HostObservation {
  const observation = observed("gpu-a", atMs, [0, 0, 0, 0], []);
  observation.gpus[0] = reading(0, 0, { memUsedMiB: 71_680 });
  return observation;
}

/** gpu-n: bob's notebook kernel holds 20 GiB at 0 % on GPU 0; bob last typed there 14 h ago. */
function yesterdaysNotebook(atMs: number): HostObservation {
  const observation = observed("gpu-n", atMs, [0, 0, 0, 0], [session("bob", 14 * 60)]);
  observation.gpus[0] = reading(0, 0, {
    memUsedMiB: 20_480,
    processes: [gpuProcess("bob", "python3 -m ipykernel_launcher", 20_480)],
  });
  return observation;
}

/** gpu-w: 16 GPUs, every one held by a process with a long command line. */
function crowdedHost(atMs: number): HostObservation {
  const observation = observed("gpu-w", atMs, Array(16).fill(0), []);
  observation.gpus = observation.gpus.map((gpu) =>
    reading(gpu.index, 0, {
      memUsedMiB: 40_000,
      processes: [gpuProcess(`user-${gpu.index}-${"x".repeat(40)}`, `python ${"y".repeat(300)}.py`, 40_000)],
    }),
  );
  return observation;
}

describe("the Stop confirmation says what may be lost", { timeout: 60_000 }, () => {
  let h: BotHarness;
  afterEach(() => h.closeChecked());

  test("the alert's confirm dialog and the /gpu stop preview name the GPU still holding memory, within Block Kit's limits", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig({
        "gpu-a": { owners: [ALICE], stop: "script" },
        "gpu-i": { owners: [ALICE], stop: "script" },
        "gpu-w": { owners: [ALICE], stop: "script" },
      }),
    });
    h.pollFor(6, (atMs) => [
      notebookHost(atMs),
      observed("gpu-i", atMs, [0, 0, 0, 0], []),
      crowdedHost(atMs),
    ]);
    await h.settle();

    const notebook = stopConfirm(h.alertMessage("gpu-a"));
    assert.equal(
      notebook.text.text,
      "⚠️ GPU 0 holds 70.0 GiB (a notebook?): unsaved work there is lost.\n\n" +
        "The bot checks that gpu-a is still idle, then runs its stop action.",
    );
    assert.equal(
      stopConfirm(h.alertMessage("gpu-i")).text.text,
      "The bot checks that gpu-i is still idle, then runs its stop action.",
      "nothing held, nothing to warn about",
    );
    const crowded = stopConfirm(h.alertMessage("gpu-w")).text.text;
    assert.ok(Array.from(crowded).length <= 300, `${crowded.length} characters`);
    assert.match(
      crowded,
      /^⚠️ GPUs 0, 1, 2, 3, 4, 5, 10 more hold 625\.0 GiB \(user-0-x+…: `python y+…y+\.py`, /,
    );
    assert.match(
      crowded,
      /, 14 more\): unsaved work there is lost\.\n\nThe bot checks that gpu-w is still idle/,
    );

    await h.user.slashCommand({ user: ALICE, text: "stop gpu-a" });
    const preview = h.latestEphemeral(ALICE);
    assert.deepEqual(preview.blocks[0]?.text, {
      type: "mrkdwn",
      text:
        `Stop *gpu-a*? This runs \`${h.dir}/poweroff gpu-a\`.\n` +
        "⚠️ GPU 0 holds 70.0 GiB (a notebook?): unsaved work there is lost.",
    });
    await h.user.clickButton({ user: ALICE, message: preview, actionId: "stop_host" });
    await h.emulator.waitFor(() => h.state.stopRuns.latestFor("gpu-a")?.state === "done", "the stop");
    await h.settle();
    assert.deepEqual(poweroffRuns(h), ["gpu-a"]);
  });

  test("the confirm dialog and the /gpu stop preview name who typed on the host recently, and how long ago", async () => {
    h = await BotHarness.start({
      transport: "socket",
      config: standardConfig({ "gpu-n": { owners: [ALICE], stop: "script" } }),
    });
    h.pollFor(6, (atMs) => [yesterdaysNotebook(atMs)]);
    await h.settle();
    const recent =
      "⚠️ Recent input on gpu-n: bob 14 h ago (`python3 -m i…el_launcher`, 20.0 GiB). A stop ends their sessions, which the autopilot leaves alone.";
    const confirm = stopConfirm(h.alertMessage("gpu-n")).text.text;
    assert.ok(confirm.startsWith(`${recent}\n`), confirm);
    assert.ok(Array.from(confirm).length <= 300, `${confirm.length} characters`);
    assert.match(confirm, /The bot checks that gpu-n is still idle, then runs its stop action\.$/);

    await h.user.slashCommand({ user: ALICE, text: "stop gpu-n" });
    const preview = h.latestEphemeral(ALICE);
    assert.deepEqual(preview.blocks[0]?.text, {
      type: "mrkdwn",
      text:
        `Stop *gpu-n*? This runs \`${h.dir}/poweroff gpu-n\`.\n${recent}\n` +
        "⚠️ GPU 0 holds 20.0 GiB (bob: `python3 -m i…el_launcher`): unsaved work there is lost.",
    });
    assert.deepEqual(poweroffRuns(h), [], "a warning, not a refusal: nothing ran yet");
  });
});
