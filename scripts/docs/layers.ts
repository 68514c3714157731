/**
 * Who may import whom in src/ (docs/architecture.md; test/repo/docs.test.ts holds the code to it).
 * `may`: any import; `types`: `import type` only. Parts are the folders of src/ (`bot` split into
 * its listeners and views) and the two files at its root.
 */
export interface LayerRule {
  part: string;
  owns: string;
  may: readonly string[];
  types: readonly string[];
  /**
   * When set, what may be named in the `import type` from the `types` parts: a pattern over each
   * imported name (the ports: repository, source and client interfaces), so data types come from
   * `domain` instead.
   */
  portNames?: string;
}

const ANY = ["*"];

export const LAYER_RULES: readonly LayerRule[] = [
  {
    part: "cli",
    owns: "the `gpu-warden` command: arguments, exit codes, console output",
    may: ANY,
    types: [],
  },
  {
    part: "main",
    owns: "the composition root: config → store → sources → use-cases → Slack app → jobs → HTTP",
    may: ANY,
    types: [],
  },
  {
    part: "describe-cli-problem",
    owns: "the one line (and exit code) the CLI prints for a store, lock or sources problem",
    may: ["sources", "store", "messages", "shared"],
    types: [],
  },
  {
    part: "simulation",
    owns: "the outcome benchmark's simulated team month; composes the bot with main's `composeBot`",
    may: ANY,
    types: [],
  },
  {
    part: "playground",
    owns: "the local Slack emulator (Web API, Socket Mode, signed HTTP) for tests and the playground",
    may: ANY,
    types: [],
  },
  {
    part: "bot/listeners",
    owns: "one Bolt listener per command, button, view and event: ack → parse → use-case → view → respond",
    may: ["bot", "bot/views", "usecases", "checks", "domain", "messages", "shared", "config"],
    types: ["store", "sources", "reports"],
  },
  {
    part: "bot/views",
    owns: "pure Block Kit and message text builders",
    may: ["bot", "usecases", "checks", "reports", "executors", "domain", "messages", "shared", "config"],
    types: ["store", "sources"],
  },
  {
    part: "bot",
    owns: "the Bolt app, action ids and payload schemas, the command table, the outbox worker",
    may: ["bot/views", "usecases", "checks", "domain", "messages", "shared", "config", "observability"],
    types: ["store", "sources"],
  },
  {
    part: "jobs",
    owns: "the job table and its schedule with persisted last runs (exactly once, catch-up)",
    may: ["usecases", "checks", "reports", "domain", "shared", "config"],
    types: ["store", "sources"],
  },
  { part: "observability", owns: "the bot's own /metrics and /healthz", may: ["shared"], types: [] },
  {
    part: "usecases",
    owns: "one verb-noun per file (poll-fleet, stop-host, claim-gpus…); the ports they need (ports.ts)",
    may: ["checks", "reports", "executors", "domain", "messages", "shared", "config"],
    types: ["store", "sources", "observability"],
    portNames: "(Store|Stores|Source|Client|Metrics)$|^PromVectorSample$",
  },
  {
    part: "reports",
    owns: "summary models, tables and the chart (SVG rendered to PNG)",
    may: ["checks", "domain", "messages", "shared", "config"],
    types: ["store", "sources"],
  },
  {
    part: "executors",
    owns: "how a stop runs: an argv command or a webhook, with a timeout, or a dry run",
    may: ["sources", "domain", "shared", "config"],
    types: [],
  },
  {
    part: "checks",
    owns: "pure rules: idle episodes, claims, costs, reclaim, renewal, rightsizing, rotation, cadence",
    may: ["domain", "shared"],
    types: [],
  },
  {
    part: "domain",
    owns: "the types every layer shares: observations, samples, claims, queue requests, alerts, ledger days; the source contract",
    may: ["shared"],
    types: [],
  },
  {
    part: "sources",
    owns: "metric sources, one file per kind and parser (nvidia-smi, who, ps, SSH, Prometheus, simulated)",
    may: ["domain", "config", "shared"],
    types: [],
  },
  {
    part: "store",
    owns: "SQLite: open, migrations, repositories (the only place with SQL)",
    may: ["domain", "shared"],
    types: [],
  },
  {
    part: "config",
    owns: "the zod schema, loading and describing the configuration",
    may: ["messages", "shared"],
    types: [],
  },
  {
    part: "messages",
    owns: "the message catalog (en, zh-CN; ICU MessageFormat through FormatJS) and the one place for Intl formatters",
    may: ["shared"],
    types: [],
  },
  { part: "shared", owns: "clock, time zones, durations, logger, small text helpers", may: [], types: [] },
];

/**
 * Imports that break the rules today, each with the reason; a new one fails the test. None now: the
 * use-cases that post take their words through ports (`src/usecases/*-words.ts`) that the bot's
 * views implement (`src/bot/views/renderers.ts`).
 */
export const KNOWN_EXCEPTIONS: readonly { from: string; to: string; why: string }[] = [];
