import { isSecretRef, readSecret } from "../config/read-secret.ts";
import type { ActionConfig } from "../config/schema.ts";
import { runCommand } from "../sources/run-command.ts";

/** Who asked for the action and why; sent to webhooks, recorded in the audit. */
export interface ActionContext {
  host: string;
  /** Slack user id, or `gpu-warden` for automatic stops. */
  actor: string;
  reason: string;
  forced: boolean;
  atMs: number;
}

export interface ActionOutcome {
  ok: boolean;
  dryRun: boolean;
  /** `ssh gpu-a sudo poweroff` or `POST https://…`: what ran (or would run). */
  description: string;
  /** Exit code of a command, HTTP status of a webhook; null when it never finished. */
  exitCode: number | null;
  timedOut: boolean;
  /** The last part of the output, for the audit and the thread. */
  outputTail: string;
  durationMs: number;
}

const TAIL_CHARS = 1500;

/**
 * Runs a stop, pre-stop or start action, or with `dryRun` only says what it would run. A webhook's
 * secrets (`{ env }`, `{ file }`) are read now; one that cannot be read fails the action without
 * sending anything. Never throws.
 */
export async function runAction(
  action: ActionConfig,
  context: ActionContext,
  options: { dryRun: boolean; fetch?: typeof fetch },
): Promise<ActionOutcome> {
  const description = describeAction(action);
  if (options.dryRun) {
    return {
      ok: true,
      dryRun: true,
      description,
      exitCode: null,
      timedOut: false,
      outputTail: "",
      durationMs: 0,
    };
  }
  const startedAt = performance.now();
  const timeoutMs = action.timeout_seconds * 1000;
  if ("command" in action) {
    const result = await runCommand(action.command, { timeoutMs });
    const output = [result.stdout, result.stderr, result.spawnError ?? ""].filter(Boolean).join("\n");
    return {
      ok: result.exitCode === 0 && !result.timedOut,
      dryRun: false,
      description,
      exitCode: result.exitCode,
      timedOut: result.timedOut,
      outputTail: tail(
        result.timedOut ? `${output.trimEnd()}\n(killed after ${action.timeout_seconds} s)` : output,
      ),
      durationMs: performance.now() - startedAt,
    };
  }
  const secrets = withSecrets(action);
  if (!secrets.ok) {
    return {
      ok: false,
      dryRun: false,
      description,
      exitCode: null,
      timedOut: false,
      outputTail: secrets.problem,
      durationMs: 0,
    };
  }
  const doFetch = options.fetch ?? fetch;
  try {
    const response = await doFetch(action.webhook, {
      method: action.method,
      headers: { "content-type": "application/json", ...secrets.headers },
      body: JSON.stringify({
        ...secrets.body,
        host: context.host,
        actor: context.actor,
        reason: context.reason,
        forced: context.forced,
        at: new Date(context.atMs).toISOString(),
      }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    return {
      ok: response.ok,
      dryRun: false,
      description,
      exitCode: response.status,
      timedOut: false,
      outputTail: tail(text),
      durationMs: performance.now() - startedAt,
    };
  } catch (error) {
    const timedOut = error instanceof Error && error.name === "TimeoutError";
    return {
      ok: false,
      dryRun: false,
      description,
      exitCode: null,
      timedOut,
      outputTail: timedOut ? `no answer within ${action.timeout_seconds} s` : errorText(error),
      durationMs: performance.now() - startedAt,
    };
  }
}

type WebhookAction = Extract<ActionConfig, { webhook: string }>;

/** The webhook's headers and body with every secret read, or the first that cannot be. */
function withSecrets(
  action: WebhookAction,
):
  | { ok: true; headers: Record<string, string>; body: Record<string, unknown> }
  | { ok: false; problem: string } {
  const headers: Record<string, string> = {};
  const body: Record<string, unknown> = {};
  for (const [into, from] of [
    [headers, action.headers],
    [body, action.body],
  ] as const) {
    for (const [name, value] of Object.entries(from)) {
      if (!isSecretRef(value)) {
        into[name] = value as string;
        continue;
      }
      const read = readSecret(value);
      if (!read.ok) return { ok: false, problem: `secret for ${name}: ${read.problem}` };
      into[name] = read.value;
    }
  }
  return { ok: true, headers, body };
}

export function describeAction(action: ActionConfig): string {
  if ("command" in action) return action.command.map(quoteArg).join(" ");
  return `${action.method} ${action.webhook}`;
}

function quoteArg(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}

function tail(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > TAIL_CHARS ? `…${trimmed.slice(-TAIL_CHARS)}` : trimmed;
}

function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as Error & { cause?: unknown }).cause;
  return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message;
}
