import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { after, describe, it } from "node:test";
import { parseConfig, readEnv } from "../src/config/load-config.ts";
import { startBot } from "../src/main.ts";
import { startSlackEmulator } from "../src/playground/slack-emulator/start-slack-emulator.ts";
import { systemClock } from "../src/shared/clock.ts";
import { silentLogger } from "../src/shared/logger.ts";
import { createSimulatedSource } from "../src/sources/simulated-source.ts";

const dir = mkdtempSync(join(tmpdir(), "gw-main-locale-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const CHANNEL = "C0GPUTEAM";
const OWNER = "U0OWNER01";

describe("team.language: auto, a zh-CN owner", () => {
  it("the owner's first alert DM is in Chinese: the configured people's locales are looked up at start", async () => {
    const slack = await startSlackEmulator({
      users: [{ id: OWNER, name: "owner", locale: "zh-CN" }],
      channels: [{ id: CHANNEL, name: "gpu" }],
    });
    const source = { kind: "simulated" as const, hosts: 12, gpus_per_host: 8, seed: 42 };
    const target = createSimulatedSource(source, { clock: systemClock, timezone: "UTC" }).fleet.hosts.find(
      (host) => host.role === "forgotten",
    )!.name;
    const config = parseConfig({
      team: { language: "auto" },
      slack: { channel: CHANNEL },
      store: { path: join(dir, "auto.db") },
      poll: { interval_seconds: 3600 },
      sources: [source],
      hosts: { [target]: { owners: [OWNER] } },
    });
    const { identity } = slack;
    const env = readEnv({
      SLACK_BOT_TOKEN: identity.botToken,
      SLACK_API_URL: slack.apiUrl,
      SLACK_APP_TOKEN: identity.appToken,
    });
    const bot = await startBot({
      loaded: { config, env, file: null },
      logger: silentLogger,
      pathEnv: "",
      hostName: "test",
      stdout: new PassThrough(),
    });
    try {
      await bot.pollNow();
      await slack.waitFor(() => slack.dms(OWNER).length > 0, "the owner's DM");
      const first = slack.dms(OWNER)[0]!;
      assert.match(first.text, /闲置/);
      assert.doesNotMatch(first.text, /is idle|owner/);
      // NOTE: the fleet runs on the wall clock. By day the owner's host is one post among a few (Slack's
      // pace is one post a second per channel); at night most of the 12 hosts go idle at once and the
      // channel gets one storm digest instead: either is the channel's post, and in English.
      await slack.waitFor(
        () =>
          slack
            .channel(CHANNEL)
            .messages.some(
              (m) => m.text.includes(`${target} is idle`) || / hosts went idle\*: /.test(m.text),
            ),
        "the channel post in English (auto reads as English there)",
        30_000,
      );
    } finally {
      await bot.stop();
      await slack.close();
    }
  });
});
