import type { StoredMessage } from "./emulator-state.ts";
import { type JsonObject, stringField } from "./json.ts";
import { platformError } from "./message-content.ts";

/** One page of `conversations.history` / `conversations.replies`, or Slack's error for the arguments. */
export type HistoryPage =
  | { ok: true; messages: StoredMessage[]; nextCursor: string | undefined; withMetadata: boolean }
  | { ok: false; body: JsonObject };

const TS = /^\d+(\.\d+)?$/;

/**
 * Applies Slack's timeline arguments to `messages` (already in the order the method answers in):
 * `oldest`/`latest` (exclusive unless `inclusive`; malformed → `invalid_ts_oldest`/`invalid_ts_latest`),
 * `limit` (default `defaultLimit`, at most `maxLimit`), `cursor` (from a previous page's
 * `next_cursor`; unknown → `invalid_cursor`) and `include_all_metadata`.
 */
export function historyPage(
  messages: StoredMessage[],
  args: JsonObject,
  limits: { defaultLimit: number; maxLimit: number },
): HistoryPage {
  const oldest = stringField(args, "oldest") ?? numberText(args.oldest);
  const latest = stringField(args, "latest") ?? numberText(args.latest);
  if (oldest !== undefined && !TS.test(oldest))
    return { ok: false, body: platformError("invalid_ts_oldest") };
  if (latest !== undefined && !TS.test(latest))
    return { ok: false, body: platformError("invalid_ts_latest") };
  const inclusive = isTrue(args.inclusive);
  const inWindow = (ts: string) =>
    (oldest === undefined || (inclusive ? Number(ts) >= Number(oldest) : Number(ts) > Number(oldest))) &&
    (latest === undefined || (inclusive ? Number(ts) <= Number(latest) : Number(ts) < Number(latest)));
  const shown = messages.filter((message) => inWindow(message.ts));
  const start = startAfterCursor(shown, args.cursor);
  if (start === undefined) return { ok: false, body: platformError("invalid_cursor") };
  const requested = Number(args.limit ?? limits.defaultLimit);
  const limit =
    Number.isInteger(requested) && requested > 0 ? Math.min(requested, limits.maxLimit) : limits.defaultLimit;
  const page = shown.slice(start, start + limit);
  const last = page.at(-1);
  const nextCursor =
    start + limit < shown.length && last !== undefined
      ? Buffer.from(`next_ts:${last.ts}`).toString("base64")
      : undefined;
  return { ok: true, messages: page, nextCursor, withMetadata: isTrue(args.include_all_metadata) };
}

/** The index after the message a cursor names; 0 without a cursor; `undefined` for a cursor never issued. */
function startAfterCursor(messages: StoredMessage[], cursor: unknown): number | undefined {
  if (cursor === undefined || cursor === "") return 0;
  if (typeof cursor !== "string") return undefined;
  const decoded = Buffer.from(cursor, "base64").toString("utf8");
  if (!decoded.startsWith("next_ts:")) return undefined;
  const index = messages.findIndex((message) => message.ts === decoded.slice("next_ts:".length));
  return index < 0 ? undefined : index + 1;
}

/** Form values arrive as text: Slack reads `true`/`1` as true. */
function isTrue(value: unknown): boolean {
  return value === true || value === "true" || value === "1" || value === 1;
}

function numberText(value: unknown): string | undefined {
  return typeof value === "number" ? String(value) : undefined;
}
