import { type ChildProcess, spawn } from "node:child_process";

/** Thrown by whatever waited on a bot that was killed meanwhile. */
export class BotKilled extends Error {
  constructor() {
    super("the bot was killed");
  }
}

/**
 * One run of `crash-bot-child.mjs` (`child`: its bundle, {@link CrashWorld.open}): started at a clock
 * time, moved by `at`, ended by `kill -9`.
 */
export class BotProcess {
  readonly #proc: ChildProcess;
  readonly #exited: Promise<void>;
  readonly #ready: Promise<void>;
  #dead = false;
  #out = "";
  #err = "";
  #waiters: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];

  constructor(args: {
    child: string;
    config: string;
    nowMs: number;
    apiUrl: string;
    botToken: string;
    appToken: string;
    /** Where its log lines go (it logs at info, one readable line each, on stderr). */
    onLog?: (text: string) => void;
  }) {
    this.#proc = spawn(
      process.execPath,
      [args.child, args.config, String(args.nowMs), args.apiUrl, args.botToken, args.appToken],
      { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, TZ: "UTC" } },
    );
    this.#exited = new Promise((resolve) => this.#proc.on("exit", () => resolve()));
    this.#ready = new Promise((resolve, reject) => {
      this.#proc.on("exit", (code, signal) => {
        this.#dead = true;
        const error =
          signal === "SIGKILL" ? new BotKilled() : new Error(`the bot exited (${code}): ${this.#err}`);
        reject(error);
        for (const waiter of this.#waiters.splice(0)) waiter.reject(error);
      });
      this.#proc.stdout?.on("data", (chunk: Buffer) => {
        this.#out += chunk.toString();
        for (;;) {
          const end = this.#out.indexOf("\n");
          if (end < 0) break;
          const line = this.#out.slice(0, end);
          this.#out = this.#out.slice(end + 1);
          if (line === "ready") resolve();
          else if (line === "ok") this.#waiters.shift()?.resolve();
        }
      });
    });
    this.#ready.catch(() => {});
    this.#proc.stderr?.on("data", (chunk: Buffer) => {
      this.#err = (this.#err + chunk.toString()).slice(-4000);
      args.onLog?.(chunk.toString());
      if (process.env.DEBUG_CRASH) process.stderr.write(chunk);
    });
  }

  /** Resolves once the bot has started (store open, Slack connected, start jobs fired). */
  ready(): Promise<void> {
    return this.#ready;
  }

  get dead(): boolean {
    return this.#dead;
  }

  /** Sets the bot's clock to `ms` and fires the jobs that fell due. */
  at(ms: number): Promise<void> {
    if (this.#dead) return Promise.reject(new BotKilled());
    return new Promise((resolve, reject) => {
      this.#waiters.push({ resolve, reject });
      this.#proc.stdin?.write(`at ${ms}\n`);
    });
  }

  /** `kill -9`, resolved once the process has died. */
  async kill(): Promise<void> {
    if (!this.#dead) this.#proc.kill("SIGKILL");
    await this.#exited;
  }
}
