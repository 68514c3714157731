import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Database } from "better-sqlite3";
import { messagePermalink } from "../../src/bot/message-link.ts";
import { createOutboxClient, createOutboxWorker, type OutboxWorker } from "../../src/bot/outbox-worker.ts";
import { createReaders } from "../../src/bot/readers.ts";
import { botWords } from "../../src/bot/views/renderers.ts";
import { type Config, configSchema } from "../../src/config/schema.ts";
import type { HostObservation } from "../../src/domain/observation.ts";
import type { StoredMessage } from "../../src/playground/slack-emulator/emulator-state.ts";
import {
  type SlackEmulator,
  startSlackEmulator,
} from "../../src/playground/slack-emulator/start-slack-emulator.ts";
import { ManualClock, MINUTE_MS } from "../../src/shared/clock.ts";
import { silentLogger } from "../../src/shared/logger.ts";
import { type BotStateStore, createBotStateStore } from "../../src/store/bot-state-store.ts";
import { createMetricsStore } from "../../src/store/metrics-store.ts";
import type { MetricsStore } from "../../src/store/metrics-types.ts";
import { openDatabase } from "../../src/store/open-database.ts";
import { createIdleAlerts, type IdleAlerts } from "../../src/usecases/idle-alerts.ts";

export const CHANNEL = "C0GPU";
export const OWNER = "U0OWNER";
export const CLAIMANT = "U0CLAIM";
export const WARDEN = "U0WARDEN";
/** Monday 2026-01-05 09:00 UTC = 10:00 in Berlin. */
export const T0 = Date.UTC(2026, 0, 5, 9, 0);
export const at = (minute: number): number => T0 + minute * MINUTE_MS;

/**
 * The alert lifecycle over real parts: a SQLite file in a temp dir, the metrics store, the bot-state
 * store, the real outbox worker delivering to the Slack emulator, and a manual clock.
 */
export class AlertRig {
  readonly clock = new ManualClock(T0);
  readonly dir = mkdtempSync(join(tmpdir(), "gpu-warden-alerts-"));
  readonly dbPath = join(this.dir, "state.db");
  readonly config: Config;
  readonly stops: Array<{ host: string; alertId: number; atMs: number }> = [];
  wardenId: string | null = WARDEN;
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
    this.metrics = createMetricsStore(this.db);
    this.store = createBotStateStore(this.db);
    const client = createOutboxClient({
      botToken: this.slack.identity.botToken,
      slackApiUrl: this.slack.apiUrl,
      logger: silentLogger,
    });
    this.worker = createOutboxWorker({ store: this.store, client, clock: this.clock, logger: silentLogger });
    this.worker.start();
    this.alerts = createIdleAlerts({
      config: this.config,
      metrics: this.metrics,
      state: this.store,
      notifier: this.worker,
      warden: { current: () => this.wardenId },
      clock: this.clock,
      logger: silentLogger,
      alertWords: botWords(createReaders(this.config.team)).alertWords,
      stopAutomatically: async (host, alertId) => {
        this.stops.push({ host, alertId, atMs: this.clock.now() });
      },
      messageLink: (channel, ts) =>
        messagePermalink(`https://${this.slack.identity.teamDomain}.slack.com/`, channel, ts),
    });
    this.alerts.restore();
  }

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
