import type { SlackFailure } from "../transport/classify-slack-failure.ts";

const NOT_IDEMPOTENT = new Set(["chat.postMessage", "chat.postEphemeral", "files.uploadV2"]);

/** The log line for a transient failure: whether a timed-out call may already have done its work. */
export function failureLine(method: string, timedOut: boolean, traceable: boolean): string {
  if (!timedOut || !NOT_IDEMPOTENT.has(method)) return "Slack call failed; retrying after a back-off";
  if (traceable)
    return `${method} timed out; Slack may have completed it, so it is looked for before it is sent again`;
  return `${method} timed out; retrying — Slack may have completed it anyway, so it can appear twice`;
}

/** No answer came (a timeout, a broken connection, an error of our own): Slack may have done it. */
export function mayHaveCompleted(failure: SlackFailure): boolean {
  if (failure.kind === "unexpected") return true;
  return failure.kind === "transient" && (failure.timedOut || failure.code === "request_failed");
}

/** Slack's own words on a refused call (`errors`, `response_metadata.messages`), when it gave any. */
export function platformDetail(error: unknown): string[] | undefined {
  const data = (error as { data?: { errors?: unknown; response_metadata?: { messages?: unknown } } }).data;
  const detail = data?.errors ?? data?.response_metadata?.messages;
  return Array.isArray(detail) ? detail.map(String) : undefined;
}

/** A non-empty string argument, else `undefined`. */
export function stringArg(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}
