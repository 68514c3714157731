import { pino } from "pino";

export type Logger = pino.Logger;

/** Structured JSON logs on stderr, one object a line. */
export function createLogger(level: string, destination: NodeJS.WritableStream = process.stderr): Logger {
  return pino({ level, base: { app: "gpu-warden" }, timestamp: pino.stdTimeFunctions.isoTime }, destination);
}

/** A logger that drops everything: tests and benchmarks that do not look at logs. */
export const silentLogger: Logger = pino({ level: "silent" });
