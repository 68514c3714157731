import type { OutboxRoute } from "../store/outbox-store.ts";

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
 * The oldest item of each conversation, oldest first: only these may be sent now. A later item of
 * a conversation waits for its head (sent or set aside), whatever happens elsewhere.
 */
export function conversationHeads(routes: readonly OutboxRoute[]): OutboxRoute[] {
  const seen = new Set<string>();
  const heads: OutboxRoute[] = [];
  for (const route of routes) {
    const conversation = conversationOf(route);
    if (seen.has(conversation)) continue;
    seen.add(conversation);
    heads.push(route);
  }
  return heads;
}
