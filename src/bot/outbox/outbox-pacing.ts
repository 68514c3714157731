import type { OutboxRoute } from "../../store/outbox-store.ts";

/** Slack's `chat.postMessage` limit: about one message per second per channel (short bursts aside). */
export const POST_INTERVAL_MS = 1_000;

/** The channel whose post rate an item counts against; `null` for calls Slack does not limit per channel. */
export function paceKeyOf(route: Pick<OutboxRoute, "method" | "channel">): string | null {
  if (route.method !== "chat.postMessage" && route.method !== "files.uploadV2") return null;
  return route.channel === null ? null : `post:${route.channel}`;
}

/**
 * The dependency of an item on another conversation: a message posted in the thread of another
 * alert's message (a storm digest's thread) waits until that message's post has left the outbox.
 */
export function afterOf(route: Pick<OutboxRoute, "alertId" | "placeholderAlertId">): string | null {
  const { alertId, placeholderAlertId } = route;
  return alertId !== null && placeholderAlertId !== null && placeholderAlertId !== alertId
    ? `alert:${placeholderAlertId}`
    : null;
}

/** Spaces the posts to each channel {@link POST_INTERVAL_MS} apart, on the injected clock. */
export class ChannelPacer {
  readonly #nextMs = new Map<string, number>();

  constructor(readonly intervalMs: number = POST_INTERVAL_MS) {}

  /** When the next post to `key`'s channel may go; 0 when it is not paced. */
  allowedAtMs(key: string | null): number {
    return key === null ? 0 : (this.#nextMs.get(key) ?? 0);
  }

  /** Counts a post to `key`'s channel that Slack answered at `nowMs`. */
  take(key: string | null, nowMs: number): void {
    if (key === null) return;
    this.#nextMs.set(key, Math.max(nowMs, this.allowedAtMs(key)) + this.intervalMs);
    if (this.#nextMs.size > 10_000) {
      for (const [other, atMs] of this.#nextMs) if (atMs <= nowMs) this.#nextMs.delete(other);
    }
  }
}
