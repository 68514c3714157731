import type { webApi } from "@slack/bolt";

/** The `metadata.event_type` of every message the outbox posts; its payload names the outbox item. */
export const OUTBOX_EVENT_TYPE = "gpu_warden_outbox_item";

/** How far before the recorded start of a call a message that call posted is looked for (clock skew). */
const LOOK_BEFORE_MS = 10 * 60_000;
/**
 * Messages read per page, and pages read at most, when looking for a post after a crash.
 *
 * NOTE: since 2025 Slack gives commercially distributed apps outside its Marketplace far smaller
 * history pages and fewer calls per minute; internal apps (gpu-warden's case) keep Tier 3. Smaller
 * pages only mean more of them (`has_more`); a 429 is retried by the worker like any other.
 */
const PAGE_SIZE = 200;
const MAX_PAGES = 5;

/**
 * `chat.postMessage` arguments carrying the item's id in the message's metadata, so that a post
 * whose answer was lost (a crash between Slack's answer and our record, a timeout) can be found.
 * Arguments that already carry metadata are left as they are.
 */
export function withOutboxMetadata(
  args: Record<string, unknown>,
  item: { id: number; createdAtMs: number },
): Record<string, unknown> {
  if (args.metadata !== undefined) return args;
  const payload = { outbox_id: item.id, created_ms: item.createdAtMs };
  return { ...args, metadata: { event_type: OUTBOX_EVENT_TYPE, event_payload: payload } };
}

/** The conversation ID to read for a post to `channel`; `undefined` for a user ID or a `#name`. */
export function conversationId(channel: unknown): string | undefined {
  return typeof channel === "string" && /^[CGD][A-Z0-9]+$/.test(channel) ? channel : undefined;
}

export interface FoundPost {
  channel: string;
  ts: string;
}

/**
 * Looks in the conversation for the message an earlier, unrecorded `chat.postMessage` of outbox item
 * `item` posted: `conversations.replies` for a thread reply, else `conversations.history`, from a
 * little before `sinceMs` on, with the messages' metadata. Slack errors are thrown as the client
 * throws them.
 */
export async function findOutboxPost(
  client: webApi.WebClient,
  target: {
    channel: string;
    threadTs: string | undefined;
    item: { id: number; createdAtMs: number };
    sinceMs: number;
  },
): Promise<FoundPost | undefined> {
  return findInConversation(client, target, (message) => carriesItem(message.metadata, target.item));
}

/** A message as `conversations.history` and `conversations.replies` show it. */
export type HistoryMessage = NonNullable<webApi.ConversationsHistoryResponse["messages"]>[number];

/**
 * The first message in the conversation (the thread `threadTs`, else the channel), from a little
 * before `sinceMs` on, newest first, that `matches`; a few pages at most. Slack errors are thrown.
 */
export async function findInConversation(
  client: webApi.WebClient,
  target: { channel: string; threadTs: string | undefined; sinceMs: number },
  matches: (message: HistoryMessage) => boolean,
): Promise<FoundPost | undefined> {
  const window = {
    channel: target.channel,
    oldest: slackTs(target.sinceMs - LOOK_BEFORE_MS),
    include_all_metadata: true,
    limit: PAGE_SIZE,
  };
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const paging = cursor === undefined ? {} : { cursor };
    const answer =
      target.threadTs === undefined
        ? await client.conversations.history({ ...window, ...paging })
        : await client.conversations.replies({ ...window, ...paging, ts: target.threadTs });
    const match = (answer.messages as HistoryMessage[] | undefined)?.find(matches);
    if (match?.ts !== undefined) return { channel: target.channel, ts: match.ts };
    cursor = answer.response_metadata?.next_cursor || undefined;
    if (answer.has_more !== true || cursor === undefined) return undefined;
  }
  return undefined;
}

/** The item's id and creation time: ids alone repeat when a store is replaced by a new one. */
function carriesItem(metadata: unknown, item: { id: number; createdAtMs: number }): boolean {
  const { event_type: type, event_payload: payload } = (metadata ?? {}) as {
    event_type?: unknown;
    event_payload?: { outbox_id?: unknown; created_ms?: unknown };
  };
  return (
    type === OUTBOX_EVENT_TYPE && payload?.outbox_id === item.id && payload.created_ms === item.createdAtMs
  );
}

function slackTs(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(6);
}
