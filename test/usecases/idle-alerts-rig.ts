import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Database } from "better-sqlite3";
import { createOutboxClient, type OutboxWorker } from "../../src/bot/outbox/outbox-worker.ts";
import { type Config, configSchema } from "../../src/config/schema.ts";
import type { HostObservation } from "../../src/domain/observation.ts";
import { composeBot } from "../../src/main/compose-bot.ts";
import type { StoredMessage } from "../../src/playground/slack-emulator/emulator-state.ts";
import {
  type SlackEmulator,
  startSlackEmulator,
} from "../../src/playground/slack-emulator/start-slack-emulator.ts";
import { ManualClock, MINUTE_MS } from "../../src/shared/clock.ts";
import { silentLogger } from "../../src/shared/logger.ts";
import type { BotStateStore } from "../../src/store/bot-state-store.ts";
import type { MetricsStore } from "../../src/store/metrics-types.ts";
import { openDatabase } from "../../src/store/open-database.ts";
import type { IdleAlerts } from "../../src/usecases/alerts/idle-alerts.ts";

export const CHANNEL = "C0GPU";
export const OWNER = "U0OWNER";
export const CLAIMANT = "U0CLAIM";
export const WARDEN = "U0WARDEN";
/** Monday 2026-01-05 09:00 UTC = 10:00 in Berlin. */
export const T0 = Date.UTC(2026, 0, 5, 9, 0);
export const at = (minute: number): number => T0 + minute * MINUTE_MS;
/** A host's stop action in the rig's configs: a webhook the rig answers (see {@link AlertRig.stops}). */
export const STOP_HOOK = { webhook: "http://stop.invalid/poweroff" };

/**
 * The alert lifecycle over real parts, composed as the bot is (`composeBot`): a SQLite file in a temp
 * dir, the real outbox worker delivering to the Slack emulator, a manual clock, and a stop webhook the
 * rig answers.
 */
export class AlertRig {
  readonly clock = new ManualClock(T0);
  readonly dir = mkdtempSync(join(tmpdir(), "gpu-warden-alerts-"));
  readonly dbPath = join(this.dir, "state.db");
  readonly config: Config;
  /** Stops that reached {@link STOP_HOOK}, in order. */
  readonly stops: Array<{ host: string; actor: string; atMs: number }> = [];
  slack!: SlackEmulator;
  db!: Database;
  metrics!: MetricsStore;
  store!: BotStateStore;
  worker!: OutboxWorker;
  alerts!: IdleAlerts;

  constructor(config: unknown) {
    this.config = configSchema.parse(config);
  }

  async open(): Promise<this> {
    this.slack = await startSlackEmulator({
      clock: this.clock,
      users: [{ id: OWNER }, { id: CLAIMANT }, { id: WARDEN }],
      channels: [{ id: CHANNEL, name: "gpu" }],
    });
    this.start();
    return this;
  }

  /** (Re)starts the bot's side over the same database file: what a process restart does. */
  start(): void {
    this.db = openDatabase(this.dbPath);
    const { identity, apiUrl } = this.slack;
    const bot = composeBot({
      config: this.config,
      clock: this.clock,
      db: this.db,
      ports: {
        logger: silentLogger,
        messages: {
          slack: createOutboxClient({
            botToken: identity.botToken,
            slackApiUrl: apiUrl,
            logger: silentLogger,
          }),
          pacing: { postIntervalMs: 0 },
        },
        sources: [],
        fetch: this.#stopHook,
      },
    });
    bot.links.workspaceUrl = `https://${identity.teamDomain}.slack.com/`;
    this.metrics = bot.stores.store;
    this.store = bot.stores.state;
    this.worker = bot.delivery.outbox!;
    this.worker.start();
    this.alerts = bot.alerts;
    this.alerts.restore();
  }

  /** The {@link STOP_HOOK} webhook: records the stop and answers 200. */
  #stopHook = (async (_url: string | URL | Request, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body ?? "{}")) as { host: string; actor: string };
    this.stops.push({ host: body.host, actor: body.actor, atMs: this.clock.now() });
    return new Response("stopped", { status: 200 });
  }) as typeof fetch;

  async restart(): Promise<void> {
    await this.worker.stop();
    this.db.close();
    this.start();
  }

  /** One poll at `minute`: the store write, then the alert lifecycle, then delivery to Slack. */
  async poll(minute: number, observations: HostObservation[]): Promise<void> {
    this.clock.set(at(minute));
    this.metrics.writeCycle(observations, at(minute));
    this.alerts.onPoll({ atMs: at(minute), observations });
    await this.alerts.settled();
    await this.worker.drain();
  }

  /** Polls every minute from `from` to `to` inclusive. */
  async polls(from: number, to: number, observe: (minute: number) => HostObservation[]): Promise<void> {
    for (let minute = from; minute <= to; minute++) await this.poll(minute, observe(minute));
  }

  /** Top-level channel messages, oldest first. */
  channelMessages(): StoredMessage[] {
    return this.slack.channel(CHANNEL).messages;
  }

  thread(message: StoredMessage): StoredMessage[] {
    return this.slack.channel(CHANNEL).thread(message.ts);
  }

  async close(): Promise<void> {
    await this.worker.stop();
    this.db.close();
    await this.slack.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

type Block = Record<string, unknown> & { type: string };

export function header(message: StoredMessage): string {
  const block = message.blocks.find((b) => b.type === "header") as Block | undefined;
  return ((block?.text as { text?: string } | undefined)?.text ?? "") as string;
}

/** Every section and context text of a message, one per line. */
export function shownText(message: StoredMessage): string {
  const out: string[] = [];
  for (const block of message.blocks as Block[]) {
    if (block.type === "section") out.push((block.text as { text: string }).text);
    if (block.type === "context") {
      for (const element of block.elements as { text?: string }[]) if (element.text) out.push(element.text);
    }
  }
  return out.join("\n").replaceAll("\u200b", "");
}

/** The buttons of a message: action id → value. */
export function buttons(message: StoredMessage): Map<string, string> {
  const out = new Map<string, string>();
  for (const block of message.blocks as Block[]) {
    if (block.type !== "actions") continue;
    for (const element of block.elements as { action_id: string; value: string }[]) {
      out.set(element.action_id, element.value);
    }
  }
  return out;
}
