import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { after, describe, it } from "node:test";
import { parseConfig, readEnv } from "../src/config/load-config.ts";
import { startBot } from "../src/main.ts";
import { startSlackEmulator } from "../src/playground/slack-emulator/start-slack-emulator.ts";
import { systemClock } from "../src/shared/clock.ts";
import { createLogger, silentLogger } from "../src/shared/logger.ts";
import { createSimulatedSource } from "../src/sources/simulated-source.ts";

const dir = mkdtempSync(join(tmpdir(), "gw-main-slack-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const CHANNEL = "C0GPUTEAM";
const OWNER = "U0OWNER01";

for (const transport of ["socket", "http"] as const) {
  describe(`gpu-warden start with Slack tokens (${transport === "socket" ? "Socket Mode" : "HTTP mode"})`, () => {
    it("posts idle alerts to the channel, answers /gpu status and stops a host from the alert button", async () => {
      const slack = await startSlackEmulator({
        users: [{ id: OWNER, name: "owner" }],
        channels: [{ id: CHANNEL, name: "gpu" }],
      });
      const source = { kind: "simulated" as const, hosts: 4, gpus_per_host: 2, seed: 42 };
      const forgotten = createSimulatedSource(source, { clock: systemClock, timezone: "UTC" })
        .fleet.hosts.filter((host) => host.role === "forgotten")
        .map((host) => host.name);
      const target = forgotten[0]!;
      const stopLog = join(dir, `${transport}-stops.log`);
      writeFileSync(stopLog, "");
      const config = parseConfig({
        http: { port: 0 },
        slack: { channel: CHANNEL },
        // NOTE: every forgotten host gets its own alert in the channel here (no storm digest).
        alerts: { digest_over: 1_000 },
        store: { path: join(dir, `${transport}.db`) },
        poll: { interval_seconds: 3600 },
        sources: [source],
        hosts: {
          [target]: { owners: [OWNER], stop: { command: ["sh", "-c", `echo "$0" >> ${stopLog}`, target] } },
        },
      });
      const { identity } = slack;
      const env = readEnv({
        SLACK_BOT_TOKEN: identity.botToken,
        SLACK_API_URL: slack.apiUrl,
        ...(transport === "socket"
          ? { SLACK_APP_TOKEN: identity.appToken }
          : { SLACK_SIGNING_SECRET: identity.signingSecret }),
      });
      const bot = await startBot({
        loaded: { config, env, file: null },
        logger: process.env.DEBUG_TEST ? createLogger("debug") : silentLogger,
        pathEnv: "",
        hostName: "test",
        stdout: new PassThrough(),
      });
      try {
        assert.equal(bot.mode, transport);
        await bot.pollNow();
        const messages = () => slack.channel(CHANNEL).messages;
        await slack.waitFor(
          () => forgotten.every((host) => messages().some((m) => m.text.includes(`${host} is idle`))),
          "an alert for every forgotten host",
          // NOTE: the outbox posts to the channel one a second (Slack's limit), on the system clock here.
          30_000,
        );
        const alert = messages().find((m) => m.text.includes(`${target} is idle`))!;
        assert.match(JSON.stringify(alert.blocks), /"action_id":"stop_host"/);
        assert.ok(
          slack.dms(OWNER).some((m) => m.text.includes(target)),
          "the owner gets a DM",
        );

        const health = await fetch(`${bot.httpUrl}/healthz`);
        assert.equal(health.status, 200);

        const user = transport === "socket" ? slack : slack.http(`${bot.httpUrl}/slack/events`);
        await user.slashCommand({ user: OWNER, text: "status" });
        await slack.waitFor(() => slack.ephemerals(OWNER).length === 1, "the status board");
        assert.match(slack.ephemerals(OWNER)[0]!.text, /4 hosts/);

        await user.clickButton({ user: OWNER, message: alert, actionId: "stop_host" });
        await slack.waitFor(() => readFileSync(stopLog, "utf8") === `${target}\n`, "the stop command");
        await slack.waitFor(
          () =>
            slack
              .channel(CHANNEL)
              .thread(alert.ts)
              .some((m) => m.text.includes(`${target} stopped by <@${OWNER}>`)),
          "the outcome in the thread",
        );
        assert.deepEqual(slack.failures(), []);
      } finally {
        await bot.stop();
        await slack.close();
      }
    });
  });
}
