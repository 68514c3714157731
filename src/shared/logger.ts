import { Writable } from "node:stream";
import { pino } from "pino";

export type Logger = pino.Logger;

/** `json`: one JSON object a line (for log collectors); `pretty`: one readable line each (a terminal). */
export type LogFormat = "json" | "pretty";

/**
 * Logs on `destination` (stderr), one a line: JSON objects, or with `format: "pretty"` a readable line
 * (`14:02:07 WARN  outbox: retrying · method=chat.postMessage`).
 */
export function createLogger(
  level: string,
  destination: NodeJS.WritableStream = process.stderr,
  format: LogFormat = "json",
): Logger {
  const stream = format === "pretty" ? prettyLines(destination) : destination;
  return pino({ level, base: { app: "gpu-warden" }, timestamp: pino.stdTimeFunctions.isoTime }, stream);
}

/** A logger that drops everything: tests and benchmarks that do not look at logs. */
export const silentLogger: Logger = pino({ level: "silent" });

const LEVELS: Record<number, string> = {
  10: "TRACE",
  20: "DEBUG",
  30: "INFO",
  40: "WARN",
  50: "ERROR",
  60: "FATAL",
};
const LEFT_OUT = new Set(["level", "time", "msg", "app", "pid", "hostname"]);

/** One pino JSON line as a person reads it: local time, level, message, then the other fields. */
export function prettyLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const time = typeof entry.time === "string" ? entry.time.slice(11, 19) : "";
  const level = (LEVELS[Number(entry.level)] ?? String(entry.level)).padEnd(5);
  const fields = Object.entries(entry)
    .filter(([key]) => !LEFT_OUT.has(key))
    .map(([key, value]) => `${key}=${fieldText(value)}`);
  const message = String(entry.msg ?? "");
  return [`${time} ${level} ${message}`, ...(fields.length > 0 ? [fields.join(" ")] : [])].join(" · ");
}

function fieldText(value: unknown): string {
  if (typeof value === "string") return /\s/.test(value) ? JSON.stringify(value) : value;
  if (value !== null && typeof value === "object" && "message" in value) {
    return JSON.stringify(String((value as { message: unknown }).message));
  }
  return JSON.stringify(value);
}

function prettyLines(destination: NodeJS.WritableStream): Writable {
  let pending = "";
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      pending += chunk.toString("utf8");
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) if (line !== "") destination.write(`${prettyLine(line)}\n`);
      callback();
    },
  });
}
