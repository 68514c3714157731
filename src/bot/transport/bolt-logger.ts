import bolt, { type Logger as BoltLogger, type LogLevel as BoltLogLevel } from "@slack/bolt";
import type { Logger } from "../../shared/logger.ts";

const { LogLevel } = bolt;

type PinoLevel = "debug" | "info" | "warn" | "error";

const TO_PINO: Record<string, PinoLevel> = {
  [LogLevel.DEBUG]: "debug",
  [LogLevel.INFO]: "info",
  [LogLevel.WARN]: "warn",
  [LogLevel.ERROR]: "error",
};

/** The Bolt level matching a pino level (`trace` → DEBUG, `fatal`/`silent` → ERROR). */
export function boltLevel(level: string): BoltLogLevel {
  switch (level) {
    case "trace":
    case "debug":
      return LogLevel.DEBUG;
    case "info":
      return LogLevel.INFO;
    case "warn":
      return LogLevel.WARN;
    default:
      return LogLevel.ERROR;
  }
}

/**
 * Routes the logs of Bolt, the Web API client and the Socket Mode client into our pino logger
 * (`component: "slack"`, `slack: <name>`). Bolt logs variadic strings and errors: strings are
 * joined into the message, the first Error becomes `err`. `quiet` writes everything at debug level
 * (for a client whose every failure its caller logs anyway).
 */
export function boltLogger(logger: Logger, name: string, options: { quiet?: boolean } = {}): BoltLogger {
  let child = logger.child({ component: "slack", slack: name });
  const write =
    (wanted: PinoLevel) =>
    (...parts: unknown[]): void => {
      const level = options.quiet === true ? "debug" : wanted;
      if (!child.isLevelEnabled(level)) return;
      const err = parts.find((part): part is Error => part instanceof Error);
      const text = parts
        .filter((part) => part !== err)
        .map((part) => (typeof part === "string" ? part : safeJson(part)))
        .join(" ");
      if (err === undefined) child[level](text);
      else child[level]({ err }, text === "" ? err.message : text);
    };
  return {
    debug: write("debug"),
    info: write("info"),
    warn: write("warn"),
    error: write("error"),
    setLevel: (level) => {
      child.level = TO_PINO[level] ?? "info";
    },
    getLevel: () => boltLevel(child.level),
    setName: (newName) => {
      const level = child.level;
      child = logger.child({ component: "slack", slack: newName });
      child.level = level;
    },
  };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
