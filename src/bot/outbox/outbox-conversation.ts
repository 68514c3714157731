import type { OutboxRoute } from "../../store/outbox-store.ts";
import { afterOf, paceKeyOf } from "./outbox-pacing.ts";

/** A conversation's oldest pending item: only it may be sent now. */
export interface ConversationHead {
  id: number;
  notBeforeMs: number;
  conversation: string;
  /** The channel whose post rate it counts against (see `paceKeyOf`). */
  paceKey: string | null;
  /** A conversation that must be empty before this one goes on (see `afterOf`). */
  after: string | null;
}

interface Known {
  conversation: string;
  paceKey: string | null;
  after: string | null;
}

/**
 * The conversation an outbox item belongs to; order is kept within one, never across them.
 * - An alert's post, its updates and its thread replies: `alert:<id>` (an update or a reply needs
 *   the post's ts, and Slack shows the replies in the order they were sent).
 * - A reply in a thread known by its ts: `thread:<channel>/<ts>`.
 * - Anything else to a channel or a person's DM: `channel:<id>`; a Home tab: `home:<user>`.
 */
export function conversationOf(route: OutboxRoute): string {
  const alertId = route.alertId ?? route.placeholderAlertId;
  if (alertId !== null) return `alert:${alertId}`;
  if (route.method === "views.publish" && route.user !== null) return `home:${route.user}`;
  if (route.channel !== null) {
    return route.threadTs === null ? `channel:${route.channel}` : `thread:${route.channel}/${route.threadTs}`;
  }
  return `method:${route.method}`;
}

/**
 * Remembers each pending item's conversation (it never changes), so the worker finds the heads of
 * the conversations from ids alone: the arguments of an item are read once, not at every step.
 */
export class ConversationIndex {
  readonly #conversations = new Map<number, Known>();

  /**
   * The oldest item of each conversation, oldest first: only these may be sent now. A later item of
   * a conversation waits for its head (sent or set aside), whatever happens elsewhere. Lazy: a caller
   * that stops at the first head it can send (the outbox's usual step) reads no further, so a backlog
   * of n items costs each step what it reads, not n.
   */
  *heads(
    schedule: Iterable<{ id: number; notBeforeMs: number }>,
    routesFrom: (minId: number) => OutboxRoute[],
  ): Generator<ConversationHead> {
    const seen = new Set<string>();
    const pending: number[] = [];
    for (const item of schedule) {
      if (pending.length === 0) this.#forgetBefore(item.id);
      pending.push(item.id);
      if (!this.#conversations.has(item.id)) this.#learnFrom(routesFrom(item.id));
      const known = this.#conversations.get(item.id);
      // NOTE: cannot happen (both reads are synchronous); were it to, nothing after it may overtake it.
      if (known === undefined) return;
      if (seen.has(known.conversation)) continue;
      seen.add(known.conversation);
      if (known.after !== null && seen.has(known.after)) continue;
      yield { ...item, ...known };
    }
    // NOTE: read to its end, the schedule names every pending item: those sent after an older one
    // that is still pending (one waiting on its channel's pace or a retry) are forgotten here.
    if (this.#conversations.size > pending.length) this.#forgetAllBut(new Set(pending));
  }

  #forgetAllBut(pending: ReadonlySet<number>): void {
    for (const id of this.#conversations.keys()) if (!pending.has(id)) this.#conversations.delete(id);
  }

  #learnFrom(routes: readonly OutboxRoute[]): void {
    for (const route of routes)
      this.#conversations.set(route.id, {
        conversation: conversationOf(route),
        paceKey: paceKeyOf(route),
        after: afterOf(route),
      });
  }

  /**
   * Forgets the items older than the oldest pending one (`minId`): sent, set aside or superseded.
   * Ids are learnt in rising order, so the oldest come first in the map.
   */
  #forgetBefore(minId: number): void {
    for (const id of this.#conversations.keys()) {
      if (id >= minId) break;
      this.#conversations.delete(id);
    }
  }
}
