import type { OutboxItem } from "../../store/outbox-store.ts";
import type { OutboxContext } from "./outbox-context.ts";
import { cannotLookFor, lookupRefused } from "./outbox-earlier-post.ts";
import { stringArg } from "./outbox-failure.ts";
import {
  conversationId,
  type FoundPost,
  findInConversation,
  type HistoryMessage,
} from "./outbox-recovery.ts";

/**
 * A `files.uploadV2` for this item began before (and was never recorded): the message Slack may have
 * shared its files in, found in the conversation (`channel_id`, the thread `thread_ts`) as the bot's
 * message whose files are named exactly as this item's (`files[].name`, the `filename`s uploaded).
 * A file share carries no metadata; the summary's file names carry its date, and the bot is
 * named by `auth.test`. `undefined` when it is not there or cannot be looked for (no channel ID, a
 * file without a name, a refused look-up: then a warning says it may appear twice).
 *
 * NOTE: Slack shares the files a moment after `files.completeUploadExternal` answers. The look-up
 * comes after a restart or a back-off, both longer than that.
 */
export async function findEarlierUpload(
  ctx: Pick<OutboxContext, "client" | "log" | "botName">,
  item: OutboxItem,
  args: Record<string, unknown>,
  sinceMs: number,
): Promise<FoundPost | undefined> {
  const channel = conversationId(args.channel_id);
  const names = uploadedNames(args);
  const context = { outboxId: item.id, alertId: item.alertId, channel: args.channel_id };
  if (channel === undefined || names === undefined) return cannotLookFor(ctx, context);
  try {
    const me = await ctx.client.auth.test();
    const byBot = (message: HistoryMessage) =>
      (me.user_id !== undefined && message.user === me.user_id) ||
      (me.bot_id !== undefined && message.bot_id === me.bot_id);
    const threadTs = stringArg(args.thread_ts);
    return await findInConversation(
      ctx.client,
      { channel, threadTs, sinceMs },
      (message) => byBot(message) && sameNames(message.files, names),
    );
  } catch (error) {
    return lookupRefused(ctx, context, channel, error);
  }
}

/** The names of the files an upload shares, sorted; `undefined` when one has no `filename`. */
function uploadedNames(args: Record<string, unknown>): string[] | undefined {
  const uploads = Array.isArray(args.file_uploads) ? (args.file_uploads as unknown[]) : [args];
  const names = uploads.map((upload) => stringArg((upload as { filename?: unknown } | null)?.filename));
  if (names.length === 0 || names.some((name) => name === undefined)) return undefined;
  return (names as string[]).sort();
}

function sameNames(files: HistoryMessage["files"], names: readonly string[]): boolean {
  const shared = (files ?? []).map((file) => file.name ?? "").sort();
  return shared.length === names.length && shared.every((name, i) => name === names[i]);
}
