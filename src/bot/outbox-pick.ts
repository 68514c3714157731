import type { OutboxItem, OutboxStore } from "../store/outbox-store.ts";
import type { ConversationIndex } from "./outbox-conversation.ts";

/**
 * The next item to send now (the oldest due head of a conversation), or how long to wait for one;
 * `null` when nothing is pending. Nothing is due before `pausedUntilMs` (a 429's Retry-After).
 */
export function pickOutboxItem(
  outbox: Pick<OutboxStore, "pendingSchedule" | "pendingRoutes" | "pendingById">,
  conversations: ConversationIndex,
  nowMs: number,
  pausedUntilMs: number,
): OutboxItem | { waitMs: number } | null {
  const heads = conversations.heads(outbox.pendingSchedule(), (minId) => outbox.pendingRoutes(minId));
  if (heads.length === 0) return null;
  if (pausedUntilMs > nowMs) return { waitMs: pausedUntilMs - nowMs };
  const due = heads.find((head) => head.notBeforeMs <= nowMs);
  if (due === undefined) return { waitMs: Math.min(...heads.map((head) => head.notBeforeMs)) - nowMs };
  return outbox.pendingById(due.id) ?? { waitMs: 0 };
}
