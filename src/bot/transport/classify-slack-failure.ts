import bolt from "@slack/bolt";
import { slackErrorCode } from "./slack-error-hint.ts";

const { WebAPIHTTPError, WebAPIPlatformError, WebAPIRateLimitedError, WebAPIRequestError } = bolt.webApi;

/**
 * What to do after a failed Web API call:
 * - `rate-limited`: wait `retryAfterMs` (Slack's `Retry-After`), then try again;
 * - `transient`: Slack or the network had a problem (5xx, timeout, connection reset, `internal_error`);
 *   back off and try again; `timedOut` when the client gave up waiting (Slack may have done it);
 * - `permanent`: Slack will never accept this call as it is (`invalid_blocks`, `not_in_channel`…);
 * - `unexpected`: not a Slack error (a bug or an SDK surprise).
 */
export type SlackFailure =
  | { kind: "rate-limited"; retryAfterMs: number; code: string }
  | { kind: "transient"; code: string; timedOut: boolean }
  | { kind: "permanent"; code: string }
  | { kind: "unexpected"; code: string };

/** Platform errors (HTTP 200, `ok:false`) that say "try again later", not "never". */
const TRANSIENT_PLATFORM_ERRORS = new Set([
  "internal_error",
  "fatal_error",
  "service_unavailable",
  "request_timeout",
  "ratelimited",
  "rate_limited",
  "team_added_to_org",
]);

export function classifySlackFailure(error: unknown): SlackFailure {
  if (error instanceof WebAPIRateLimitedError) {
    return { kind: "rate-limited", retryAfterMs: error.retryAfter * 1000, code: "ratelimited" };
  }
  if (error instanceof WebAPIHTTPError) {
    const code = `http_${error.statusCode}`;
    return error.statusCode >= 500 || error.statusCode === 408
      ? { kind: "transient", code, timedOut: false }
      : { kind: "permanent", code };
  }
  if (error instanceof WebAPIRequestError) {
    const name = error.original?.name;
    const timedOut = name === "TimeoutError" || name === "AbortError";
    return { kind: "transient", code: timedOut ? "timeout" : "request_failed", timedOut };
  }
  if (error instanceof WebAPIPlatformError) {
    const code = slackErrorCode(error) ?? "unknown_platform_error";
    return TRANSIENT_PLATFORM_ERRORS.has(code)
      ? { kind: "transient", code, timedOut: false }
      : { kind: "permanent", code };
  }
  const message = error instanceof Error ? error.message : String(error);
  // NOTE: web-api 8 throws plain Errors for a failed upload to the files.uploadV2 upload URL and
  // for a 429 whose Retry-After cannot be read; both are worth another try.
  if (/^Failed to upload file|Retry header did not contain|A rate limit was exceeded/.test(message)) {
    return { kind: "transient", code: "upload_or_rate_limit", timedOut: false };
  }
  if (error !== null && typeof error === "object" && "code" in error) {
    const code = String((error as { code: unknown }).code);
    if (code.startsWith("slack_webapi_file_upload")) return { kind: "permanent", code };
  }
  return { kind: "unexpected", code: error instanceof Error ? error.name : "unknown" };
}
