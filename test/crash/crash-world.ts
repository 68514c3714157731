import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type SlackEmulator,
  startSlackEmulator,
} from "../../src/playground/slack-emulator/start-slack-emulator.ts";
import { createSimulatedSource } from "../../src/sources/simulated-source.ts";
import { tsBundle } from "../helpers/ts-child.ts";
import { BotProcess } from "./bot-process.ts";

const CHILD = join(import.meta.dirname, "crash-bot-child.mjs");

export const CHANNEL = "C0GPUTEAM";
export const OWNER = "U0OWNER01";
export const BOB = "U0BOB0001";
export const DAVE = "U0DAVE001";
export const CAROL = "U0CAROL01";
/** Monday 5 January 2026, 09:00 UTC: a summary Monday (every other Monday from 2026-01-05, 10:00). */
export const DAY_START_MS = Date.UTC(2026, 0, 5, 9, 0);
/** The stop's timeout: a stop a killed bot left running is ended this long (plus 5 s) after it began. */
export const STOP_TIMEOUT_S = 1;
const BOT_LOG_CHARS = 40_000;
const SOURCE = { kind: "simulated" as const, hosts: 10, gpus_per_host: 2, seed: 7 };

/** The team's day as the campaign plays it: a store, a Slack workspace, a fleet and the bot. */
export class CrashWorld {
  readonly dir = mkdtempSync(join(tmpdir(), "gw-crash-"));
  readonly dbPath = join(this.dir, "gpu-warden.db");
  readonly configPath = join(this.dir, "config.json");
  readonly stopLog = join(this.dir, "stops.log");
  /** While this file exists the stop command hangs (a window to kill the bot inside a stop). */
  readonly hangFlag = join(this.dir, "hang");
  readonly stopPid = join(this.dir, "stop.pid");
  /** The idle host the owner stops, and the one they keep. */
  readonly stopHost: string;
  readonly keepHost: string;
  /** The host whose GPU 0 Bob claims and Dave waits for (preempting Bob). */
  readonly claimHost: string;
  slack!: SlackEmulator;
  bot: BotProcess | null = null;
  /**
   * `crash-bot-child.mjs` bundled with the compiled dist/ it imports and its packages: each of the
   * campaign's starts loads one file (0.35 s of CPU, not 1 s).
   */
  #child = "";
  /** The bot's clock. */
  nowMs = DAY_START_MS;
  /** What the bots logged, each start marked (the last {@link BOT_LOG_CHARS} characters). */
  botLog = "";

  constructor() {
    const fleet = createSimulatedSource(SOURCE, {
      clock: { now: () => DAY_START_MS },
      timezone: "UTC",
    }).fleet;
    const forgotten = fleet.hosts.filter((host) => host.role === "forgotten").map((host) => host.name);
    const busy = fleet.hosts.filter((host) => host.role === "training").map((host) => host.name);
    if (forgotten.length < 2 || busy.length < 1)
      throw new Error("the simulated fleet has changed: pick a seed");
    [this.stopHost, this.keepHost] = forgotten as [string, string];
    this.claimHost = busy[0]!;
  }

  async open(): Promise<void> {
    this.#child = await tsBundle(CHILD);
    this.slack = await startSlackEmulator({
      users: [OWNER, BOB, DAVE, CAROL].map((id) => ({ id, name: id.toLowerCase() })),
      channels: [{ id: CHANNEL, name: "gpu" }],
    });
    writeFileSync(this.stopLog, "");
    const script = `echo "$0" >> ${this.stopLog}; echo $$ > ${this.stopPid}; if [ -e ${this.hangFlag} ]; then exec sleep 60; fi; rm -f ${this.stopPid}`;
    const stop = { command: ["sh", "-c", script], timeout_seconds: STOP_TIMEOUT_S };
    const config = {
      slack: { channel: CHANNEL, admins: [CAROL] },
      http: { port: 0 },
      store: { path: this.dbPath },
      poll: { interval_seconds: 60 },
      sources: [SOURCE],
      hosts: {
        [this.stopHost]: { owners: [OWNER], stop: { ...stop, command: [...stop.command, this.stopHost] } },
        [this.keepHost]: { owners: [OWNER], stop: { ...stop, command: [...stop.command, this.keepHost] } },
      },
      projects: {
        paper: { members: [DAVE], priority: 10 },
        train: { members: [BOB], priority: 0, preempt: true },
      },
      queue: { preempt_grace_minutes: 1 },
      summary: { weekday: "monday", time: "10:00", start_date: "2026-01-05" },
    };
    writeFileSync(this.configPath, JSON.stringify(config));
  }

  /** Starts the bot at {@link nowMs}; resolves once it runs. */
  async startBot(): Promise<void> {
    const { botToken, appToken } = this.slack.identity;
    this.#log(`--- bot started at ${new Date(this.nowMs).toISOString()} on its clock\n`);
    const bot = new BotProcess({
      child: this.#child,
      config: this.configPath,
      nowMs: this.nowMs,
      apiUrl: this.slack.apiUrl,
      botToken,
      appToken,
      onLog: (text) => this.#log(text),
    });
    this.bot = bot;
    await bot.ready();
  }

  #log(text: string): void {
    this.botLog = (this.botLog + text).slice(-BOT_LOG_CHARS);
  }

  /** Moves the bot's clock (and fires what fell due). */
  async at(ms: number): Promise<void> {
    this.nowMs = Math.max(this.nowMs, ms);
    await this.bot!.at(this.nowMs);
  }

  /** `kill -9` the bot, and end a stop command it left behind (as a host's poweroff would end). */
  async killBot(): Promise<void> {
    const killed = this.bot;
    await killed?.kill();
    if (killed !== null) this.#log("--- kill -9\n");
    this.bot = null;
    if (existsSync(this.stopPid)) {
      try {
        process.kill(Number(readFileSync(this.stopPid, "utf8")), "SIGKILL");
      } catch {
        // already ended
      }
      rmSync(this.stopPid, { force: true });
    }
    rmSync(this.hangFlag, { force: true });
  }

  /** The stop command's runs, one host name each. */
  stopRuns(): string[] {
    return readFileSync(this.stopLog, "utf8").split("\n").filter(Boolean);
  }

  async close(): Promise<void> {
    await this.killBot();
    await this.slack?.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
