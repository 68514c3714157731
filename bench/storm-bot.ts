import { setImmediate as yieldToLoop } from "node:timers/promises";
import type { Database } from "better-sqlite3";
import { POST_INTERVAL_MS } from "../src/bot/outbox/outbox-pacing.ts";
import { createOutboxClient } from "../src/bot/outbox/outbox-worker.ts";
import type { Config } from "../src/config/schema.ts";
import type { Source } from "../src/domain/source.ts";
import { type ComposedBot, composeBot } from "../src/main/compose-bot.ts";
import {
  type SlackEmulator,
  startSlackEmulator,
} from "../src/playground/slack-emulator/start-slack-emulator.ts";
import type { Clock } from "../src/shared/clock.ts";
import { type Logger, silentLogger } from "../src/shared/logger.ts";

// A storm (2,000 hosts idle in one poll) over the bot's real composition, its outbox sending over HTTP
// to the Slack emulator enforcing Slack's limits: shared by `storm.bench.ts` (no engine, a manual
// clock) and `scale.bench.ts` (the real sources over each engine, the wall clock moved ahead by the
// outbox's paced waits).

export const STORM_CHANNEL = "C0GPU";
export const STORM_OWNERS = 50;

/** The owner of the storm's `i`-th host: 50 owners in turn. */
export const stormOwner = (i: number) => `U0OWNER${String(i % STORM_OWNERS).padStart(3, "0")}`;

/** A clock the outbox's paced waits (one post a second per channel, `Retry-After`) move forward. */
export interface StormClock extends Clock {
  advance(ms: number): number;
}

/** The wall clock, moved ahead by {@link AheadClock.advance}: Slack time over a real engine. */
export class AheadClock implements StormClock {
  #aheadMs = 0;

  now(): number {
    return Date.now() + this.#aheadMs;
  }

  advance(ms: number): number {
    this.#aheadMs += ms;
    return this.now();
  }
}

/** The emulator enforcing Slack's limits on `clock`, with the storm's channel and owners. */
export function startStormEmulator(clock: StormClock): Promise<SlackEmulator> {
  return startSlackEmulator({
    clock,
    slackLimits: true,
    channels: [{ id: STORM_CHANNEL, name: "gpu" }],
    users: Array.from({ length: STORM_OWNERS }, (_, i) => ({ id: stormOwner(i), name: `owner${i}` })),
  });
}

/** The bot's one composition, its outbox sending to `emulator` at Slack's pace on `clock`. */
export function composeStormBot(input: {
  config: Config;
  clock: StormClock;
  db: Database;
  emulator: SlackEmulator;
  sources: Source[];
  /** The bot's logger; default silent. */
  logger?: Logger;
}): ComposedBot {
  const { clock, emulator } = input;
  const logger = input.logger ?? silentLogger;
  return composeBot({
    config: input.config,
    clock,
    db: input.db,
    ports: {
      logger,
      messages: {
        slack: createOutboxClient({
          botToken: emulator.identity.botToken,
          slackApiUrl: emulator.apiUrl,
          logger,
        }),
        pacing: {
          postIntervalMs: POST_INTERVAL_MS,
          sleep: async (ms) => {
            clock.advance(ms);
            await yieldToLoop();
          },
        },
      },
      sources: input.sources,
      fetch: globalThis.fetch,
    },
  });
}

/** What a storm's messages came to (see {@link timeStorm}). */
export interface StormOutcome {
  /** Slack time from the poll until the digest and every owner's DM were posted. */
  storm_s: number;
  storm_wall_s: number;
  /** Slack time from the poll until the outbox was empty (the digest's whole thread posted). */
  thread_s: number;
  alerts: number;
  digests: number;
  thread_lines: number;
  owners_told: number;
  /** Calls the emulator answered 429: the outbox waited them out (`Retry-After`), no user saw them. */
  rate_limited_calls: number;
  /** {@link rate_limited_calls} by Web API method. */
  rate_limited_by_method: Record<string, number>;
  /** Messages set aside because Slack kept refusing them for its limits: what a user would miss. */
  rate_limit_errors_surfaced: number;
  /** Alerts not in the digest's thread, owners without their DM, a missing digest, items set aside or left. */
  lost: number;
}

const round1 = (ms: number) => Math.round(ms / 100) / 10;

/**
 * Waits until the digest and a DM to each of `owners` are in the emulator (`storm_s` from `pollAtMs`
 * on the bot's clock), then until the outbox is empty (`thread_s`), and counts what arrived.
 */
export async function timeStorm(
  bot: ComposedBot,
  emulator: SlackEmulator,
  input: { db: Database; pollAtMs: number; wallStartMs: number; owners: readonly string[] },
): Promise<StormOutcome> {
  const { clock } = bot;
  const told = () => input.owners.filter((owner) => emulator.dms(owner).length > 0).length;
  const digestAndOwners = () =>
    told() === input.owners.length && emulator.channel(STORM_CHANNEL).messages.length > 0;
  await emulator.waitFor(digestAndOwners, "the digest and every owner's DM", 600_000);
  const stormMs = clock.now() - input.pollAtMs;
  const stormWallMs = performance.now() - input.wallStartMs;
  await bot.delivery.outbox!.drain(1_800_000);
  const threadMs = clock.now() - input.pollAtMs;
  const digest = emulator.channel(STORM_CHANNEL).messages;
  const threadLines = digest.length === 1 ? emulator.channel(STORM_CHANNEL).thread(digest[0]!.ts).length : 0;
  const alerts = bot.stores.state.alerts.allOpen().filter((alert) => alert.kind === "idle").length;
  const setAside = input.db
    .prepare("SELECT error FROM outbox WHERE state = 'dead'")
    .pluck()
    .all() as string[];
  const left = bot.stores.state.outbox.pendingCount();
  const limited = emulator.calls().filter((call) => call.status === 429);
  const byMethod: Record<string, number> = {};
  for (const call of limited) byMethod[call.method] = (byMethod[call.method] ?? 0) + 1;
  return {
    storm_s: round1(stormMs),
    storm_wall_s: round1(stormWallMs),
    thread_s: round1(threadMs),
    alerts,
    digests: digest.length,
    thread_lines: threadLines,
    owners_told: told(),
    rate_limited_calls: limited.length,
    rate_limited_by_method: byMethod,
    rate_limit_errors_surfaced: setAside.filter((error) => /rate.?limit|429/i.test(error)).length,
    lost:
      Math.max(0, alerts - threadLines) +
      (input.owners.length - told()) +
      (digest.length === 1 ? 0 : 1) +
      setAside.length +
      left,
  };
}
