import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { configSchema } from "../src/config/schema.ts";
import { MINUTE_MS } from "../src/shared/clock.ts";
import { createLogger, silentLogger } from "../src/shared/logger.ts";
import { createSources } from "../src/sources/create-sources.ts";
import { openDatabase } from "../src/store/open-database.ts";
import {
  AheadClock,
  composeStormBot,
  STORM_CHANNEL,
  type StormOutcome,
  startStormEmulator,
  stormOwner,
  timeStorm,
} from "./storm-bot.ts";

/** The storm of `scale.bench.ts` on one backend: {@link StormOutcome} and the poll that opened it. */
export interface ScaleStorm extends StormOutcome {
  hosts: number;
  owners: number;
  /** The poll whose idle checks opened the storm's alerts: the engines' answers, the engine's history, the sweep. */
  poll_ms: number;
  /** That poll's parts, from its "poll cycle done" line: the sources (`ms`) and the sweep (`sweepMs`); the rest is the engine's history. */
  poll_logged: { ms: number; sweepMs: number } | null;
  /** The whole step's wall time: from the exporters' switch to the outbox empty (set by the caller). */
  step_s?: number;
}

/** The idle policy of the storm: the poll a minute after the hosts' first idle reading opens their alerts. */
const IDLE_FOR_MINUTES = 1;

/**
 * A storm over the engines at `urls` (cluster `a`, `b`, … in order), whose data already show the
 * `hosts` (`cluster/host` names) idle: the bot's one composition over a fresh store, its real sources
 * and outbox, against the emulator enforcing Slack's limits, on the wall clock that the outbox's paced
 * waits move ahead. A poll sees the hosts idle; the poll a minute later (on that clock: the engines are
 * asked for their latest samples, a minute ahead) opens their alerts together, and `storm_s` runs from
 * that poll's start until the digest and every owner's DM are posted.
 */
export async function scaleStorm(urls: string[], hosts: string[]): Promise<ScaleStorm> {
  const dir = mkdtempSync(join(tmpdir(), "gw-scale-storm-"));
  const clock = new AheadClock();
  const emulator = await startStormEmulator(clock);
  const db = openDatabase(join(dir, "gpu-warden.db"));
  try {
    const config = configSchema.parse({
      slack: { channel: STORM_CHANNEL },
      sources: urls.map((url, i) => ({
        kind: "prometheus",
        cluster: String.fromCharCode(97 + i),
        url,
        history_days: 0,
        timeout_seconds: 120,
      })),
      policy: { idle_for_minutes: IDLE_FOR_MINUTES },
      alerts: { digest_over: 10 },
      hosts: Object.fromEntries(
        hosts.map((host, i) => [host, { owners: [stormOwner(i)], cost_per_hour: 2 }]),
      ),
    });
    const sources = createSources(config, { clock, logger: silentLogger, hostName: "bench", pathEnv: "" });
    const polls: { ms: number; sweepMs: number }[] = [];
    const bot = composeStormBot({ config, clock, db, emulator, sources, logger: pollLines(polls) });
    bot.alerts.restore();
    bot.delivery.outbox!.start();
    await bot.poll();
    clock.advance(IDLE_FOR_MINUTES * MINUTE_MS);
    const pollAtMs = clock.now();
    const wallStartMs = performance.now();
    await bot.poll();
    const pollMs = performance.now() - wallStartMs;
    const owners = [...new Set(hosts.map((_, i) => stormOwner(i)))];
    const outcome = await timeStorm(bot, emulator, { db, pollAtMs, wallStartMs, owners });
    await bot.delivery.outbox!.stop();
    return {
      ...outcome,
      hosts: hosts.length,
      owners: owners.length,
      poll_ms: Math.round(pollMs),
      poll_logged: polls[1] ?? null,
    };
  } finally {
    db.close();
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A logger at info that keeps each "poll cycle done" line's figures in `polls` and drops the rest. */
function pollLines(polls: { ms: number; sweepMs: number }[]) {
  return createLogger(
    "info",
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        for (const line of chunk.toString().split("\n")) {
          if (!line.includes('"poll cycle done"')) continue;
          const entry = JSON.parse(line) as { ms: number; sweepMs: number };
          polls.push({ ms: entry.ms, sweepMs: entry.sweepMs });
        }
        callback();
      },
    }),
  );
}
