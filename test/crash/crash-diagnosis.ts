import type { CrashWorld } from "./crash-world.ts";
import { readStore } from "./team-day.ts";

const TEXT_CHARS = 90;
const LOG_LINES = 60;

/**
 * What a failed campaign leaves for whoever reads CI's output: the bot's clock, what Slack's
 * conversations hold, the store's alerts and outbox, the Web API calls that failed and the last
 * lines the bots logged. Whatever cannot be read says so instead of hiding the failure.
 */
export function crashDiagnosis(world: CrashWorld): string[] {
  return [
    `the bot's clock: ${new Date(world.nowMs).toISOString()}`,
    ...section("messages", () => messages(world)),
    ...section("alerts", () => rows(world, "SELECT id, host, kind, state, opened_ms, ts FROM alert")),
    ...section("outbox", () =>
      rows(
        world,
        `SELECT id, method, json_extract(args, '$.channel') AS channel, alert_id, role, state, attempts,
           not_before_ms, error FROM outbox`,
      ),
    ),
    ...section("failed Web API calls", () =>
      world.slack
        .calls()
        .filter((call) => call.error !== undefined)
        .map((call) => `${call.method} ${call.error} at ${call.atMs}`),
    ),
    ...section("bot logs (last lines)", () => world.botLog.split("\n").filter(Boolean).slice(-LOG_LINES)),
  ];
}

function section(title: string, read: () => string[]): string[] {
  try {
    const lines = read();
    return [`${title}: ${lines.length === 0 ? "none" : ""}`, ...lines.map((line) => `  ${line}`)];
  } catch (error) {
    return [`${title}: could not be read (${error instanceof Error ? error.message : String(error)})`];
  }
}

function messages(world: CrashWorld): string[] {
  return world.slack.state.messages.map((m) => {
    const flags = [
      m.threadTs ? `thread ${m.threadTs}` : "",
      m.deleted ? "deleted" : "",
      m.edits.length > 0 ? `edited ${m.edits.length}x` : "",
    ].filter(Boolean);
    const text = m.text.replace(/\s+/g, " ").slice(0, TEXT_CHARS);
    return `${m.channel} ${m.ts}${flags.length > 0 ? ` (${flags.join(", ")})` : ""}: ${text}`;
  });
}

function rows(world: CrashWorld, sql: string): string[] {
  const all = readStore(world, (db) => db.prepare(sql).all()) as Array<Record<string, unknown>>;
  return all.map((row) => JSON.stringify(row));
}
