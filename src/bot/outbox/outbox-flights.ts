import type { ConversationHead } from "./outbox-conversation.ts";
import type { ChannelPacer } from "./outbox-pacing.ts";

/**
 * The outbox's calls in flight: at most one per conversation, one post at a time per channel, and
 * each channel's pace counted from Slack's answer to the posts it accepted: counted from their start,
 * a post slow to arrive and the next ones on time put four posts in Slack's three-second window.
 */
export class OutboxFlights {
  readonly #byConversation = new Map<string, Promise<void>>();
  readonly #postingTo = new Set<string>();

  constructor(readonly pacer: ChannelPacer) {}

  get size(): number {
    return this.#byConversation.size;
  }

  /** Conversations with a call in flight and channels with a post in flight (their pace keys). */
  busy(): Set<string> {
    return new Set([...this.#byConversation.keys(), ...this.#postingTo]);
  }

  /**
   * Runs `deliver` (which says whether Slack accepted a post) for `head`'s conversation; `done` runs
   * after it, whatever happened. `nowMs` reads the clock when Slack has answered.
   */
  launch(
    head: ConversationHead,
    nowMs: () => number,
    deliver: () => Promise<boolean>,
    done: () => void,
  ): void {
    const { paceKey, conversation } = head;
    if (paceKey !== null) this.#postingTo.add(paceKey);
    const flight = deliver()
      .then((posted) => {
        if (posted) this.pacer.take(paceKey, nowMs());
      })
      .finally(() => {
        this.#byConversation.delete(conversation);
        if (paceKey !== null) this.#postingTo.delete(paceKey);
        done();
      });
    this.#byConversation.set(conversation, flight);
  }

  /** Resolves once every call in flight has finished. */
  async settled(): Promise<void> {
    await Promise.all(this.#byConversation.values());
  }
}
