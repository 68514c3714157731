import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  type SlackEmulator,
  startSlackEmulator,
} from "../../src/playground/slack-emulator/start-slack-emulator.ts";
import { MINUTE_MS } from "../../src/shared/clock.ts";
import { createSimulatedSource } from "../../src/sources/simulated-source.ts";
import { createBotStateStore } from "../../src/store/bot-state-store.ts";
import { openDatabase } from "../../src/store/open-database.ts";
import { tsChildArgs } from "../helpers/ts-child.ts";

const CHANNEL = "C0GPUTEAM";
const OWNER = "U0OWNER01";
const child = join(import.meta.dirname, "stop-crash-child.ts");
const childArgs = await tsChildArgs(child);
const dir = mkdtempSync(join(tmpdir(), "gw-stop-crash-"));
const dbPath = join(dir, "gpu-warden.db");
const configPath = join(dir, "config.json");
const stopLog = join(dir, "stops.log");
const hang = join(dir, "hang");
const stopPid = join(dir, "stop.pid");
const T0 = Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS;
const SOURCE = { kind: "simulated" as const, hosts: 6, gpus_per_host: 4, seed: 42 };
const target = createSimulatedSource(SOURCE, { clock: { now: () => T0 }, timezone: "UTC" }).fleet.hosts.find(
  (host) => host.role === "forgotten",
)!.name;
let slack: SlackEmulator;
let bot: ChildProcess | undefined;

before(async () => {
  slack = await startSlackEmulator({
    users: [{ id: OWNER, name: "owner" }],
    channels: [{ id: CHANNEL, name: "gpu" }],
  });
  /** The stop logs its host and, while `hang` exists, hangs (its pid kept so the test can end it). */
  const script = `echo "$0" >> ${stopLog}; echo $$ > ${stopPid}; if [ -e ${hang} ]; then exec sleep 60; fi`;
  const config = {
    slack: { channel: CHANNEL },
    http: { port: 0 },
    store: { path: dbPath },
    poll: { interval_seconds: 3600 },
    sources: [SOURCE],
    hosts: {
      [target]: { owners: [OWNER], stop: { command: ["sh", "-c", script, target], timeout_seconds: 60 } },
    },
  };
  writeFileSync(configPath, JSON.stringify(config));
});
after(async () => {
  bot?.kill("SIGKILL");
  killStopCommand();
  await slack.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Starts the bot at `nowMs` and resolves once it has started and polled. */
function startBotAt(nowMs: number): Promise<void> {
  const { botToken, appToken } = slack.identity;
  const proc = spawn(
    process.execPath,
    [...childArgs, configPath, String(nowMs), slack.apiUrl, botToken, appToken],
    { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, TZ: "UTC" } },
  );
  bot = proc;
  return new Promise((resolve, reject) => {
    let err = "";
    proc.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    proc.stdout.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ready")) resolve();
    });
    proc.on("exit", (code) => reject(new Error(`the bot exited (${code}): ${err}`)));
  });
}

/** SIGKILL, and resolves once the process has died. */
function killBot(): Promise<void> {
  const proc = bot!;
  bot = undefined;
  return new Promise((resolve) => {
    proc.removeAllListeners("exit");
    proc.on("exit", () => resolve());
    proc.kill("SIGKILL");
  });
}

/** The stop command outlives the killed bot (as a real `ssh … poweroff` would): end it. */
function killStopCommand(): void {
  if (!existsSync(stopPid)) return;
  try {
    process.kill(Number(readFileSync(stopPid, "utf8")), "SIGKILL");
  } catch {
    // already gone
  }
}

describe("a stop interrupted by a kill -9 does not block the host for ever", { timeout: 120_000 }, () => {
  it("is ended as interrupted after its timeout (audited, said in the thread) and Stop works again", async () => {
    await startBotAt(T0);
    const messages = () => slack.channel(CHANNEL).messages;
    await slack.waitFor(
      () => messages().some((m) => m.text.includes(`${target} is idle`)),
      "the alert",
      30_000,
    );
    const alert = messages().find((m) => m.text.includes(`${target} is idle`))!;
    const thread = () =>
      slack
        .channel(CHANNEL)
        .thread(alert.ts)
        .map((m) => m.text);

    writeFileSync(hang, "");
    await slack.clickButton({ user: OWNER, message: alert, actionId: "stop_host" });
    await slack.waitFor(() => existsSync(stopPid), "the stop command running", 30_000);
    await killBot();
    killStopCommand();

    await startBotAt(T0 + 30_000);
    await slack.clickButton({ user: OWNER, message: alert, actionId: "stop_host" });
    await slack.waitFor(
      () => slack.ephemerals(OWNER).some((m) => /already/i.test(m.text)),
      "a stop still within its timeout is not ended: a second press is refused",
      30_000,
    );
    await killBot();

    unlinkSync(hang);
    await startBotAt(T0 + 2 * MINUTE_MS);
    await slack.waitFor(
      () => thread().some((text) => text.includes(`The stop of ${target} by <@${OWNER}> was interrupted`)),
      "the interruption said in the alert thread",
      30_000,
    );
    await slack.clickButton({ user: OWNER, message: alert, actionId: "stop_host" });
    await slack.waitFor(
      () => thread().some((text) => text.includes(`${target} stopped by <@${OWNER}>`)),
      "the second stop runs",
      30_000,
    );
    await killBot();

    assert.deepEqual(readFileSync(stopLog, "utf8").trim().split("\n"), [target, target]);
    assert.equal(thread().filter((text) => text.includes("was interrupted")).length, 1);
    const db = openDatabase(dbPath);
    try {
      const state = createBotStateStore(db);
      assert.equal(state.audit.byAction("stop-interrupted").length, 1);
      assert.equal(state.audit.byAction("stop").length, 1);
      assert.deepEqual(state.stopRuns.running(), []);
      assert.equal(state.stopRuns.latestFor(target)?.state, "done");
    } finally {
      db.close();
    }
  });
});
