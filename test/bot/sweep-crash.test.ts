import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  type SlackEmulator,
  startSlackEmulator,
} from "../../src/playground/slack-emulator/start-slack-emulator.ts";
import { createSimulatedSource } from "../../src/sources/simulated-source.ts";
import { runChildScript } from "../helpers/kill-child.ts";

const CHANNEL = "C0GPUTEAM";
const OWNER = "U0OWNER01";
const child = join(import.meta.dirname, "sweep-crash-child.ts");
const dir = mkdtempSync(join(tmpdir(), "gw-sweep-crash-"));
const configPath = join(dir, "config.json");
/** Monday 5 January 2026, 09:00 UTC. */
const T0 = Date.UTC(2026, 0, 5, 9, 0);
const SOURCE = { kind: "simulated" as const, hosts: 10, gpus_per_host: 2, seed: 7 };
/** The fleet's forgotten hosts: idle for hours when the bot starts, each alerted in its first poll. */
const forgotten = createSimulatedSource(SOURCE, { clock: { now: () => T0 }, timezone: "UTC" })
  .fleet.hosts.filter((host) => host.role === "forgotten")
  .map((host) => host.name);
let slack: SlackEmulator;

before(async () => {
  slack = await startSlackEmulator({
    users: [{ id: OWNER, name: "owner" }],
    channels: [{ id: CHANNEL, name: "gpu" }],
  });
  const config = {
    slack: { channel: CHANNEL },
    http: { port: 0 },
    store: { path: join(dir, "gpu-warden.db") },
    poll: { interval_seconds: 60 },
    sources: [SOURCE],
    hosts: Object.fromEntries(forgotten.map((host) => [host, { owners: [OWNER] }])),
  };
  writeFileSync(configPath, JSON.stringify(config));
});
after(async () => {
  await slack.close();
  rmSync(dir, { recursive: true, force: true });
});

function runBot(mode: "crash-in-sweep" | "restart"): Promise<string> {
  const { botToken, appToken } = slack.identity;
  const args = [configPath, String(T0), slack.apiUrl, botToken, appToken, mode];
  return runChildScript(child, args, mode === "crash-in-sweep" ? /polled/ : null);
}

describe("a kill -9 in the middle of a poll's idle checks", { timeout: 120_000 }, () => {
  it("loses no alert: after the restart every idle host's alert is in the channel once, and its owner's DM", async () => {
    assert.ok(forgotten.length >= 2, "the fleet has two forgotten hosts (else pick another seed)");
    assert.equal(await runBot("crash-in-sweep"), "", "the bot died opening its second alert");
    assert.deepEqual(slack.channel(CHANNEL).messages, [], "nothing was posted before the kill");

    await runBot("restart");

    const alerted = (texts: string[]) =>
      forgotten.map((host) => texts.filter((text) => text.includes(`${host} is idle`)).length);
    const channel = slack.channel(CHANNEL).messages.map((message) => message.text);
    assert.deepEqual(
      alerted(channel),
      forgotten.map(() => 1),
      `one alert per forgotten host (${forgotten.join(", ")}): ${channel.join(" | ")}`,
    );
    const dms = slack.dms(OWNER).map((message) => message.text);
    assert.deepEqual(
      alerted(dms),
      forgotten.map(() => 1),
      `one DM per host: ${dms.join(" | ")}`,
    );
  });
});
