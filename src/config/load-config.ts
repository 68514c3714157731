import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseDocument } from "yaml";
import type { z } from "zod";
import { closest } from "../shared/closest.ts";
import { type Config, configSchema, sourceSchema } from "./schema.ts";

/** Settings that come only from the environment (secrets and process-level switches). */
export interface EnvSettings {
  slackBotToken: string | null;
  slackAppToken: string | null;
  slackSigningSecret: string | null;
  slackApiUrl: string | null;
  logLevel: string;
  /** `LOG_FORMAT`: `json` or `pretty`; `null`: pretty on a terminal, JSON otherwise. */
  logFormat: "json" | "pretty" | null;
  /** Overrides `http.port` when set. */
  port: number | null;
}

export interface ConfigProblem {
  /** Dotted path into the YAML, e.g. `sources.0.url`; empty for the whole file. */
  path: string;
  expected: string;
  found: string;
  hint: string | null;
}

export class ConfigError extends Error {
  constructor(
    readonly file: string | null,
    readonly problems: ConfigProblem[],
  ) {
    super(`${file ?? "configuration"}: ${problems.length} problem(s)`);
    this.name = "ConfigError";
  }
}

export interface LoadedConfig {
  config: Config;
  env: EnvSettings;
  /** The file read, or null when the embedded defaults are used. */
  file: string | null;
  /** The file holds no settings at all (empty, or only comments): every value is a default. */
  empty?: boolean;
}

export const DEFAULT_CONFIG_FILE = "gpu-warden.yaml";

const SOURCE_KINDS = sourceSchema.options.map((option) => option.shape.kind.value);

const LOG_LEVELS = ["trace", "debug", "info", "warn", "error", "fatal", "silent"];

function logFormatOf(value: string | null): "json" | "pretty" | null {
  const format = value?.toLowerCase();
  return format === "json" || format === "pretty" ? format : null;
}

export function readEnv(env: Record<string, string | undefined>): EnvSettings {
  const text = (key: string): string | null => {
    const value = env[key]?.trim();
    return value ? value : null;
  };
  const level = text("LOG_LEVEL")?.toLowerCase() ?? "info";
  const port = text("PORT");
  return {
    slackBotToken: text("SLACK_BOT_TOKEN"),
    slackAppToken: text("SLACK_APP_TOKEN"),
    slackSigningSecret: text("SLACK_SIGNING_SECRET"),
    slackApiUrl: text("SLACK_API_URL"),
    logLevel: LOG_LEVELS.includes(level) ? level : "info",
    logFormat: logFormatOf(text("LOG_FORMAT")),
    port: port !== null && /^\d+$/.test(port) ? Number(port) : null,
  };
}

/**
 * Reads and validates the configuration. `file` is an explicit `--config`; without it,
 * `gpu-warden.yaml` in `cwd` is used when present, else the embedded defaults.
 * Throws `ConfigError` listing every problem.
 */
export function loadConfig(
  env: Record<string, string | undefined>,
  options: { file?: string | undefined; cwd?: string } = {},
): LoadedConfig {
  const cwd = options.cwd ?? process.cwd();
  const explicit = options.file !== undefined ? resolve(cwd, options.file) : null;
  const implicit = resolve(cwd, DEFAULT_CONFIG_FILE);
  const file = explicit ?? (existsSync(implicit) ? implicit : null);

  let raw: unknown = {};
  if (file !== null) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      throw new ConfigError(file, [
        {
          path: "",
          expected: "a readable YAML file",
          found: (error as NodeJS.ErrnoException).code ?? String(error),
          hint: explicit ? "check the path given to --config" : null,
        },
      ]);
    }
    raw = parseYaml(file, text);
  }
  const empty = file !== null && raw === null;
  return { config: parseConfig(raw ?? {}, file), env: readEnv(env), file, ...(empty ? { empty } : {}) };
}

/** More aliases than this in one file is an alias bomb (nested anchors), not a configuration. */
const MAX_ALIAS_COUNT = 100;

/** The parsed document; `null` for a file with no settings (empty or only comments). */
function parseYaml(file: string, text: string): unknown {
  // NOTE: YAML 1.2 dropped `<<` merge keys, but people copy them from YAML 1.1 examples (Compose,
  // CI files); `merge: true` makes them work instead of landing as an unknown key named `<<`.
  const doc = parseDocument(text, { prettyErrors: true, merge: true });
  if (doc.errors.length > 0) {
    throw new ConfigError(
      file,
      doc.errors.map((error) => ({
        path: "",
        expected: "valid YAML",
        found: clip(error.message.split("\n")[0] ?? error.message, 200),
        hint: "YAML indents with spaces, not tabs; quote values that contain ': ' or start with '@'",
      })),
    );
  }
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) ?? null;
  } catch (error) {
    // NOTE: the yaml library throws a ReferenceError when expanding aliases would exceed
    // maxAliasCount (nested anchors that expand exponentially: an "alias bomb").
    if (error instanceof ReferenceError && /alias/i.test(error.message)) {
      throw new ConfigError(file, [
        {
          path: "",
          expected: `at most ${MAX_ALIAS_COUNT} alias expansions (*name)`,
          found: "aliases that expand without end (nested anchors: an alias bomb)",
          hint: "write the values out, or use fewer nested anchors",
        },
      ]);
    }
    throw error;
  }
}

/** Validates an already-parsed document. */
export function parseConfig(raw: unknown, file: string | null = null): Config {
  const result = configSchema.safeParse(raw);
  if (result.success) return result.data;
  throw new ConfigError(
    file,
    result.error.issues.map((issue) => toProblem(issue, raw)),
  );
}

function toProblem(issue: z.core.$ZodIssue, raw: unknown): ConfigProblem {
  const path = issue.path.map(String).join(".");
  const found = shownValue(issue.path, raw);
  switch (issue.code) {
    case "invalid_key":
      return {
        path,
        expected: issue.issues[0]?.message ?? "a valid key",
        found: `the key ${describe(issue.path.at(-1))}`,
        hint: path.startsWith("hosts.") ? HOST_NAME_HINT : null,
      };
    case "unrecognized_keys":
      return {
        path,
        expected: "no other keys",
        found: `unknown key(s) ${issue.keys.map((k) => `'${k}'`).join(", ")}`,
        hint: suggestKeys(issue.keys, knownKeysAt(issue.path)),
      };
    case "invalid_union":
      return path.endsWith("kind")
        ? {
            path,
            expected: `one of ${SOURCE_KINDS.map((kind) => JSON.stringify(kind)).join(", ")}`,
            found,
            hint: "each source needs `kind: local | ssh | prometheus | simulated`",
          }
        : { path, expected: "one of the allowed forms", found, hint: hintFor(path) };
    default:
      return { path, expected: expectedOf(issue), found, hint: hintFor(path) };
  }
}

function expectedOf(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return issue.expected === "object" ? "a mapping of keys" : `${issue.expected}`;
    case "too_small":
      return `${issue.inclusive === false ? "more than" : "at least"} ${String(issue.minimum)}${unitOf(issue.origin)}`;
    case "too_big":
      return `${issue.inclusive === false ? "less than" : "at most"} ${String(issue.maximum)}${unitOf(issue.origin)}`;
    case "invalid_value":
      return `one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    default:
      return issue.message;
  }
}

function unitOf(origin: string): string {
  if (origin === "string") return " characters";
  if (origin === "array" || origin === "set") return " items";
  return "";
}

const HOST_NAME_HINT = "host names use letters, digits, '.', '_' and '-'";

const HINTS: [RegExp, string][] = [
  [/^sources\.\d+\.url$/, "a full URL such as http://prometheus:9090"],
  [/^sources\.\d+\.kind$/, "kind is one of local, ssh, prometheus, simulated"],
  [/interval_seconds$/, "5, 10, 15, 20, 30 or 60 s, or whole minutes that divide an hour: 120, 300, 600…"],
  [/timezone$/, "an IANA name such as Europe/Berlin or America/New_York"],
  [/(owners|admins)\.\d+$/, "use Slack user ids (U…), not @names: profile → ⋮ → Copy member ID"],
];

function hintFor(path: string): string | null {
  return HINTS.find(([pattern]) => pattern.test(path))?.[1] ?? null;
}

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let node: unknown = raw;
  for (const key of path) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}

/** What the file holds at `path`, except under a webhook's headers or body, which may hold a secret. */
function shownValue(path: readonly PropertyKey[], raw: unknown): string {
  const value = valueAt(raw, path);
  const secret = path.some((key) => key === "headers" || key === "body");
  return secret && value !== undefined ? "a value written in the file (not shown)" : describe(value);
}

function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (typeof value === "object") return "a mapping";
  const text = JSON.stringify(value);
  const length = typeof value === "string" && value.length > 60 ? ` (${value.length} characters)` : "";
  return `${typeof value} ${clip(text, 60)}${length}`;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

function knownKeysAt(path: readonly PropertyKey[]): string[] {
  let schema: z.core.$ZodType = configSchema;
  for (const key of path) {
    const def = schema._zod.def as unknown as Record<string, unknown>;
    const inner = unwrap(schema);
    const innerDef = inner._zod.def as unknown as {
      type: string;
      shape?: Record<string, z.core.$ZodType>;
      element?: z.core.$ZodType;
      valueType?: z.core.$ZodType;
    };
    void def;
    if (innerDef.type === "object" && innerDef.shape && typeof key === "string" && key in innerDef.shape) {
      schema = innerDef.shape[key] as z.core.$ZodType;
    } else if (innerDef.type === "array" && innerDef.element) {
      schema = innerDef.element;
    } else if (innerDef.type === "record" && innerDef.valueType) {
      schema = innerDef.valueType;
    } else {
      return [];
    }
  }
  const inner = unwrap(schema);
  const def = inner._zod.def as unknown as {
    type: string;
    shape?: Record<string, unknown>;
    options?: z.core.$ZodType[];
  };
  if (def.type === "object" && def.shape) return Object.keys(def.shape);
  if (def.type === "union" && def.options) {
    return def.options.flatMap((option) => {
      const shape = (unwrap(option)._zod.def as unknown as { shape?: Record<string, unknown> }).shape;
      return shape ? Object.keys(shape) : [];
    });
  }
  return [];
}

function unwrap(schema: z.core.$ZodType): z.core.$ZodType {
  let current = schema;
  for (;;) {
    const def = current._zod.def as unknown as { type: string; innerType?: z.core.$ZodType };
    if ((def.type === "default" || def.type === "prefault" || def.type === "optional") && def.innerType) {
      current = def.innerType;
    } else {
      return current;
    }
  }
}

function suggestKeys(unknown: string[], known: string[]): string | null {
  const suggestions = unknown.flatMap((key) => {
    const best = closest(key, known);
    return best ? [`'${key}' → did you mean '${best}'?`] : [];
  });
  if (suggestions.length > 0) return suggestions.join("; ");
  return known.length > 0 ? `allowed here: ${known.join(", ")}` : null;
}
