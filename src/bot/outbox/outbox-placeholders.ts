import type { AlertRecord } from "../../domain/alert-record.ts";
import type { OutboxItem } from "../../store/outbox-store.ts";
import type { IfLate } from "../../usecases/ports.ts";

/** Where an `$alertTs` placeholder sits; `thread_ts` may fall back to the channel, `ts` may not. */
export type Resolution =
  | { ok: true; args: Record<string, unknown>; threadDropped: boolean }
  | { ok: false; reason: string };

/**
 * The item's arguments with each `{ $alertTs: id }` replaced by that alert's message ts (and its
 * channel); a `thread_ts` whose alert never got a message is dropped (the reply goes to the channel).
 */
export function resolvePlaceholders(
  item: OutboxItem,
  alertById: (id: number) => Pick<AlertRecord, "ts" | "channel"> | null | undefined,
): Resolution {
  const args: Record<string, unknown> = { ...item.args };
  let threadDropped = false;
  for (const [key, value] of Object.entries(args)) {
    const alertId = placeholderId(value);
    if (alertId === undefined) {
      if (containsPlaceholder(value)) return { ok: false, reason: `unsupported $alertTs inside "${key}"` };
      continue;
    }
    const alert = alertById(alertId);
    if (alert?.ts === null || alert?.ts === undefined) {
      if (key !== "thread_ts") {
        return {
          ok: false,
          reason: `alert ${alertId} has no Slack message (its post failed or never ran)`,
        };
      }
      delete args[key];
      threadDropped = true;
      continue;
    }
    args[key] = alert.ts;
    // NOTE: the message lives in the channel Slack answered with (an ID); the queued `channel`
    // may be a name such as "#gpu", which chat.update refuses.
    if (alert.channel !== null && (key === "ts" || key === "thread_ts")) {
      args[item.method === "files.uploadV2" ? "channel_id" : "channel"] = alert.channel;
    }
  }
  return { ok: true, args, threadDropped };
}

/** The item without its `$ifLate` key, and with those blocks in when it is sent late (see {@link IfLate}). */
export function withLateNotice(item: OutboxItem, nowMs: number): OutboxItem {
  const { $ifLate: late, ...args } = item.args as Record<string, unknown> & { $ifLate?: IfLate };
  if (late === undefined) return item;
  if (nowMs - item.createdAtMs > late.afterMs && Array.isArray(args.blocks)) {
    args.blocks = [...args.blocks.slice(0, 1), ...late.blocks, ...args.blocks.slice(1)];
  }
  return { ...item, args };
}

function placeholderId(value: unknown): number | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const keys = Object.keys(value);
  const id = (value as { $alertTs?: unknown }).$alertTs;
  return keys.length === 1 && typeof id === "number" ? id : undefined;
}

function containsPlaceholder(value: unknown): boolean {
  return typeof value === "object" && value !== null && JSON.stringify(value).includes('"$alertTs"');
}
