import { spawn } from "node:child_process";

export interface RunCommandOptions {
  /** Kill the whole process group after this long. */
  timeoutMs: number;
  /** Aborting kills the whole process group, like a timeout. */
  signal?: AbortSignal;
  /** Keep at most this many bytes of stdout and of stderr each; the rest is read and dropped. */
  maxOutputBytes?: number;
  /** Written to the child's stdin, which is then closed; without it stdin is /dev/null. */
  input?: string;
  /** Environment of the child; default: this process's. */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

export interface CommandResult {
  /** `null` when the process was ended by a signal or never started. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Killed because `timeoutMs` passed. */
  timedOut: boolean;
  /** Killed because `signal` aborted. */
  aborted: boolean;
  /** Could not start at all, e.g. `ENOENT` when the program is not on the PATH. */
  spawnError: string | null;
  /** stdout or stderr was longer than `maxOutputBytes` and was cut. */
  truncated: boolean;
}

export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;

/** After killing the group, wait this long for the pipes to close before giving up on them. */
const PIPE_GRACE_MS = 500;

/**
 * Runs `argv[0]` with `argv.slice(1)` (no shell), in its own process group so that a timeout or an
 * abort kills everything it started. Never rejects: every outcome is described by the result.
 */
export function runCommand(argv: readonly string[], options: RunCommandOptions): Promise<CommandResult> {
  const [file, ...args] = argv;
  const maxBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  if (file === undefined || file === "") {
    return Promise.resolve(notStarted("EINVAL: empty command"));
  }
  if (options.signal?.aborted) {
    return Promise.resolve({ ...notStarted(null), aborted: true });
  }

  return new Promise((resolve) => {
    const child = spawn(file, args, {
      detached: true,
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      ...(options.env === undefined ? {} : { env: options.env }),
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    });
    const stdout = new CappedBuffer(maxBytes);
    const stderr = new CappedBuffer(maxBytes);
    let timedOut = false;
    let aborted = false;
    let settled = false;
    let graceTimer: NodeJS.Timeout | undefined;

    const finish = (
      result: Omit<CommandResult, "stdout" | "stderr" | "timedOut" | "aborted" | "truncated">,
    ) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(graceTimer);
      options.signal?.removeEventListener("abort", onAbort);
      resolve({
        ...result,
        stdout: stdout.text(),
        stderr: stderr.text(),
        timedOut,
        aborted,
        truncated: stdout.truncated || stderr.truncated,
      });
    };

    const killGroup = () => {
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
        }
      }
      // NOTE: a grandchild that left the group can keep our pipes open; do not wait on it forever.
      graceTimer = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish({ exitCode: child.exitCode, signal: child.signalCode ?? "SIGKILL", spawnError: null });
      }, PIPE_GRACE_MS);
    };

    const onAbort = () => {
      if (settled || timedOut || aborted) return;
      aborted = true;
      killGroup();
    };

    const timer = setTimeout(() => {
      if (settled || aborted) return;
      timedOut = true;
      killGroup();
    }, options.timeoutMs);
    options.signal?.addEventListener("abort", onAbort, { once: true });

    child.stdout?.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", (error: NodeJS.ErrnoException) => {
      if (child.pid === undefined) {
        finish({ exitCode: null, signal: null, spawnError: `${error.code ?? "ERROR"}: ${error.message}` });
      }
    });
    child.on("close", (code, signal) => finish({ exitCode: code, signal, spawnError: null }));

    if (options.input !== undefined && child.stdin) {
      // NOTE: a child that exits without reading stdin makes the write fail with EPIPE; that is not our error.
      child.stdin.on("error", () => undefined);
      child.stdin.end(options.input);
    }
  });
}

function notStarted(spawnError: string | null): CommandResult {
  return {
    exitCode: null,
    signal: null,
    stdout: "",
    stderr: "",
    timedOut: false,
    aborted: false,
    spawnError,
    truncated: false,
  };
}

class CappedBuffer {
  readonly #chunks: Buffer[] = [];
  #bytes = 0;
  truncated = false;

  constructor(readonly maxBytes: number) {}

  push(chunk: Buffer): void {
    const room = this.maxBytes - this.#bytes;
    if (room <= 0) {
      this.truncated = true;
      return;
    }
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (kept !== chunk) this.truncated = true;
    this.#chunks.push(kept);
    this.#bytes += kept.length;
  }

  text(): string {
    return Buffer.concat(this.#chunks).toString("utf8");
  }
}
