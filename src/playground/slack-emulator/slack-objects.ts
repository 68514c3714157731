import { dayjs } from "../../shared/time.ts";
import type { EmulatorIdentity } from "./emulator-identity.ts";
import type {
  EmulatedChannel,
  EmulatedUser,
  StoredFile,
  StoredMessage,
  StoredView,
} from "./emulator-state.ts";
import type { JsonObject } from "./json.ts";

/**
 * A message the way the Web API and payloads show it. A file share shows its files as `fileOf`
 * gives them (history and replies: the whole file object, `name`, `title`…); by default by ID only.
 */
export function messageObject(
  message: StoredMessage,
  identity: EmulatorIdentity,
  replyCount = 0,
  fileOf: (id: string) => JsonObject = (id) => ({ id }),
): JsonObject {
  const object: JsonObject = {
    type: "message",
    text: message.text,
    user: message.user,
    ts: message.ts,
    team: identity.teamId,
    blocks: message.blocks,
  };
  if (message.botId !== undefined) {
    object.bot_id = message.botId;
    object.app_id = identity.appId;
  }
  if (message.threadTs !== undefined) object.thread_ts = message.threadTs;
  if (replyCount > 0) object.reply_count = replyCount;
  if (message.attachments.length > 0) object.attachments = message.attachments;
  if (message.metadata !== undefined) object.metadata = message.metadata;
  if (message.fileIds.length > 0) {
    object.files = message.fileIds.map(fileOf);
    object.upload = true;
    object.display_as_bot = false;
  }
  const lastEdit = message.edits.at(-1);
  if (lastEdit !== undefined) object.edited = { user: message.user, ts: lastEdit.replacedAtTs };
  if (message.reactions.size > 0) {
    object.reactions = [...message.reactions].map(([name, users]) => ({
      name,
      users: [...users],
      count: users.size,
    }));
  }
  return object;
}

/** A view the way `views.*` answer and interaction payloads carry it. */
export function viewObject(
  stored: StoredView,
  identity: EmulatorIdentity,
  stateValues: JsonObject = {},
): JsonObject {
  const view = stored.view;
  return {
    id: stored.id,
    team_id: identity.teamId,
    type: stored.type,
    blocks: view.blocks ?? [],
    private_metadata: view.private_metadata ?? "",
    callback_id: view.callback_id ?? "",
    state: { values: stateValues },
    hash: stored.hash,
    title: view.title ?? null,
    clear_on_close: view.clear_on_close ?? false,
    notify_on_close: view.notify_on_close ?? false,
    close: view.close ?? null,
    submit: view.submit ?? null,
    previous_view_id: stored.previousViewId ?? null,
    root_view_id: stored.rootViewId,
    app_id: identity.appId,
    external_id: view.external_id ?? "",
    app_installed_team_id: identity.teamId,
    bot_id: identity.botId,
  };
}

/** `users.info`'s `user`, with `tz`, `tz_label` and `tz_offset` (seconds) at `nowMs`. */
export function userObject(user: EmulatedUser, identity: EmulatorIdentity, nowMs: number): JsonObject {
  const offsetS = dayjs(nowMs).tz(user.tz).utcOffset() * 60;
  return {
    id: user.id,
    team_id: identity.teamId,
    name: user.name,
    deleted: user.deleted,
    real_name: user.realName,
    tz: user.tz,
    tz_label: user.tz,
    tz_offset: offsetS,
    is_admin: user.isAdmin,
    is_owner: false,
    is_bot: user.isBot,
    is_app_user: false,
    profile: { real_name: user.realName, display_name: user.name, team: identity.teamId },
  };
}

export function channelObject(channel: EmulatedChannel, createdS: number): JsonObject {
  const object: JsonObject = {
    id: channel.id,
    created: createdS,
    is_archived: channel.archived,
    is_im: channel.kind === "im",
    is_member: channel.botIsMember,
  };
  if (channel.kind === "im") return { ...object, user: channel.imUser, is_open: true };
  return {
    ...object,
    name: channel.name,
    is_channel: channel.kind === "public",
    is_group: false,
    is_private: channel.kind === "private",
    is_mpim: false,
  };
}

export function fileObject(file: StoredFile, identity: EmulatorIdentity, baseUrl: string): JsonObject {
  return {
    id: file.id,
    name: file.filename,
    title: file.title ?? file.filename,
    size: file.bytes?.length ?? 0,
    user: identity.botUserId,
    url_private: `${baseUrl}/files/${file.id}/${encodeURIComponent(file.filename)}`,
    channels: file.channels,
  };
}
