import type { OutboxItem } from "../../store/outbox-store.ts";
import { classifySlackFailure } from "../transport/classify-slack-failure.ts";
import { missingScope, slackErrorHint } from "../transport/slack-error-hint.ts";
import type { OutboxContext } from "./outbox-context.ts";
import { stringArg } from "./outbox-failure.ts";
import { type FoundPost, findOutboxPost } from "./outbox-recovery.ts";

/**
 * A call for this item began before (and was never recorded): the message Slack may have posted
 * then, found by its metadata; `undefined` when it is not there or cannot be looked for. A post to
 * a user ID is looked for in the app's DM with them (opened with `conversations.open`).
 */
export async function findEarlierPost(
  ctx: Pick<OutboxContext, "client" | "log" | "botName" | "channelIds">,
  item: OutboxItem,
  args: Record<string, unknown>,
  sinceMs: number,
): Promise<FoundPost | undefined> {
  const userId = dmUser(args.channel);
  const known = ctx.channelIds.idOf(args.channel);
  const context = { outboxId: item.id, alertId: item.alertId, channel: args.channel };
  if (known === undefined && userId === undefined) return cannotLookFor(ctx, context);
  let channel = known;
  try {
    channel ??= await openDm(ctx.client, userId!);
    const threadTs = stringArg(args.thread_ts);
    return await findOutboxPost(ctx.client, { channel, threadTs, item, sinceMs });
  } catch (error) {
    return lookupRefused(ctx, context, channel, error);
  }
}

/** The warning for an item in flight whose conversation is unknown: it is sent again, maybe twice. */
export function cannotLookFor(ctx: Pick<OutboxContext, "log">, context: Record<string, unknown>): undefined {
  ctx.log.warn(
    context,
    "a post may have reached Slack before a restart; it cannot be looked for, so it may appear twice",
  );
  return undefined;
}

/**
 * After a failed look-up: a refusal Slack will repeat (a missing scope, not in the channel) is
 * logged with its hint and the item sent again; anything else is thrown (the worker retries).
 */
export function lookupRefused(
  ctx: Pick<OutboxContext, "log" | "botName">,
  context: Record<string, unknown>,
  channel: string | undefined,
  error: unknown,
): undefined {
  const failure = classifySlackFailure(error);
  if (failure.kind !== "permanent") throw error;
  const hint = slackErrorHint(failure.code, { botName: ctx.botName, channel, needed: missingScope(error) });
  ctx.log.warn(
    { ...context, slackError: failure.code, hint },
    `could not look for a post that may have reached Slack before a restart (${failure.code}); posting it, so it may appear twice`,
  );
  return undefined;
}

/** The user a `chat.postMessage` to a user ID goes to (Slack posts it in the app's DM with them). */
function dmUser(channel: unknown): string | undefined {
  return typeof channel === "string" && /^[UW][A-Z0-9]+$/.test(channel) ? channel : undefined;
}

/** The ID of the app's DM with `user` (`conversations.open`, `im:write`), to read its history. */
async function openDm(client: OutboxContext["client"], user: string): Promise<string> {
  const answer = await client.conversations.open({ users: user });
  const id = answer.channel?.id;
  if (id === undefined) throw new Error(`conversations.open answered no channel for ${user}`);
  return id;
}
