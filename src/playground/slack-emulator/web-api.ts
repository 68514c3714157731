import type { EmulatorIdentity } from "./emulator-identity.ts";
import type { EmulatedChannel, EmulatorState, StoredMessage, StoredView } from "./emulator-state.ts";
import { historyPage } from "./history-page.ts";
import { isObject, type JsonObject, objectList, stringField } from "./json.ts";
import {
  checkMessageContent,
  MAX_EDIT_TEXT_CHARS,
  normalizeBlocks,
  platformError,
} from "./message-content.ts";
import { channelObject, fileObject, messageObject, userObject, viewObject } from "./slack-objects.ts";
import { viewProblems } from "./validate-blocks.ts";

export interface WebApiContext {
  state: EmulatorState;
  identity: EmulatorIdentity;
  /** `http://127.0.0.1:<port>`: upload URLs and permalinks point here. */
  baseUrl: string;
  /** A fresh Socket Mode URL with a one-use ticket. */
  issueSocketUrl: () => string;
  blocksTextLimitChars: number;
  /** Largest view Slack takes (`view_too_large` beyond), bytes of JSON. */
  maxViewBytes: number;
}

type Method = (ctx: WebApiContext, args: JsonObject) => JsonObject;

const APP_TOKEN_METHODS = new Set(["apps.connections.open"]);

/** Web API methods the emulator implements. */
export const METHODS: Readonly<Record<string, Method>> = {
  "auth.test": authTest,
  "apps.connections.open": (ctx) => ({ ok: true, url: ctx.issueSocketUrl() }),
  "chat.postMessage": postMessage,
  "chat.update": updateMessage,
  "chat.postEphemeral": postEphemeral,
  "chat.delete": deleteMessage,
  "chat.getPermalink": getPermalink,
  "conversations.open": openConversation,
  "conversations.info": conversationInfo,
  "conversations.join": joinConversation,
  "conversations.history": conversationHistory,
  "conversations.replies": conversationReplies,
  "users.info": userInfo,
  "views.publish": publishView,
  "views.open": (ctx, args) => openModal(ctx, args, "open"),
  "views.push": (ctx, args) => openModal(ctx, args, "push"),
  "views.update": updateView,
  "files.getUploadURLExternal": getUploadUrl,
  "files.completeUploadExternal": completeUpload,
  "reactions.add": addReaction,
};

/**
 * Answers one Web API call the way Slack would (the HTTP layer already parsed the body and
 * decoded JSON-valued arguments). Always a body for HTTP 200: `{ok:true,…}` or `{ok:false,error}`.
 */
export function callWebApi(
  ctx: WebApiContext,
  method: string,
  args: JsonObject,
  token: string | undefined,
): JsonObject {
  const handler = METHODS[method];
  if (handler === undefined) return platformError("unknown_method", { req_method: method });
  if (token === undefined || token === "") return platformError("not_authed");
  const wantsAppToken = APP_TOKEN_METHODS.has(method);
  const { botToken, appToken } = ctx.identity;
  if (token !== botToken && token !== appToken) return platformError("invalid_auth");
  if ((token === appToken) !== wantsAppToken) return platformError("not_allowed_token_type");
  return handler(ctx, args);
}

function authTest(ctx: WebApiContext): JsonObject {
  const { identity } = ctx;
  return {
    ok: true,
    url: `https://${identity.teamDomain}.slack.com/`,
    team: identity.teamDomain,
    user: identity.botName,
    team_id: identity.teamId,
    user_id: identity.botUserId,
    bot_id: identity.botId,
    is_enterprise_install: false,
  };
}

/** A channel id, or a user id (Slack posts to the app's DM with that user). */
function resolveChannel(ctx: WebApiContext, id: unknown): EmulatedChannel | undefined {
  if (typeof id !== "string") return undefined;
  const channel = ctx.state.channels.get(id);
  if (channel !== undefined) return channel;
  return isUserId(id) ? ctx.state.dmChannel(ctx.state.user(id).id) : undefined;
}

function isUserId(id: string): boolean {
  return /^[UW][A-Z0-9]+$/.test(id);
}

function writableChannel(ctx: WebApiContext, id: unknown): EmulatedChannel | JsonObject {
  const channel = resolveChannel(ctx, id);
  if (channel === undefined) return platformError("channel_not_found");
  if (channel.archived) return platformError("is_archived");
  if (!channel.botIsMember) return platformError("not_in_channel");
  return channel;
}

function isChannel(value: EmulatedChannel | JsonObject): value is EmulatedChannel {
  return !("ok" in value);
}

function replyCount(ctx: WebApiContext, message: StoredMessage): number {
  return ctx.state.messages.filter(
    (m) => m.channel === message.channel && m.threadTs === message.ts && m.ts !== message.ts && !m.deleted,
  ).length;
}

/**
 * NOTE: `chat.postMessage` also takes a channel's name (`#gpu`); `chat.update` and the
 * conversations.* methods take only IDs.
 */
function channelIdByName(ctx: WebApiContext, channel: unknown): unknown {
  if (typeof channel !== "string" || !channel.startsWith("#")) return channel;
  const name = channel.slice(1);
  return [...ctx.state.channels.values()].find((c) => c.name === name && c.kind !== "im")?.id ?? channel;
}

function postMessage(ctx: WebApiContext, args: JsonObject): JsonObject {
  const channel = writableChannel(ctx, channelIdByName(ctx, args.channel));
  if (!isChannel(channel)) return channel;
  const check = checkMessageContent(args, {
    maxTextChars: undefined,
    blocksTextLimitChars: ctx.blocksTextLimitChars,
  });
  if (!check.ok) return check.body;
  const badMetadata = metadataProblem(args.metadata);
  if (badMetadata !== undefined) return badMetadata;
  const { state, identity } = ctx;
  const threadTs = stringField(args, "thread_ts");
  const message = state.addMessage({
    channel: channel.id,
    user: identity.botUserId,
    botId: identity.botId,
    text: check.content.text ?? "",
    blocks: normalizeBlocks(check.content.blocks ?? [], () => state.nextId("b")),
    attachments: check.content.attachments ?? [],
    metadata: isObject(args.metadata) ? args.metadata : undefined,
    threadTs:
      threadTs === undefined || state.findMessage(channel.id, threadTs) === undefined ? undefined : threadTs,
    replyBroadcast: args.reply_broadcast === "true" || args.reply_broadcast === true,
    via: "chat.postMessage",
  });
  return { ok: true, channel: channel.id, ts: message.ts, message: messageObject(message, identity) };
}

function ownMessage(ctx: WebApiContext, args: JsonObject, refusal: string): StoredMessage | JsonObject {
  const channel = resolveChannel(ctx, args.channel);
  if (channel === undefined) return platformError("channel_not_found");
  const ts = stringField(args, "ts") ?? stringField(args, "timestamp");
  const message = ts === undefined ? undefined : ctx.state.findMessage(channel.id, ts);
  if (message === undefined || message.deleted) return platformError("message_not_found");
  if (message.user !== ctx.identity.botUserId) return platformError(refusal);
  return message;
}

function isMessage(value: StoredMessage | JsonObject): value is StoredMessage {
  return !("ok" in value);
}

function updateMessage(ctx: WebApiContext, args: JsonObject): JsonObject {
  const message = ownMessage(ctx, args, "cant_update_message");
  if (!isMessage(message)) return message;
  const check = checkMessageContent(args, {
    maxTextChars: MAX_EDIT_TEXT_CHARS,
    blocksTextLimitChars: ctx.blocksTextLimitChars,
  });
  if (!check.ok) return check.body;
  const { text, blocks, attachments } = check.content;
  const { state, identity } = ctx;
  // NOTE: Slack drops the existing blocks when `text` comes without `blocks`.
  const nextBlocks = blocks ?? (text === undefined ? message.blocks : []);
  state.edit(
    message,
    text ?? message.text,
    normalizeBlocks(nextBlocks, () => state.nextId("b")),
  );
  if (attachments !== undefined) message.attachments = attachments;
  return {
    ok: true,
    channel: message.channel,
    ts: message.ts,
    text: message.text,
    message: messageObject(message, identity, replyCount(ctx, message)),
  };
}

function postEphemeral(ctx: WebApiContext, args: JsonObject): JsonObject {
  const channel = writableChannel(ctx, args.channel);
  if (!isChannel(channel)) return channel;
  const userId = stringField(args, "user");
  if (userId === undefined || !isUserId(userId)) return platformError("user_not_found");
  ctx.state.user(userId);
  if (!ctx.state.isMember(channel, userId)) return platformError("user_not_in_channel");
  const check = checkMessageContent(args, {
    maxTextChars: MAX_EDIT_TEXT_CHARS,
    blocksTextLimitChars: ctx.blocksTextLimitChars,
  });
  if (!check.ok) return check.body;
  const ephemeral = ctx.state.addEphemeral({
    user: userId,
    channel: channel.id,
    threadTs: stringField(args, "thread_ts"),
    text: check.content.text ?? "",
    blocks: normalizeBlocks(check.content.blocks ?? [], () => ctx.state.nextId("b")),
    via: "chat.postEphemeral",
  });
  return { ok: true, message_ts: ephemeral.ts };
}

function deleteMessage(ctx: WebApiContext, args: JsonObject): JsonObject {
  const message = ownMessage(ctx, args, "cant_delete_message");
  if (!isMessage(message)) return message;
  message.deleted = true;
  return { ok: true, channel: message.channel, ts: message.ts };
}

function getPermalink(ctx: WebApiContext, args: JsonObject): JsonObject {
  const channel = resolveChannel(ctx, args.channel);
  if (channel === undefined) return platformError("channel_not_found");
  const ts = stringField(args, "message_ts");
  if (ts === undefined || ctx.state.findMessage(channel.id, ts) === undefined)
    return platformError("message_not_found");
  return {
    ok: true,
    channel: channel.id,
    permalink: `https://${ctx.identity.teamDomain}.slack.com/archives/${channel.id}/p${ts.replace(".", "")}`,
  };
}

function openConversation(ctx: WebApiContext, args: JsonObject): JsonObject {
  const users = (stringField(args, "users") ?? "").split(",").filter((u) => u !== "");
  if (users.length === 0) return platformError("users_list_not_supplied");
  if (users.length > 8) return platformError("too_many_users");
  if (users.length > 1) return platformError("method_not_supported_for_channel_type");
  const userId = users[0] ?? "";
  if (!isUserId(userId)) return platformError("user_not_found");
  const user = ctx.state.user(userId);
  if (user.deleted) return platformError("user_disabled");
  const channel = ctx.state.dmChannel(user.id);
  const full = args.return_im === "true" || args.return_im === true;
  return { ok: true, channel: full ? channelObject(channel, createdS(ctx)) : { id: channel.id } };
}

function createdS(ctx: WebApiContext): number {
  return Math.floor(ctx.state.nowMs() / 1000);
}

function conversationInfo(ctx: WebApiContext, args: JsonObject): JsonObject {
  const id = stringField(args, "channel");
  const channel = id === undefined ? undefined : ctx.state.channels.get(id);
  if (channel === undefined) return platformError("channel_not_found");
  return { ok: true, channel: channelObject(channel, createdS(ctx)) };
}

function joinConversation(ctx: WebApiContext, args: JsonObject): JsonObject {
  const id = stringField(args, "channel");
  const channel = id === undefined ? undefined : ctx.state.channels.get(id);
  if (channel === undefined) return platformError("channel_not_found");
  if (channel.kind !== "public") return platformError("method_not_supported_for_channel_type");
  if (channel.archived) return platformError("is_archived");
  const alreadyIn = channel.botIsMember;
  channel.botIsMember = true;
  const body: JsonObject = { ok: true, channel: channelObject(channel, createdS(ctx)) };
  if (alreadyIn) body.warning = "already_in_channel";
  return body;
}

function readableChannel(ctx: WebApiContext, args: JsonObject): EmulatedChannel | JsonObject {
  const id = stringField(args, "channel");
  const channel = id === undefined ? undefined : ctx.state.channels.get(id);
  if (channel === undefined) return platformError("channel_not_found");
  if (!channel.botIsMember) return platformError("not_in_channel");
  return channel;
}

function conversationHistory(ctx: WebApiContext, args: JsonObject): JsonObject {
  const channel = readableChannel(ctx, args);
  if (!isChannel(channel)) return channel;
  const newestFirst = ctx.state.messages
    .filter((m) => m.channel === channel.id && !m.deleted && (m.threadTs === undefined || m.replyBroadcast))
    .reverse();
  const page = historyPage(newestFirst, args, { defaultLimit: 100, maxLimit: 999 });
  if (!page.ok) return page.body;
  const messages = page.messages.map((m) => shownMessage(ctx, m, replyCount(ctx, m), page.withMetadata));
  return pageAnswer(messages, page.nextCursor);
}

function conversationReplies(ctx: WebApiContext, args: JsonObject): JsonObject {
  const channel = readableChannel(ctx, args);
  if (!isChannel(channel)) return channel;
  const ts = stringField(args, "ts");
  const parent = ts === undefined ? undefined : ctx.state.findMessage(channel.id, ts);
  if (parent === undefined || parent.deleted) return platformError("thread_not_found");
  const replies = ctx.state.messages.filter(
    (m) => m.channel === channel.id && m.threadTs === parent.ts && m.ts !== parent.ts && !m.deleted,
  );
  const page = historyPage([parent, ...replies], args, { defaultLimit: 1000, maxLimit: 1000 });
  if (!page.ok) return page.body;
  const messages = page.messages.map((m) =>
    shownMessage(ctx, m, m === parent ? replies.length : 0, page.withMetadata),
  );
  return pageAnswer(messages, page.nextCursor);
}

/**
 * A message as history shows it: its metadata only when `include_all_metadata` asked for it, the
 * files it shares in full (`name`, `title`, …).
 */
function shownMessage(
  ctx: WebApiContext,
  message: StoredMessage,
  replies: number,
  withMetadata: boolean,
): JsonObject {
  const fileOf = (id: string): JsonObject => {
    const file = ctx.state.files.get(id);
    return file === undefined ? { id } : fileObject(file, ctx.identity, ctx.baseUrl);
  };
  const object = messageObject(message, ctx.identity, replies, fileOf);
  if (!withMetadata) delete object.metadata;
  return object;
}

function pageAnswer(messages: JsonObject[], nextCursor: string | undefined): JsonObject {
  const answer: JsonObject = { ok: true, messages, has_more: nextCursor !== undefined };
  if (nextCursor !== undefined) answer.response_metadata = { next_cursor: nextCursor };
  return answer;
}

/**
 * Slack's checks on `metadata`: a JSON object (else `invalid_metadata_format`) with a string
 * `event_type` and an object `event_payload` (else `invalid_metadata_schema`).
 */
function metadataProblem(metadata: unknown): JsonObject | undefined {
  if (metadata === undefined) return undefined;
  if (!isObject(metadata)) return platformError("invalid_metadata_format");
  if (
    typeof metadata.event_type !== "string" ||
    metadata.event_type === "" ||
    !isObject(metadata.event_payload)
  ) {
    return platformError("invalid_metadata_schema");
  }
  return undefined;
}

function userInfo(ctx: WebApiContext, args: JsonObject): JsonObject {
  const id = stringField(args, "user");
  const user = id === undefined ? undefined : ctx.state.users.get(id);
  if (user === undefined) return platformError("user_not_found");
  const object = userObject(user, ctx.identity, ctx.state.nowMs());
  const withLocale = args.include_locale === true || args.include_locale === "true";
  return { ok: true, user: withLocale ? { ...object, locale: user.locale } : object };
}

function invalidView(ctx: WebApiContext, view: unknown, type: "modal" | "home"): JsonObject | undefined {
  const problems = viewProblems(view, type);
  if (problems.length > 0) {
    return platformError("invalid_arguments", {
      response_metadata: { messages: problems.map((line) => `[ERROR] ${line}`) },
    });
  }
  if (Buffer.byteLength(JSON.stringify(view)) > ctx.maxViewBytes) return platformError("view_too_large");
  return undefined;
}

function newHash(ctx: WebApiContext): string {
  return `${Math.floor(ctx.state.nowMs() / 1000)}.${ctx.state.nextId("h")}`;
}

function storeView(
  ctx: WebApiContext,
  stored: StoredView | undefined,
  fields: Omit<StoredView, "id" | "hash" | "rootViewId" | "previousViewId" | "errors" | "versions">,
  previousViewId?: string,
): StoredView {
  if (stored !== undefined) {
    stored.versions.push(stored.view);
    stored.view = fields.view;
    stored.hash = newHash(ctx);
    stored.errors = undefined;
    return stored;
  }
  const id = ctx.state.nextId("V");
  const created: StoredView = {
    ...fields,
    id,
    hash: newHash(ctx),
    rootViewId: id,
    previousViewId,
    errors: undefined,
    versions: [],
  };
  ctx.state.views.set(id, created);
  return created;
}

function publishView(ctx: WebApiContext, args: JsonObject): JsonObject {
  const userId = stringField(args, "user_id");
  if (userId === undefined || !isUserId(userId)) return platformError("user_not_found");
  const view = args.view;
  const invalid = invalidView(ctx, view, "home");
  if (invalid !== undefined || !isObject(view)) return invalid ?? platformError("invalid_arguments");
  const { state, identity } = ctx;
  state.user(userId);
  const existingId = state.homeViews.get(userId);
  const existing = existingId === undefined ? undefined : state.views.get(existingId);
  const hash = stringField(args, "hash");
  if (hash !== undefined && existing !== undefined && hash !== existing.hash)
    return platformError("hash_conflict");
  const stored = storeView(ctx, existing, { type: "home", user: userId, view });
  state.homeViews.set(userId, stored.id);
  return { ok: true, view: viewObject(stored, identity) };
}

function externalIdTaken(ctx: WebApiContext, view: JsonObject): boolean {
  const externalId = stringField(view, "external_id");
  if (externalId === undefined) return false;
  return [...ctx.state.views.values()].some((v) => v.view.external_id === externalId);
}

function openModal(ctx: WebApiContext, args: JsonObject, how: "open" | "push"): JsonObject {
  const { state, identity } = ctx;
  const triggerId = args.trigger_id;
  const trigger = typeof triggerId === "string" ? state.triggers.get(triggerId) : undefined;
  const triggerError = state.useTrigger(triggerId);
  if (triggerError !== undefined || trigger === undefined)
    return platformError(triggerError ?? "invalid_trigger_id");
  const view = args.view;
  const invalid = invalidView(ctx, view, "modal");
  if (invalid !== undefined || !isObject(view)) return invalid ?? platformError("invalid_arguments");
  if (externalIdTaken(ctx, view)) return platformError("duplicate_external_id");
  const stack = how === "push" ? (state.modalStacks.get(trigger.user) ?? []) : [];
  if (stack.length >= 3) return platformError("push_limit_reached");
  const stored = storeView(ctx, undefined, { type: "modal", user: trigger.user, view }, stack.at(-1));
  const root = stack[0];
  if (root !== undefined) stored.rootViewId = root;
  state.modalStacks.set(trigger.user, [...stack, stored.id]);
  return { ok: true, view: viewObject(stored, identity) };
}

function updateView(ctx: WebApiContext, args: JsonObject): JsonObject {
  const { state, identity } = ctx;
  const viewId = stringField(args, "view_id");
  const externalId = stringField(args, "external_id");
  const stored =
    viewId !== undefined
      ? state.views.get(viewId)
      : [...state.views.values()].find((v) => externalId !== undefined && v.view.external_id === externalId);
  if (stored === undefined) return platformError("not_found");
  const view = args.view;
  const invalid = invalidView(ctx, view, stored.type);
  if (invalid !== undefined || !isObject(view)) return invalid ?? platformError("invalid_arguments");
  const hash = stringField(args, "hash");
  if (hash !== undefined && hash !== stored.hash) return platformError("hash_conflict");
  storeView(ctx, stored, { type: stored.type, user: stored.user, view });
  return { ok: true, view: viewObject(stored, identity) };
}

function getUploadUrl(ctx: WebApiContext, args: JsonObject): JsonObject {
  const filename = stringField(args, "filename");
  const length = Number(args.length);
  if (filename === undefined || filename === "") return platformError("invalid_arguments");
  if (!Number.isInteger(length) || length <= 0) return platformError("invalid_arguments");
  const altText = stringField(args, "alt_text") ?? stringField(args, "alt_txt");
  const id = ctx.state.nextId("F");
  ctx.state.files.set(id, {
    id,
    filename,
    title: undefined,
    declaredLength: length,
    bytes: undefined,
    altText,
    channels: [],
    threadTs: undefined,
    initialComment: undefined,
    completed: false,
  });
  return { ok: true, upload_url: `${ctx.baseUrl}/upload/${id}`, file_id: id };
}

function completeUpload(ctx: WebApiContext, args: JsonObject): JsonObject {
  const { state, identity } = ctx;
  const entries = objectList(args.files);
  if (entries.length === 0) return platformError("invalid_arguments");
  const files = entries.map((entry) => state.files.get(stringField(entry, "id") ?? ""));
  if (files.some((file) => file === undefined || file.bytes === undefined))
    return platformError("file_not_found");
  const channelIds = (stringField(args, "channel_id") ?? stringField(args, "channels") ?? "")
    .split(",")
    .filter((id) => id !== "");
  const channels: EmulatedChannel[] = [];
  for (const id of channelIds) {
    const channel = writableChannel(ctx, id);
    if (!isChannel(channel)) return channel;
    channels.push(channel);
  }
  const threadTs = stringField(args, "thread_ts");
  const initialComment = stringField(args, "initial_comment");
  // NOTE: Slack ignores `blocks` when an `initial_comment` is given; otherwise they are the message.
  let blocks: JsonObject[] = [];
  if (args.blocks !== undefined && initialComment === undefined) {
    const check = checkMessageContent(
      { blocks: args.blocks },
      { maxTextChars: undefined, blocksTextLimitChars: ctx.blocksTextLimitChars },
    );
    if (!check.ok) return check.body;
    blocks = normalizeBlocks(check.content.blocks ?? [], () => state.nextId("b"));
  }
  const done = files.filter((file) => file !== undefined);
  entries.forEach((entry, i) => {
    const file = done[i];
    if (file === undefined) return;
    file.title = stringField(entry, "title") ?? file.filename;
    file.completed = true;
    file.channels = channels.map((c) => c.id);
    file.threadTs = threadTs;
    file.initialComment = initialComment;
  });
  for (const channel of channels) {
    state.addMessage({
      channel: channel.id,
      user: identity.botUserId,
      botId: identity.botId,
      text: initialComment ?? "",
      blocks,
      fileIds: done.map((f) => f.id),
      threadTs,
      via: "files.completeUploadExternal",
    });
  }
  return { ok: true, files: done.map((file) => fileObject(file, identity, ctx.baseUrl)) };
}

function addReaction(ctx: WebApiContext, args: JsonObject): JsonObject {
  const channel = resolveChannel(ctx, args.channel);
  if (channel === undefined) return platformError("channel_not_found");
  const ts = stringField(args, "timestamp");
  const message = ts === undefined ? undefined : ctx.state.findMessage(channel.id, ts);
  if (message === undefined || message.deleted) return platformError("message_not_found");
  const name = stringField(args, "name");
  if (name === undefined || !/^[a-z0-9_+'-]+$/.test(name)) return platformError("invalid_name");
  const users = message.reactions.get(name) ?? new Set<string>();
  if (users.has(ctx.identity.botUserId)) return platformError("already_reacted");
  users.add(ctx.identity.botUserId);
  message.reactions.set(name, users);
  return { ok: true };
}
