import type { EmulatorIdentity } from "./emulator-identity.ts";
import type { EmulatorState, MessageSource, ResponseTarget } from "./emulator-state.ts";
import { isObject, type JsonObject, stringField } from "./json.ts";
import { checkMessageContent, normalizeBlocks, platformError } from "./message-content.ts";

export interface ResponseContext {
  state: EmulatorState;
  identity: EmulatorIdentity;
  blocksTextLimitChars: number;
}

/** Where a reply lands: the user who acted, the conversation, and the message it may replace. */
export interface ResponseScope {
  user: string;
  channel: string;
  target: ResponseTarget;
}

function flag(value: unknown): boolean {
  return value === true || value === "true";
}

/**
 * Applies a message reply (a `response_url` POST or a slash command's ack body) the way Slack
 * shows it: `delete_original`, `replace_original`, `response_type: "in_channel"`, else a new
 * ephemeral message for the user. Returns the HTTP status and body a `response_url` answers.
 */
export function applyResponse(
  ctx: ResponseContext,
  scope: ResponseScope,
  body: unknown,
  via: MessageSource,
): { status: number; body: JsonObject } {
  const { state, identity } = ctx;
  if (!isObject(body)) return { status: 400, body: platformError("invalid_payload") };
  const target = scope.target;
  const original =
    target.kind === "message"
      ? state.findMessage(target.channel, target.ts)
      : target.kind === "ephemeral"
        ? state.findEphemeral(target.ts)
        : undefined;
  if (flag(body.delete_original)) {
    if (original === undefined || original.deleted)
      return { status: 404, body: platformError("message_not_found") };
    original.deleted = true;
    return { status: 200, body: { ok: true } };
  }
  const check = checkMessageContent(body, {
    maxTextChars: undefined,
    blocksTextLimitChars: ctx.blocksTextLimitChars,
  });
  if (!check.ok) return { status: 400, body: check.body };
  const text = check.content.text ?? "";
  const blocks = normalizeBlocks(check.content.blocks ?? [], () => state.nextId("b"));
  if (flag(body.replace_original) && original !== undefined) {
    if (original.deleted) return { status: 404, body: platformError("message_not_found") };
    state.edit(original, text, blocks);
    return { status: 200, body: { ok: true } };
  }
  const threadTs = stringField(body, "thread_ts");
  if (body.response_type === "in_channel") {
    state.addMessage({
      channel: scope.channel,
      user: identity.botUserId,
      botId: identity.botId,
      text,
      blocks,
      threadTs,
      via,
    });
  } else {
    state.addEphemeral({ user: scope.user, channel: scope.channel, threadTs, text, blocks, via });
  }
  return { status: 200, body: { ok: true } };
}
