import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import bolt from "@slack/bolt";
import type { Database } from "better-sqlite3";
import type { SlackApp } from "../src/bot/app.ts";
import type { BotDeps } from "../src/bot/bot-deps.ts";
import { createOutboxClient, type OutboxWorker } from "../src/bot/outbox/outbox-worker.ts";
import { type Config, configSchema } from "../src/config/schema.ts";
import { composeBot } from "../src/main/compose-bot.ts";
import { ManualClock } from "../src/shared/clock.ts";
import { createLogger, type Logger } from "../src/shared/logger.ts";
import { createSimulatedSource, type SimulatedSource } from "../src/sources/simulated-source.ts";
import type { BotStateStore } from "../src/store/bot-state-store.ts";
import type { MetricsStore } from "../src/store/metrics-types.ts";
import { openDatabase } from "../src/store/open-database.ts";
import type { IdleAlerts } from "../src/usecases/alerts/idle-alerts.ts";

export const CHANNEL = "C0GPU";
export const SECRET = "bench-signing-secret";
/** Night in UTC: the simulated fleet is mostly idle, so alerts open. */
export const T0 = Date.UTC(2026, 0, 6, 1, 0);

const here = dirname(fileURLToPath(import.meta.url));

/** What every load process answers per job (see `load-jobs.ts`). */
export interface LoadResult {
  id: number;
  latenciesMs: number[];
  statuses: Record<string, number>;
}

/** The bench's side of a load process (`bench/<script>`), started with its Slack stand-in. */
export interface LoadProcess {
  /** Base URL of the load process's Slack stand-in (Web API and `response_url`s). */
  sink: string;
  /** Sends one job and waits for its answer; throws on any non-200 answer. */
  request<R extends LoadResult>(job: Record<string, unknown>): Promise<R>;
  close(): Promise<void>;
}

export async function startLoad(script: string): Promise<LoadProcess> {
  const load = spawn(process.execPath, ["--import", "tsx", join(here, script)], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = createInterface({ input: load.stdout })[Symbol.asyncIterator]();
  const nextLine = async (): Promise<string> => {
    const line = await lines.next();
    if (line.done === true) throw new Error("the load process exited");
    return line.value;
  };
  const { sink } = JSON.parse(await nextLine()) as { sink: string };
  let jobId = 0;
  return {
    sink,
    async request<R extends LoadResult>(job: Record<string, unknown>): Promise<R> {
      jobId += 1;
      load.stdin.write(`${JSON.stringify({ id: jobId, ...job })}\n`);
      const result = JSON.parse(await nextLine()) as R;
      const bad = Object.entries(result.statuses).filter(([status]) => status !== "200");
      if (bad.length > 0) throw new Error(`non-200 answers: ${JSON.stringify(result.statuses)}`);
      return result;
    },
    async close() {
      load.stdin.end();
      await new Promise((resolve) => load.once("exit", resolve));
    },
  };
}

/**
 * The real bot (`composeBot`) over a SQLite file in a temp dir: a simulated fleet of 12 hosts × 8 GPUs
 * on a manual clock at {@link T0}, the outbox worker sending to the load process's Slack stand-in,
 * logging at info (to nowhere) as in production.
 */
export interface BenchBot {
  clock: ManualClock;
  logger: Logger;
  source: SimulatedSource;
  config: Config;
  db: Database;
  metrics: MetricsStore;
  state: BotStateStore;
  outbox: OutboxWorker;
  alerts: IdleAlerts;
  deps: BotDeps;
  /** Starts the real Bolt app (HTTP receiver, dedupe, {@link registerListeners}); its events URL. */
  start(): Promise<string>;
  /** Stops the app and the outbox, closes the database and removes the temp dir. */
  close(): Promise<void>;
}

export function createBenchBot(options: {
  /** Names the temp dir. */
  name: string;
  sink: string;
  /** The raw config (as in the YAML) for the simulated fleet's host names. */
  config: (hosts: readonly string[]) => Record<string, unknown>;
}): BenchBot {
  const dir = mkdtempSync(join(tmpdir(), `gpu-warden-${options.name}-bench-`));
  const clock = new ManualClock(T0);
  const logger = createLogger(
    "info",
    new Writable({
      write(_chunk, _encoding, callback) {
        callback();
      },
    }),
  );
  const source = createSimulatedSource(
    { kind: "simulated", hosts: 12, gpus_per_host: 8, seed: 42 },
    { clock, timezone: "UTC" },
  );
  const config = configSchema.parse(options.config(source.hosts));
  const db = openDatabase(join(dir, "gpu-warden.db"));
  const bot = composeBot({
    config,
    clock,
    db,
    ports: {
      logger,
      messages: {
        slack: createOutboxClient({ botToken: "xoxb-bench", slackApiUrl: `${options.sink}/api/`, logger }),
        pacing: { postIntervalMs: 0 },
      },
      sources: [source],
      fetch: globalThis.fetch,
    },
  });
  const outbox = bot.delivery.outbox!;
  let app: SlackApp | null = null;
  return {
    clock,
    logger,
    source,
    config,
    db,
    metrics: bot.stores.store,
    state: bot.stores.state,
    outbox,
    alerts: bot.alerts,
    deps: bot.deps,
    async start() {
      app = bot.slackApp({
        botToken: "xoxb-bench",
        signingSecret: SECRET,
        botId: "B0BOT",
        botUserId: "U0BOT",
        slackApiUrl: `${options.sink}/api/`,
        port: 0,
        host: "127.0.0.1",
      });
      return `${(await app.start()).url}/slack/events`;
    },
    async close() {
      await app?.stop();
      await outbox.stop();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The baseline: a bare Bolt 5 app with the same receiver kind (HTTP, signed), silent, whose
 * handlers `register` adds; its events URL.
 */
export async function startBareBolt(
  sink: string,
  register: (app: bolt.App) => void,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const bare = new bolt.App({
    token: "xoxb-bench",
    signingSecret: SECRET,
    botId: "B0BOT",
    botUserId: "U0BOT",
    logger: {
      debug: () => {},
      info: () => {},
      warn: () => {},
      error: () => {},
      setLevel: () => {},
      getLevel: () => bolt.LogLevel.INFO,
      setName: () => {},
    },
    clientOptions: { slackApiUrl: `${sink}/api/`, retryConfig: { retries: 0 }, timeout: 10_000 },
  });
  register(bare);
  const server = (await bare.start({ port: 0, host: "127.0.0.1" })) as Server;
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`,
    stop: async () => {
      await bare.stop();
    },
  };
}
