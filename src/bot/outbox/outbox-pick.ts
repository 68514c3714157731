import type { OutboxItem, OutboxStore } from "../../store/outbox-store.ts";
import type { ConversationHead, ConversationIndex } from "./outbox-conversation.ts";
import type { ChannelPacer } from "./outbox-pacing.ts";

/**
 * What may not be sent now besides the schedule: conversations with a call in flight, channels with
 * a post in flight (their pace keys), and channel pacing.
 */
export interface OutboxGate {
  busy: ReadonlySet<string>;
  pacer: ChannelPacer;
}

/** An item to send now, with what the worker tracks while it is in flight. */
export type PickedItem = { item: OutboxItem; head: ConversationHead };

/**
 * The next item to send now (the oldest due head of a conversation with no call in flight, whose
 * channel's pace allows a post), or how long to wait for one; `busy` when only conversations with a
 * call in flight are left; `null` when nothing is pending. Nothing is due before `pausedUntilMs`
 * (a 429's Retry-After).
 */
export function pickOutboxItem(
  outbox: Pick<OutboxStore, "pendingSchedule" | "pendingRoutes" | "pendingById">,
  conversations: ConversationIndex,
  nowMs: number,
  pausedUntilMs: number,
  gate: OutboxGate,
): PickedItem | { waitMs: number } | "busy" | null {
  const readyAt = (head: ConversationHead) =>
    Math.max(head.notBeforeMs, gate.pacer.allowedAtMs(head.paceKey));
  let anyHead = false;
  let anyFree = false;
  let readyFirstMs = Number.POSITIVE_INFINITY;
  for (const head of conversations.heads(outbox.pendingSchedule(), (minId) => outbox.pendingRoutes(minId))) {
    anyHead = true;
    if (gate.busy.has(head.conversation) || (head.paceKey !== null && gate.busy.has(head.paceKey))) continue;
    anyFree = true;
    if (pausedUntilMs > nowMs) return { waitMs: pausedUntilMs - nowMs };
    const atMs = readyAt(head);
    if (atMs <= nowMs) {
      const item = outbox.pendingById(head.id);
      return item === null ? { waitMs: 0 } : { item, head };
    }
    readyFirstMs = Math.min(readyFirstMs, atMs);
  }
  if (!anyHead) return null;
  return anyFree ? { waitMs: readyFirstMs - nowMs } : "busy";
}
