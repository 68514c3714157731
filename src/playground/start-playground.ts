import { clockTimer } from "../jobs/clock-timer.ts";
import { type BotContext, type RunningBot, startBot } from "../main.ts";
import type { SimulatedSource } from "../sources/simulated-source.ts";
import { ControlledFleet } from "./controlled-fleet.ts";
import { pageRoutes } from "./page-routes.ts";
import { PlaygroundClock } from "./playground-clock.ts";
import {
  PLAYGROUND_CHANNEL,
  PLAYGROUND_GPUS_PER_HOST,
  PLAYGROUND_HOSTS,
  PLAYGROUND_SEED,
  PLAYGROUND_USERS,
  playgroundConfig,
} from "./playground-config.ts";
import { startPowerSwitch } from "./power-switch.ts";
import { startSlackEmulator } from "./slack-emulator/start-slack-emulator.ts";

export interface RunningPlayground {
  /** The page, `http://127.0.0.1:3000/` by default. */
  url: string;
  bot: RunningBot;
  clock: PlaygroundClock;
  fleet: ControlledFleet;
  stop(): Promise<void>;
}

export interface PlaygroundOptions {
  /** Where the clock starts; default now (on `context.clock` when given). */
  startMs?: number;
  /** Simulated ms per real ms at start; default 60. */
  rate?: number;
}

/**
 * gpu-warden in a browser with no Slack workspace: the real bot (`startBot`: Bolt over Socket Mode,
 * use-cases, store, outbox, jobs) against the local Slack emulator, a simulated fleet a person can
 * steer, and a clock that runs fast, pauses and jumps — the jobs follow it through a clock-driven
 * timer. The page is served on the bot's HTTP port next to `/healthz` and `/metrics`. Nothing real
 * is touched: the store is in memory, a stop powers off a simulated host through a loopback webhook.
 */
export async function startPlayground(
  context: BotContext,
  options: PlaygroundOptions = {},
): Promise<RunningPlayground> {
  const startMs = options.startMs ?? context.clock?.now() ?? Date.now();
  const clock = new PlaygroundClock(startMs, options.rate ?? 60);
  const emulator = await startSlackEmulator({
    users: PLAYGROUND_USERS.map((user) => ({ id: user.id, name: user.name, realName: user.name })),
    channels: [{ id: PLAYGROUND_CHANNEL.id, name: PLAYGROUND_CHANNEL.name }],
    defaultTz: context.loaded.config.team.timezone,
  });
  const fleet = new ControlledFleet({
    hosts: PLAYGROUND_HOSTS,
    gpusPerHost: PLAYGROUND_GPUS_PER_HOST,
    seed: PLAYGROUND_SEED,
    timezone: context.loaded.config.team.timezone,
  });
  let onPowerChange = () => {};
  const power = await startPowerSwitch(fleet, () => onPowerChange());
  const config = playgroundConfig(context.loaded.config, { powerUrl: power.url, nowMs: startMs });
  const source: SimulatedSource = {
    kind: "simulated",
    hosts: fleet.hosts.map((host) => host.name),
    fleet,
    poll: (signal) =>
      signal.aborted ? Promise.reject(signal.reason) : Promise.resolve(fleet.observe(clock.now())),
  };
  const timer = clockTimer(clock);
  let bot: RunningBot | null = null;
  const routes = pageRoutes({
    emulator,
    clock,
    fleet,
    config,
    timer,
    bot: () => bot,
    logger: context.logger,
  });
  onPowerChange = routes.changed;
  const { identity } = emulator;
  try {
    bot = await startBot({
      ...context,
      loaded: {
        config,
        file: context.loaded.file,
        env: {
          ...context.loaded.env,
          slackBotToken: identity.botToken,
          slackAppToken: identity.appToken,
          slackSigningSecret: null,
          slackApiUrl: emulator.apiUrl,
        },
      },
      clock,
      // NOTE: the emulator has no per-channel limit, and the page's clock may be paused: no pacing.
      postIntervalMs: 0,
      sources: [source],
      jobTimer: timer,
      httpRoutes: (req, res) => routes.handle(req, res),
    });
  } catch (error) {
    routes.close();
    await power.close();
    await emulator.close();
    throw error;
  }
  const running = bot;
  return {
    url: `${running.httpUrl}/`,
    bot: running,
    clock,
    fleet,
    async stop() {
      routes.close();
      await running.stop();
      await power.close();
      await emulator.close();
    },
  };
}
