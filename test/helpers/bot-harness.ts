import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { setImmediate as yieldToLoop } from "node:timers/promises";
import type { Database } from "better-sqlite3";
import type { SlackApp } from "../../src/bot/app.ts";
import type { BotDeps } from "../../src/bot/bot-deps.ts";
import { POST_INTERVAL_MS } from "../../src/bot/outbox/outbox-pacing.ts";
import { createOutboxClient, type OutboxWorker } from "../../src/bot/outbox/outbox-worker.ts";
import type { IdleEpisodeState } from "../../src/checks/idle-episode.ts";
import { type Config, configSchema } from "../../src/config/schema.ts";
import type { AlertResolution } from "../../src/domain/alert-record.ts";
import type { LatestObservation } from "../../src/domain/metrics.ts";
import type { HostObservation } from "../../src/domain/observation.ts";
import type { Source } from "../../src/domain/source.ts";
import type { Job } from "../../src/jobs/schedule-jobs.ts";
import { composeBot } from "../../src/main/compose-bot.ts";
import type { PollResult } from "../../src/main/create-poll.ts";
import { wireAlerts } from "../../src/main/wire-alerts.ts";
import type { EphemeralMessage, StoredMessage } from "../../src/playground/slack-emulator/emulator-state.ts";
import {
  type SlackEmulator,
  startSlackEmulator,
} from "../../src/playground/slack-emulator/start-slack-emulator.ts";
import { type Clock, ManualClock, MINUTE_MS } from "../../src/shared/clock.ts";
import { createLogger, silentLogger } from "../../src/shared/logger.ts";
import type { BotStateStore } from "../../src/store/bot-state-store.ts";
import type { MetricsStore } from "../../src/store/metrics-types.ts";
import { openDatabase } from "../../src/store/open-database.ts";
import type { AlertNote, AlertWords } from "../../src/usecases/alerts/alert-words.ts";
import type { IdleAlerts } from "../../src/usecases/alerts/idle-alerts.ts";
import { type ClaimTickResult, tickClaims } from "../../src/usecases/claims/tick-claims.ts";
import type { AlertPort, FleetView, Notifier, SlackMethod } from "../../src/usecases/ports.ts";
import { observed } from "../checks/builders.ts";
import { emulatorCjkEmphasisProblems, invisibleOut } from "./cjk-emphasis.ts";
import { migratedStoreAt } from "./migrated-store.ts";

export const CHANNEL = "C0GPU";
/** Owner of gpu-a. */
export const ALICE = "U0ALICE";
/** Gets a claim on gpu-a in tests that need a claimant. */
export const BOB = "U0BOB";
/** The cost warden (the whole roster). */
export const CAROL = "U0CAROL";
/** An admin. */
export const DAVE = "U0DAVE";
/** Anyone else. */
export const EVE = "U0EVE";
export const USERS = [ALICE, BOB, CAROL, DAVE, EVE] as const;

/** Monday 2026-01-05 09:00 UTC = 10:00 in Berlin. */
export const T0 = Date.UTC(2026, 0, 5, 9, 0);

/** What the user side can do, over Socket Mode (the emulator) or signed HTTP (its driver). */
export type UserSide = Pick<
  SlackEmulator,
  "slashCommand" | "clickButton" | "replay" | "event" | "rawInteraction"
>;

export interface HarnessOptions {
  transport: "socket" | "http";
  /**
   * The raw config (as in the YAML), or a function of the harness's temp dir (for stop scripts
   * written there); `slack.channel` is {@link CHANNEL}.
   */
  config: Record<string, unknown> | ((dir: string) => Record<string, unknown>);
  /** Slack locales of the emulator's users (`users.info` with `include_locale`), for `team.language: auto`. */
  locales?: Partial<Record<string, string>>;
  /**
   * The emulator enforces Slack's rate limits and the outbox paces to them; its waits move the clock
   * (default off: the clock stands still between a test's steps, and nothing is throttled).
   */
  slackLimits?: boolean;
  /** More users than {@link USERS} (e.g. a storm's owners). */
  moreUsers?: string[];
  /** The outbox client's timeout (a hung call is cut after it); default 30 s. */
  outboxTimeoutMs?: number;
  /** The bot's sources, read by {@link BotHarness.pollSources} (default none). */
  sources?: (config: Config, clock: Clock) => Source[];
}

interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

/** `dir/gpu-warden.db`, a copy of a store migrated once per process ({@link migratedStoreAt}). */
function migratedStore(dir: string): string {
  return migratedStoreAt(join(dir, "gpu-warden.db"));
}

/**
 * The bot's Slack side as production composes it (`composeBot`): a SQLite file in a temp dir, the
 * real alert lifecycle as fleet view and alert port, the real outbox worker, the real Bolt app with
 * the bot's listeners, over Socket Mode or signed HTTP against the Slack emulator, and a manual clock
 * that polls move.
 */
export class BotHarness {
  readonly clock = new ManualClock(T0);
  readonly dir = mkdtempSync(join(tmpdir(), "gpu-warden-bot-"));
  readonly config: Config;
  /** Log lines at warn and above (listener errors land here). */
  readonly logs: LogLine[] = [];
  emulator!: SlackEmulator;
  db!: Database;
  metrics!: MetricsStore;
  state!: BotStateStore;
  alerts!: IdleAlerts;
  outbox!: OutboxWorker;
  slack!: SlackApp;
  deps!: BotDeps;
  /** The bot's jobs as production schedules them (not run unless a test runs one). */
  jobs!: Job[];
  /** The bot's own poll cycle over `options.sources` (it does not move the clock). */
  pollSources!: () => Promise<void>;
  /** What each {@link BotHarness.pollSources} cycle read, oldest first. */
  readonly polled: PollResult[] = [];
  user!: UserSide;

  readonly logger = createLogger(
    "warn",
    new Writable({
      write: (chunk: Buffer, _encoding, callback) => {
        for (const line of chunk.toString("utf8").split("\n")) {
          if (line !== "") this.logs.push(JSON.parse(line) as LogLine);
        }
        callback();
      },
    }),
  );

  constructor(readonly options: HarnessOptions) {
    const raw = typeof options.config === "function" ? options.config(this.dir) : options.config;
    const slack = typeof raw.slack === "object" && raw.slack !== null ? raw.slack : {};
    this.config = configSchema.parse({ ...raw, slack: { ...slack, channel: CHANNEL } });
  }

  static async start(options: HarnessOptions): Promise<BotHarness> {
    const harness = new BotHarness(options);
    await harness.#open();
    return harness;
  }

  #createAlerts!: () => IdleAlerts;

  /**
   * What a restart of the bot does to the alert lifecycle: a new one over the same store, rebuilt
   * from stored history (`restore`), in place of the old one everywhere the app reaches it.
   */
  async restartAlerts(): Promise<void> {
    await this.alerts.settled();
    this.alerts = this.#createAlerts();
    this.alerts.restore();
    Object.assign(this.deps, { fleet: this.alerts, alerts: this.alerts });
  }

  async #open(): Promise<void> {
    const { clock } = this;
    const locales = this.options.locales ?? {};
    const limits = this.options.slackLimits === true;
    this.emulator = await startSlackEmulator({
      clock,
      users: [...USERS, ...(this.options.moreUsers ?? [])].map((id) => ({
        id,
        name: id.slice(2).toLowerCase(),
        locale: locales[id] ?? "en-US",
      })),
      channels: [{ id: CHANNEL, name: "gpu" }],
      slackLimits: limits,
    });
    this.db = openDatabase(migratedStore(this.dir));
    await this.#compose();
  }

  /**
   * What a restart of the bot process does: the app and the outbox stop (what was queued stays in
   * the store), and a new bot is composed over the same store file, connected to the same emulator.
   */
  async restart(): Promise<void> {
    await this.outbox.stop();
    await this.slack.stop();
    this.db.close();
    this.db = openDatabase(join(this.dir, "gpu-warden.db"));
    await this.#compose();
  }

  async #compose(): Promise<void> {
    const { config, clock, logger } = this;
    const limits = this.options.slackLimits === true;
    const { identity, apiUrl } = this.emulator;
    const bot = composeBot({
      config,
      clock,
      db: this.db,
      ports: {
        logger,
        messages: {
          slack: createOutboxClient({
            botToken: identity.botToken,
            slackApiUrl: apiUrl,
            logger,
            ...(this.options.outboxTimeoutMs !== undefined && { timeoutMs: this.options.outboxTimeoutMs }),
          }),
          pacing: limits
            ? {
                postIntervalMs: POST_INTERVAL_MS,
                sleep: async (ms) => {
                  clock.advance(ms);
                  await yieldToLoop();
                },
              }
            : { postIntervalMs: 0 },
        },
        sources: this.options.sources?.(config, clock) ?? [],
        fetch: globalThis.fetch,
      },
      onPolled: (result) => this.polled.push(result),
    });
    this.metrics = bot.stores.store;
    this.state = bot.stores.state;
    this.outbox = bot.delivery.outbox!;
    this.alerts = bot.alerts;
    this.deps = bot.deps;
    this.jobs = bot.jobs;
    this.pollSources = bot.poll;
    const io = { notifier: bot.delivery.notifier, readers: bot.readers, words: bot.words, clock, logger };
    this.#createAlerts = () =>
      wireAlerts(config, bot.stores, { ...io, fetch: globalThis.fetch }, bot.links).alerts;
    const http = this.options.transport === "http";
    this.slack = bot.slackApp({
      botToken: identity.botToken,
      appToken: http ? undefined : identity.appToken,
      signingSecret: http ? identity.signingSecret : undefined,
      slackApiUrl: apiUrl,
      port: 0,
      host: "127.0.0.1",
      botId: identity.botId,
      botUserId: identity.botUserId,
      retryConfig: { retries: 0 },
      connectRetryConfig: { retries: 0 },
    });
    const started = await this.slack.start();
    this.user = http ? this.emulator.http(`${started.url}/slack/events`) : this.emulator;
    this.outbox.start();
  }

  /** Writes one poll cycle at the clock's time, runs the idle checks on it, then moves the clock a minute on. */
  poll(observations: (atMs: number) => HostObservation[]): void {
    const atMs = this.clock.now();
    const batch = observations(atMs);
    this.metrics.writeCycle(batch, atMs);
    this.alerts.onPoll({ atMs, observations: batch });
    this.clock.advance(MINUTE_MS);
  }

  /** `minutes` polls of the same observations. */
  pollFor(minutes: number, observations: (atMs: number) => HostObservation[]): void {
    for (let i = 0; i < minutes; i++) this.poll(observations);
  }

  /** Runs the claims job (expiry, reminders, nudges, auto-release) at the clock's time. */
  tickClaims(): ClaimTickResult {
    return tickClaims(this.deps, this.clock.now());
  }

  /** Moves the clock `minutes` on, one poll and one claims tick a minute (polls of `observations`). */
  runFor(minutes: number, observations: (atMs: number) => HostObservation[]): void {
    for (let i = 0; i < minutes; i++) {
      this.poll(observations);
      this.tickClaims();
    }
  }

  /** Texts of the bot's DMs to `user` as shown now (edits applied), oldest first. */
  dmTexts(user: string): string[] {
    return this.emulator.dms(user).map((message) => invisibleOut(message.text));
  }

  /** Waits for everything queued to reach the emulator and every automatic stop to finish. */
  async settle(): Promise<void> {
    await this.alerts.settled();
    await this.outbox.drain();
  }

  /** The channel message of the host's open (or latest) idle alert. */
  alertMessage(host: string): StoredMessage {
    const alert = this.state.alerts.openFor(host, "idle") ?? this.state.alerts.latest(host);
    if (alert?.ts == null) throw new Error(`no posted alert for ${host}`);
    const message = this.emulator.channel(CHANNEL).history.find((m) => m.ts === alert.ts);
    if (message === undefined) throw new Error(`alert ${alert.id} is not in the channel`);
    return message;
  }

  /** Texts of the replies in the host's alert thread, oldest first. */
  threadTexts(host: string): string[] {
    return this.emulator
      .channel(CHANNEL)
      .thread(this.alertMessage(host).ts)
      .map((message) => invisibleOut(message.text));
  }

  /** Texts of what `user` sees ephemerally, oldest first. */
  ephemeralTexts(user: string): string[] {
    return this.emulator.ephemerals(user).map((message) => invisibleOut(message.text));
  }

  latestEphemeral(user: string): EphemeralMessage {
    const message = this.emulator.ephemerals(user).at(-1);
    if (message === undefined) throw new Error(`${user} sees no ephemeral message`);
    return message;
  }

  /** Listener failures and other warnings the bot logged. */
  problems(): string[] {
    return this.logs.map((line) => line.msg);
  }

  async close(): Promise<void> {
    await this.outbox.stop();
    await this.slack.stop();
    await this.emulator.close();
    this.db.close();
    rmSync(this.dir, { recursive: true, force: true });
  }

  /**
   * For `afterEach`: asserts that every delivery was acked within 3 s, that the emulator met no
   * internal error and that no listener logged a problem; closes whether they hold or not (a failed
   * check must not leave the bot's servers open and the test process hanging to its timeout).
   */
  async closeChecked(): Promise<void> {
    try {
      assert.deepEqual(this.emulator.failures(), [], "every delivery acked within 3 s");
      assert.deepEqual(this.emulator.internalErrors(), []);
      assert.deepEqual(this.problems(), []);
      assert.deepEqual(
        emulatorCjkEmphasisProblems(this.emulator.state),
        [],
        "no emphasis mark touches Chinese text",
      );
    } finally {
      await this.close();
    }
  }
}

/** What one host reports at a given time, for {@link BotHarness.pollFor} and the like. */
export type HostAt = (atMs: number) => HostObservation;

/** Four GPUs at 0 %, no sessions. */
export const idleHost =
  (host: string): HostAt =>
  (atMs) =>
    observed(host, atMs, [0, 0, 0, 0], []);

/** Four GPUs, the last at 97 %. */
export const busyHost =
  (host: string): HostAt =>
  (atMs) =>
    observed(host, atMs, [0, 0, 0, 97], []);

/** What all these hosts report at a given time. */
export const allHosts =
  (...hosts: HostAt[]) =>
  (atMs: number): HostObservation[] =>
    hosts.map((host) => host(atMs));

/**
 * Writes a stand-in stop command `dir/name`: it appends its arguments to `dir/name.log` (one line per
 * real run, see {@link scriptRuns}), prints `powering off <host>`, sleeps `sleepS` (to keep a stop in
 * flight while other clicks arrive) and exits with `exitCode`. Returns its path.
 */
export function stopScript(
  dir: string,
  name: string,
  options: { sleepS?: number; exitCode?: number } = {},
): string {
  const path = join(dir, name);
  writeFileSync(
    path,
    `#!/bin/sh\necho "$@" >> '${path}.log'\necho "powering off $1"\nsleep ${options.sleepS ?? 0}\nexit ${options.exitCode ?? 0}\n`,
  );
  chmodSync(path, 0o755);
  return path;
}

/** The argument lines of every real run of the stand-in `dir/name`. */
export function scriptRuns(dir: string, name: string): string[] {
  const log = join(dir, `${name}.log`);
  return existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : [];
}

/**
 * The tests' usual config, in Berlin time (T0 is 10:00 there): {@link DAVE} is an admin,
 * {@link CAROL} the cost warden, a host idle for 5 min gets an alert. A host whose `stop` is
 * `"script"` gets the stand-in `<dir>/poweroff <host>` (sleeping `sleepS`, default 0.3 s).
 */
export function standardConfig(
  hosts: Record<string, Record<string, unknown>>,
  extra: Record<string, unknown> = {},
  script: { sleepS?: number; exitCode?: number } = { sleepS: 0.3 },
): (dir: string) => Record<string, unknown> {
  return (dir) => {
    const path = stopScript(dir, "poweroff", script);
    const withStops = Object.fromEntries(
      Object.entries(hosts).map(([name, settings]) => [
        name,
        settings.stop === "script" ? { ...settings, stop: { command: [path, name] } } : settings,
      ]),
    );
    return {
      team: { timezone: "Europe/Berlin" },
      slack: { admins: [DAVE] },
      warden: { roster: [CAROL] },
      policy: { idle_for_minutes: 5 },
      hosts: withStops,
      ...extra,
    };
  };
}

/** Runs of `<dir>/poweroff` (see {@link standardConfig}). */
export function poweroffRuns(harness: BotHarness): string[] {
  return scriptRuns(harness.dir, "poweroff");
}

/** A fleet view over plain maps, for use-case tests that do not run the alert lifecycle. */
export class FakeFleet implements FleetView {
  readonly latestByHost = new Map<string, LatestObservation>();
  readonly states = new Map<string, IdleEpisodeState>();

  hosts(): string[] {
    return [...new Set([...this.latestByHost.keys(), ...this.states.keys()])].sort();
  }

  latest(host: string): LatestObservation | null {
    return this.latestByHost.get(host) ?? null;
  }

  state(host: string): IdleEpisodeState | null {
    return this.states.get(host) ?? null;
  }

  /** Records `observation` as the host's latest (answering now when it is ok). */
  observe(
    observation: HostObservation,
    lastOkAtMs: number | null = observation.ok ? observation.atMs : null,
  ): void {
    this.latestByHost.set(observation.host, { observation, lastOkAtMs });
  }
}

export type AlertCall =
  | { kind: "refresh"; host: string }
  | { kind: "resolve"; host: string; resolution: AlertResolution }
  | { kind: "thread"; host: string; text: string }
  | { kind: "dm"; user: string; text: string };

/** An alert port that records what the use-cases asked of it, in order. */
export class RecordingAlerts implements AlertPort {
  readonly calls: AlertCall[] = [];
  /** Renders notes as the bot would ({@link UseCaseRig} sets the real word port). */
  words: Pick<AlertWords, "note"> | null = null;

  refresh(host: string): void {
    this.calls.push({ kind: "refresh", host });
  }

  resolve(host: string, resolution: AlertResolution): void {
    this.calls.push({ kind: "resolve", host, resolution });
  }

  postInThread(host: string, text: string): void {
    this.calls.push({ kind: "thread", host, text });
  }

  postNote(host: string, note: AlertNote): void {
    if (this.words === null) throw new Error("RecordingAlerts.words is not set");
    this.postInThread(host, this.words.note(note));
  }

  tell(user: string, note: AlertNote): void {
    if (this.words === null) throw new Error("RecordingAlerts.words is not set");
    this.calls.push({ kind: "dm", user, text: this.words.note(note) });
  }

  /** The thread texts posted for `host`, in order. */
  thread(host: string): string[] {
    return this.calls.flatMap((call) => (call.kind === "thread" && call.host === host ? [call.text] : []));
  }
}

/** A notifier that records what the use-cases send, in order. */
export class RecordingNotifier implements Notifier {
  readonly sent: Array<{ method: SlackMethod; args: Record<string, unknown> }> = [];

  send(method: SlackMethod, args: Record<string, unknown>): void {
    this.sent.push({ method, args });
  }

  /** The DM texts sent to `user`, in order. */
  dms(user: string): string[] {
    return this.sent.flatMap(({ method, args }) =>
      method === "chat.postMessage" && args.channel === user ? [String(args.text)] : [],
    );
  }

  /** The users whose Home tab was published, in order. */
  homes(): string[] {
    return this.sent.flatMap(({ method, args }) =>
      method === "views.publish" ? [String(args.user_id)] : [],
    );
  }
}

/**
 * Use-case deps as `composeBot` builds them over a real SQLite file and a manual clock, with a fake
 * fleet, recording alerts and a recording notifier in place of the real ones.
 */
export class UseCaseRig {
  readonly dir: string;
  readonly clock = new ManualClock(T0);
  readonly fleet = new FakeFleet();
  readonly alerts = new RecordingAlerts();
  readonly notifier = new RecordingNotifier();
  readonly db: Database;
  readonly state: BotStateStore;
  readonly metrics: MetricsStore;
  readonly config: Config;
  readonly deps: BotDeps;

  /** `dir`: a store directory to open again (a restart); by default a new one. */
  constructor(config: Record<string, unknown> | ((dir: string) => Record<string, unknown>), dir?: string) {
    this.dir = dir ?? mkdtempSync(join(tmpdir(), "gpu-warden-usecase-"));
    this.config = configSchema.parse(typeof config === "function" ? config(this.dir) : config);
    this.db = openDatabase(migratedStore(this.dir));
    const bot = composeBot({
      config: this.config,
      clock: this.clock,
      db: this.db,
      ports: {
        logger: silentLogger,
        messages: { notifier: this.notifier },
        sources: [],
        fetch: globalThis.fetch,
      },
    });
    this.state = bot.stores.state;
    this.metrics = bot.stores.store;
    this.alerts.words = bot.words.alertWords;
    this.deps = { ...bot.deps, fleet: this.fleet, alerts: this.alerts };
  }

  /** A new process over the same store, its clock where this one's is; this one is closed. */
  restart(config: Record<string, unknown>): UseCaseRig {
    this.db.close();
    const next = new UseCaseRig(config, this.dir);
    next.clock.set(this.clock.now());
    return next;
  }

  close(): void {
    this.db.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
