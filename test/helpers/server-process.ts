import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { closeSync, openSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

// NOTE: the parts a test's metrics server (Prometheus, VictoriaMetrics) is started and stopped with.

/** An exporter on 127.0.0.1 answering `/metrics` with what `render()` returns now (404 while it is null). */
export async function startExporter(
  render: () => (() => string) | null,
): Promise<{ server: Server; target: string }> {
  const server = createServer((req, res) => {
    const current = render();
    if (req.url !== "/metrics" || !current) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": "text/plain; version=0.0.4" }).end(current());
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { server, target: `127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** The last lines of a log file, for an error message. */
export function tail(file: string): string {
  try {
    return readFileSync(file, "utf8").split("\n").slice(-15).join("\n");
  } catch {
    return "(no log)";
  }
}

/**
 * `command args` with its output in `logFile`; `failed` rejects when it cannot start or exits, with
 * the log's last lines (race it against the readiness check).
 */
export function spawnLogged(
  command: string,
  args: readonly string[],
  logFile: string,
): { child: ChildProcess; failed: Promise<never> } {
  const logFd = openSync(logFile, "a");
  const child = spawn(command, args, { stdio: ["ignore", logFd, logFd] });
  closeSync(logFd);
  const failed = new Promise<never>((_, reject) => {
    child.once("error", (error) =>
      reject(new Error(`cannot start ${command} (${error.message}); run bash scripts/install-test-deps.sh`)),
    );
    child.once("exit", (code, signal) =>
      reject(new Error(`${command} exited early (${code ?? signal}): ${tail(logFile)}`)),
    );
  });
  failed.catch(() => {});
  return { child, failed };
}

/**
 * A shell that ends the server and removes `dir` once this process is gone: a test process killed
 * outright (a runner timeout) runs no after() hook.
 */
export function orphanWatchdog(pid: number | undefined, dir: string): ChildProcess {
  const watchdog = spawn(
    "sh",
    [
      "-c",
      `while kill -0 ${process.pid} 2>/dev/null; do sleep 2; done; kill -9 ${pid} 2>/dev/null; rm -rf '${dir}'`,
    ],
    { stdio: "ignore", detached: true },
  );
  watchdog.unref();
  return watchdog;
}

/** SIGTERM, then SIGKILL after 10 s; nothing for a process already gone. */
export async function stopChild(proc: ChildProcess | null): Promise<void> {
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = once(proc, "exit");
  proc.kill("SIGTERM");
  const timer = setTimeout(() => proc.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Closes an HTTP server and its open connections. */
export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
