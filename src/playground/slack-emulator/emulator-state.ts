import type { Clock } from "../../shared/clock.ts";
import type { JsonObject } from "./json.ts";

/** A workspace member as `users.info` describes them. */
export interface EmulatedUser {
  id: string;
  name: string;
  realName: string;
  /** IANA zone, e.g. `Europe/Berlin`. */
  tz: string;
  isBot: boolean;
  isAdmin: boolean;
  deleted: boolean;
  /** Slack locale (`en-US`, `zh-CN`), returned by `users.info` with `include_locale`. */
  locale: string;
}

export type ChannelKind = "public" | "private" | "im";

export interface EmulatedChannel {
  id: string;
  name: string;
  kind: ChannelKind;
  /** The human on the other side of a DM (`kind === "im"`). */
  imUser: string | undefined;
  botIsMember: boolean;
  /** Human members; `undefined` means every workspace member. */
  members: Set<string> | undefined;
  archived: boolean;
}

/** How a message got into a conversation. */
export type MessageSource =
  | "chat.postMessage"
  | "chat.postEphemeral"
  | "response_url"
  | "ack"
  | "files.completeUploadExternal"
  | "slack";

/** One earlier version of a message, kept when it was edited. */
export interface MessageVersion {
  text: string;
  blocks: JsonObject[];
  /** The ts of the edit that replaced this version (`edited.ts` in Slack). */
  replacedAtTs: string;
}

/** A message in a channel or DM, as the people in it see it (latest version) plus its history. */
export interface StoredMessage {
  channel: string;
  ts: string;
  threadTs: string | undefined;
  /** Author: the bot user id for everything the app sends. */
  user: string;
  botId: string | undefined;
  text: string;
  blocks: JsonObject[];
  attachments: JsonObject[];
  metadata: JsonObject | undefined;
  fileIds: string[];
  /** Earlier versions, oldest first; empty when never edited. */
  edits: MessageVersion[];
  deleted: boolean;
  replyBroadcast: boolean;
  reactions: Map<string, Set<string>>;
  via: MessageSource;
}

/** A message only `user` sees ("Only visible to you"). */
export interface EphemeralMessage {
  /** `message_ts` as Slack returns it. */
  ts: string;
  user: string;
  channel: string;
  threadTs: string | undefined;
  text: string;
  blocks: JsonObject[];
  edits: MessageVersion[];
  deleted: boolean;
  via: MessageSource;
}

/** A modal or Home tab as Slack holds it for one user. */
export interface StoredView {
  id: string;
  type: "modal" | "home";
  user: string;
  /** The view as the app last sent it. */
  view: JsonObject;
  hash: string;
  rootViewId: string;
  previousViewId: string | undefined;
  /** The `errors` of the last `response_action: "errors"` ack, by block_id. */
  errors: Record<string, string> | undefined;
  /** Earlier versions of `view`, oldest first. */
  versions: JsonObject[];
}

export interface StoredFile {
  id: string;
  filename: string;
  title: string | undefined;
  /** Bytes announced to `files.getUploadURLExternal`. */
  declaredLength: number;
  bytes: Buffer | undefined;
  altText: string | undefined;
  channels: string[];
  threadTs: string | undefined;
  initialComment: string | undefined;
  completed: boolean;
}

/** What a `response_url` refers back to. */
export type ResponseTarget =
  | { kind: "none" }
  | { kind: "message"; channel: string; ts: string }
  | { kind: "ephemeral"; ts: string };

export interface ResponseUrlRecord {
  id: string;
  url: string;
  user: string;
  channel: string;
  target: ResponseTarget;
  issuedAtMs: number;
  /** Every POST to it, accepted or not. */
  posts: Array<{ body: unknown; status: number }>;
}

export interface TriggerRecord {
  id: string;
  user: string;
  issuedAtMs: number;
  used: boolean;
}

/** Something Slack would have shown as a failure: a late/missing ack, an error status, a bad ack body. */
export interface DeliveryFailure {
  kind: "operation_timeout" | "http_error" | "invalid_ack_payload" | "no_connection";
  transport: "socket" | "http";
  /** `slash_commands` / `interactive` / `events_api`, and the payload type or command. */
  envelopeType: string;
  what: string;
  user: string | undefined;
  detail: string;
  atMs: number;
}

/** One Web API request as received, whatever the answer. */
export interface WebApiCall {
  method: string;
  args: JsonObject;
  token: string | undefined;
  atMs: number;
  /** HTTP status answered (0 while a hang is pending). */
  status: number;
  /** `ok:false` error code, `http_503`, `http_429`, or `hang`; undefined on success. */
  error: string | undefined;
}

export const RESPONSE_URL_MAX_USES = 5;
export const RESPONSE_URL_TTL_MS = 30 * 60_000;
export const TRIGGER_TTL_MS = 3_000;

/** The emulated workspace: everything a user could see, and everything the app sent. */
export class EmulatorState {
  readonly users = new Map<string, EmulatedUser>();
  readonly channels = new Map<string, EmulatedChannel>();
  readonly messages: StoredMessage[] = [];
  readonly ephemerals: EphemeralMessage[] = [];
  readonly views = new Map<string, StoredView>();
  /** Open modals per user, bottom first. */
  readonly modalStacks = new Map<string, string[]>();
  readonly homeViews = new Map<string, string>();
  readonly files = new Map<string, StoredFile>();
  readonly responseUrls = new Map<string, ResponseUrlRecord>();
  readonly triggers = new Map<string, TriggerRecord>();
  readonly calls: WebApiCall[] = [];
  readonly failures: DeliveryFailure[] = [];
  readonly #clock: Clock;
  readonly #defaultTz: string;
  #lastTsMicros = 0;
  #counter = 0;

  constructor(clock: Clock, defaultTz: string) {
    this.#clock = clock;
    this.#defaultTz = defaultTz;
  }

  nowMs(): number {
    return this.#clock.now();
  }

  /** A Slack `ts` ("seconds.micros"), strictly increasing across the workspace. */
  nextTs(): string {
    const micros = Math.max(this.#clock.now() * 1000, this.#lastTsMicros + 1);
    this.#lastTsMicros = micros;
    const seconds = Math.floor(micros / 1_000_000);
    return `${seconds}.${String(micros % 1_000_000).padStart(6, "0")}`;
  }

  /** `prefix` + a short unique suffix, e.g. `V0000001` or `Ev0000002`. */
  nextId(prefix: string): string {
    this.#counter += 1;
    return `${prefix}${String(this.#counter).padStart(7, "0")}`;
  }

  addUser(user: Partial<EmulatedUser> & { id: string }): EmulatedUser {
    const full: EmulatedUser = {
      name: user.id.toLowerCase(),
      realName: user.name ?? user.id,
      tz: this.#defaultTz,
      isBot: false,
      isAdmin: false,
      deleted: false,
      locale: "en-US",
      ...user,
    };
    this.users.set(full.id, full);
    return full;
  }

  /** The member, registered on first sight (anyone who can click is in the workspace). */
  user(id: string): EmulatedUser {
    return this.users.get(id) ?? this.addUser({ id });
  }

  addChannel(channel: Partial<EmulatedChannel> & { id: string }): EmulatedChannel {
    const full: EmulatedChannel = {
      name: channel.id.toLowerCase(),
      kind: "public",
      imUser: undefined,
      botIsMember: true,
      members: undefined,
      archived: false,
      ...channel,
    };
    this.channels.set(full.id, full);
    return full;
  }

  /** The bot's DM with `userId`, opened on first use. */
  dmChannel(userId: string): EmulatedChannel {
    for (const channel of this.channels.values()) {
      if (channel.kind === "im" && channel.imUser === userId) return channel;
    }
    return this.addChannel({
      id: this.nextId("D"),
      name: userId,
      kind: "im",
      imUser: userId,
      botIsMember: true,
      members: new Set([userId]),
    });
  }

  isMember(channel: EmulatedChannel, userId: string): boolean {
    return channel.members === undefined ? this.users.has(userId) : channel.members.has(userId);
  }

  findMessage(channel: string, ts: string): StoredMessage | undefined {
    return this.messages.find((m) => m.channel === channel && m.ts === ts);
  }

  findEphemeral(ts: string): EphemeralMessage | undefined {
    return this.ephemerals.find((m) => m.ts === ts);
  }

  addMessage(
    fields: Pick<StoredMessage, "channel" | "user" | "botId" | "text" | "blocks" | "via"> &
      Partial<StoredMessage>,
  ): StoredMessage {
    const message: StoredMessage = {
      ts: this.nextTs(),
      threadTs: undefined,
      attachments: [],
      metadata: undefined,
      fileIds: [],
      edits: [],
      deleted: false,
      replyBroadcast: false,
      reactions: new Map(),
      ...fields,
    };
    this.messages.push(message);
    return message;
  }

  addEphemeral(fields: Omit<EphemeralMessage, "ts" | "edits" | "deleted">): EphemeralMessage {
    const message: EphemeralMessage = { ts: this.nextTs(), edits: [], deleted: false, ...fields };
    this.ephemerals.push(message);
    return message;
  }

  /** Replace the content of a message or ephemeral, keeping the old version in `edits`. */
  edit(message: StoredMessage | EphemeralMessage, text: string, blocks: JsonObject[]): void {
    message.edits.push({ text: message.text, blocks: message.blocks, replacedAtTs: this.nextTs() });
    message.text = text;
    message.blocks = blocks;
  }

  issueTrigger(user: string): string {
    const id = `${this.nextId("")}.${Math.floor(this.#clock.now() / 1000)}.trigger`;
    this.triggers.set(id, { id, user, issuedAtMs: this.#clock.now(), used: false });
    return id;
  }

  /** `undefined` when the trigger may open a view now (and marks it used), else Slack's error. */
  useTrigger(id: unknown): string | undefined {
    if (typeof id !== "string") return "invalid_trigger_id";
    const trigger = this.triggers.get(id);
    if (trigger === undefined) return "invalid_trigger_id";
    if (trigger.used) return "exchanged_trigger_id";
    if (this.#clock.now() - trigger.issuedAtMs > TRIGGER_TTL_MS) return "expired_trigger_id";
    trigger.used = true;
    return undefined;
  }

  issueResponseUrl(baseUrl: string, user: string, channel: string, target: ResponseTarget): string {
    const id = this.nextId("R");
    const url = `${baseUrl}/response/${id}`;
    this.responseUrls.set(id, { id, url, user, channel, target, issuedAtMs: this.#clock.now(), posts: [] });
    return url;
  }

  recordFailure(failure: Omit<DeliveryFailure, "atMs">): void {
    this.failures.push({ ...failure, atMs: this.#clock.now() });
  }
}
