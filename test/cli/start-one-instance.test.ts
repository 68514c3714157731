import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, describe, it } from "node:test";
import {
  type SlackEmulator,
  startSlackEmulator,
} from "../../src/playground/slack-emulator/start-slack-emulator.ts";
import { systemClock } from "../../src/shared/clock.ts";
import { createSimulatedSource } from "../../src/sources/simulated-source.ts";

const bin = resolve("bin/gpu-warden.js");
const dir = mkdtempSync(join(tmpdir(), "gw-one-instance-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const CHANNEL = "C0GPUTEAM";

interface Instance {
  child: ChildProcess;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** `gpu-warden start` through the real bin, as systemd or a person would run it. */
function start(config: string, env: Record<string, string>): Instance {
  const child = spawn(process.execPath, [bin, "start", "--config", config], {
    cwd: dir,
    env: { PATH: "/usr/bin:/bin", HOME: dir, LOG_LEVEL: "info", TZ: "UTC", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  return { child, stderr: () => stderr, exited };
}

async function running(instance: Instance, slack: Pick<SlackEmulator, "waitFor">): Promise<void> {
  await slack.waitFor(
    () => instance.stderr().includes('"msg":"gpu-warden started"') || instance.child.exitCode !== null,
    "the instance to start",
    60_000,
  );
  assert.equal(instance.child.exitCode, null, instance.stderr());
}

describe("two `gpu-warden start` on one store", () => {
  it("runs only one: the other refuses at once naming the store and the PID; a kill -9 leaves no stale lock", async () => {
    const slack = await startSlackEmulator({ channels: [{ id: CHANNEL, name: "gpu" }] });
    const source = { kind: "simulated" as const, hosts: 4, gpus_per_host: 2, seed: 42 };
    const forgotten = createSimulatedSource(source, { clock: systemClock, timezone: "UTC" })
      .fleet.hosts.filter((host) => host.role === "forgotten")
      .map((host) => host.name);
    assert.ok(forgotten.length > 0);
    const store = join(dir, "shared.db");
    const config = join(dir, "gpu-warden.yaml");
    writeFileSync(
      config,
      [
        "http: { port: 0 }",
        `slack: { channel: ${CHANNEL} }`,
        `store: { path: ${store} }`,
        "poll: { interval_seconds: 3600 }",
        "sources:",
        "  - { kind: simulated, hosts: 4, gpus_per_host: 2, seed: 42 }",
        "",
      ].join("\n"),
    );
    const env = {
      SLACK_BOT_TOKEN: slack.identity.botToken,
      SLACK_SIGNING_SECRET: slack.identity.signingSecret,
      SLACK_API_URL: slack.apiUrl,
    };
    const instances = [start(config, env), start(config, env)];
    try {
      const started = (i: Instance) => i.stderr().includes('"msg":"gpu-warden started"');
      await slack.waitFor(
        () => instances.some((i) => i.child.exitCode !== null) || instances.every(started),
        "one instance to refuse (or both to start)",
        60_000,
      );
      const loser = instances.find((i) => i.child.exitCode !== null);
      assert.ok(loser, "one of the two refused to start");
      const loserCode = loser.child.exitCode;
      const winner = instances.find((i) => i !== loser)!;
      assert.equal(loserCode, 1, loser.stderr());
      assert.match(
        loser.stderr(),
        new RegExp(
          `^store ${store} is in use by another gpu-warden \\(PID ${winner.child.pid} on .+\\): end that one first`,
          "m",
        ),
      );
      assert.doesNotMatch(
        loser.stderr(),
        /"msg":"gpu-warden started"|\n\s+at /,
        "refused before starting, no stack",
      );

      await running(winner, slack);
      const alerts = () => slack.channel(CHANNEL).messages.filter((m) => / is idle/.test(m.text));
      await slack.waitFor(
        () => forgotten.every((host) => alerts().some((m) => m.text.includes(`${host} is idle`))),
        "an alert for every forgotten host",
        60_000,
      );
      for (const host of forgotten) {
        assert.equal(
          alerts().filter((m) => m.text.includes(`${host} is idle`)).length,
          1,
          `one alert for ${host}`,
        );
      }

      // The kernel drops the lock with the process: the next start goes ahead.
      winner.child.kill("SIGKILL");
      await winner.exited;
      const next = start(config, env);
      instances.push(next);
      await running(next, slack);
      next.child.kill("SIGTERM");
      assert.equal(await next.exited, 0, next.stderr());
    } finally {
      for (const instance of instances) if (instance.child.exitCode === null) instance.child.kill("SIGKILL");
      await Promise.all(instances.map((i) => i.exited));
      await slack.close();
    }
  });
});
