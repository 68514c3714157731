import { randomUUID } from "node:crypto";
import { applyResponse } from "./apply-response.ts";
import { commandWireText } from "./command-wire-text.ts";
import type { EmulatorIdentity } from "./emulator-identity.ts";
import type {
  EmulatorState,
  EphemeralMessage,
  ResponseTarget,
  StoredMessage,
  StoredView,
} from "./emulator-state.ts";
import { isObject, type JsonObject, objectList, stringField } from "./json.ts";
import type { DeliverOptions, SignedRequest } from "./signed-http-transport.ts";
import { messageObject, viewObject } from "./slack-objects.ts";
import type { AckOutcome, Envelope, EnvelopeType } from "./socket-mode-server.ts";
import { viewProblems } from "./validate-blocks.ts";

/** Carries envelopes to the app: the Socket Mode connection or signed HTTP requests. */
export interface Transport {
  readonly kind: "socket" | "http";
  deliver(envelope: Envelope, options: DeliverOptions): Promise<AckOutcome & { request?: SignedRequest }>;
}

export interface InteractionContext {
  state: EmulatorState;
  identity: EmulatorIdentity;
  baseUrl: string;
  defaultChannel: string;
  blocksTextLimitChars: number;
}

/** One delivery to the app and what came back. */
export interface Delivery {
  transport: "socket" | "http";
  envelope: Envelope;
  /** True when the app acknowledged in time (HTTP: answered 200 within 3 s). */
  acked: boolean;
  ackPayload: JsonObject | undefined;
  httpStatus: number | undefined;
  /** No answer within 3 s: Slack gave up (`operation_timeout`). */
  timedOut: boolean;
  elapsedMs: number;
  responseUrl: string | undefined;
  triggerId: string | undefined;
  /** HTTP only: the exact request, for byte-for-byte replays. */
  request: SignedRequest | undefined;
}

export interface SlashCommandArgs extends DeliverOptions {
  user: string;
  /** What the user types after the command; sent as Slack would (see {@link commandWireText}). */
  text?: string;
  /** Default true, as in gpu-warden's manifest: `@alice` is sent as `<@U…|alice>`. */
  shouldEscape?: boolean;
  /** Send this `text` field as is (already in Slack's wire form), instead of `text`. */
  wireText?: string;
  /** Defaults to `/gpu`. */
  command?: string;
  /** Defaults to the emulator's default channel. */
  channel?: string;
}

export interface ClickButtonArgs extends DeliverOptions {
  user: string;
  actionId: string;
  /** Picks among buttons sharing the action id. */
  value?: string;
  blockId?: string;
  /** The message holding the button (a channel message, DM or ephemeral). */
  message?: StoredMessage | EphemeralMessage | { channel: string; ts: string };
  /** Or the Home tab / modal holding it. */
  view?: StoredView | { id: string };
}

export interface SubmitViewArgs extends DeliverOptions {
  user: string;
  /** Defaults to the user's top-most open modal. */
  viewId?: string;
  /**
   * Input values by block_id then action_id: a string (text inputs, or the option value of a
   * select / radio), a string[] (multi selects, checkboxes), or a raw state value object.
   */
  values?: Record<string, Record<string, unknown>>;
}

export interface EventArgs extends DeliverOptions {
  type: string;
  user?: string;
  [field: string]: unknown;
}

interface SettleContext {
  what: string;
  user: string | undefined;
  responseScope?: { user: string; channel: string; target: ResponseTarget };
  submittedView?: StoredView;
  tampered: boolean;
}

/** The user-side actions (command, click, submit, event) delivered over one transport. */
export class Interactions {
  readonly #ctx: InteractionContext;
  readonly #transport: Transport;
  readonly #settleContexts = new WeakMap<Envelope, SettleContext>();

  constructor(ctx: InteractionContext, transport: Transport) {
    this.#ctx = ctx;
    this.#transport = transport;
  }

  /** The user types `/gpu <text>` in `channel`. */
  async slashCommand(args: SlashCommandArgs): Promise<Delivery> {
    const { state, identity, baseUrl } = this.#ctx;
    const user = state.user(args.user);
    const channelId = args.channel ?? this.#ctx.defaultChannel;
    const channel = state.channels.get(channelId);
    if (channel === undefined) throw new Error(`no channel ${channelId}`);
    const responseUrl = state.issueResponseUrl(baseUrl, user.id, channel.id, { kind: "none" });
    const triggerId = state.issueTrigger(user.id);
    const payload: JsonObject = {
      token: identity.verificationToken,
      team_id: identity.teamId,
      team_domain: identity.teamDomain,
      channel_id: channel.id,
      channel_name: channel.kind === "im" ? "directmessage" : channel.name,
      user_id: user.id,
      user_name: user.name,
      command: args.command ?? "/gpu",
      text: args.wireText ?? commandWireText(args.text ?? "", state, args.shouldEscape ?? true),
      api_app_id: identity.appId,
      is_enterprise_install: "false",
      response_url: responseUrl,
      trigger_id: triggerId,
    };
    return this.#send("slash_commands", payload, args, {
      what: String(payload.command),
      user: user.id,
      responseScope: { user: user.id, channel: channel.id, target: { kind: "none" } },
      tampered: args.tamper !== undefined,
    });
  }

  /** The user clicks a button that is on screen (it must be in the message's or view's latest blocks). */
  async clickButton(args: ClickButtonArgs): Promise<Delivery> {
    const { state, identity, baseUrl } = this.#ctx;
    const user = state.user(args.user);
    const source = this.#buttonSource(args);
    const button = pickButton(source.blocks, args);
    const triggerId = state.issueTrigger(user.id);
    const action: JsonObject = {
      action_id: button.element.action_id,
      block_id: button.blockId,
      text: button.element.text,
      type: "button",
      action_ts: state.nextTs(),
    };
    if (button.element.value !== undefined) action.value = button.element.value;
    if (button.element.style !== undefined) action.style = button.element.style;
    const payload: JsonObject = {
      type: "block_actions",
      user: { id: user.id, username: user.name, name: user.name, team_id: identity.teamId },
      api_app_id: identity.appId,
      token: identity.verificationToken,
      trigger_id: triggerId,
      team: { id: identity.teamId, domain: identity.teamDomain },
      enterprise: null,
      is_enterprise_install: false,
      state: { values: {} },
      actions: [action],
    };
    let responseScope: SettleContext["responseScope"];
    if (source.kind === "view") {
      payload.container = { type: "view", view_id: source.view.id };
      payload.view = viewObject(source.view, identity);
    } else {
      const channel = state.channels.get(source.channel);
      const target: ResponseTarget =
        source.kind === "ephemeral"
          ? { kind: "ephemeral", ts: source.message.ts }
          : { kind: "message", channel: source.channel, ts: source.message.ts };
      payload.container = {
        type: "message",
        message_ts: source.message.ts,
        channel_id: source.channel,
        is_ephemeral: source.kind === "ephemeral",
      };
      if (channel !== undefined) {
        payload.channel = { id: channel.id, name: channel.kind === "im" ? "directmessage" : channel.name };
      }
      if (source.kind === "message") payload.message = messageObject(source.message, identity);
      payload.response_url = state.issueResponseUrl(baseUrl, user.id, source.channel, target);
      responseScope = { user: user.id, channel: source.channel, target };
    }
    const settle: SettleContext = {
      what: `block_actions ${String(action.action_id)}`,
      user: user.id,
      tampered: args.tamper !== undefined,
    };
    if (responseScope !== undefined) settle.responseScope = responseScope;
    return this.#send("interactive", payload, args, settle);
  }

  /** The user presses Submit on a modal, with `values` typed into its inputs. */
  async submitView(args: SubmitViewArgs): Promise<Delivery> {
    const { state, identity } = this.#ctx;
    const user = state.user(args.user);
    const view = this.#openModal(user.id, args.viewId);
    const payload: JsonObject = {
      type: "view_submission",
      team: { id: identity.teamId, domain: identity.teamDomain },
      user: { id: user.id, username: user.name, name: user.name, team_id: identity.teamId },
      api_app_id: identity.appId,
      token: identity.verificationToken,
      trigger_id: state.issueTrigger(user.id),
      view: viewObject(view, identity, stateValues(view, args.values ?? {})),
      response_urls: [],
      is_enterprise_install: false,
      enterprise: null,
    };
    return this.#send("interactive", payload, args, {
      what: `view_submission ${String(view.view.callback_id ?? "")}`,
      user: user.id,
      submittedView: view,
      tampered: args.tamper !== undefined,
    });
  }

  /**
   * The user closes their top modal. Slack tells the app only when the view asked for it
   * (`notify_on_close`); otherwise nothing is delivered and this resolves undefined.
   */
  async closeView(args: { user: string; viewId?: string } & DeliverOptions): Promise<Delivery | undefined> {
    const { state, identity } = this.#ctx;
    const view = this.#openModal(args.user, args.viewId);
    const stack = state.modalStacks.get(args.user) ?? [];
    state.modalStacks.set(
      args.user,
      stack.filter((id) => id !== view.id),
    );
    if (view.view.notify_on_close !== true) return undefined;
    const user = state.user(args.user);
    const payload: JsonObject = {
      type: "view_closed",
      team: { id: identity.teamId, domain: identity.teamDomain },
      user: { id: user.id, username: user.name, name: user.name, team_id: identity.teamId },
      api_app_id: identity.appId,
      token: identity.verificationToken,
      view: viewObject(view, identity),
      is_cleared: false,
      is_enterprise_install: false,
    };
    return this.#send("interactive", payload, args, {
      what: "view_closed",
      user: user.id,
      tampered: args.tamper !== undefined,
    });
  }

  /**
   * An Events API event, wrapped in its `event_callback` body. `app_home_opened` gets its
   * `channel` (the user's DM with the app), `tab: "home"` and the published `view` filled in.
   */
  async event(args: EventArgs): Promise<Delivery> {
    const { state, identity } = this.#ctx;
    const { tamper, timestampS, ...fields } = args;
    const event: JsonObject = { ...fields, event_ts: fields.event_ts ?? state.nextTs() };
    if (args.type === "app_home_opened" && typeof args.user === "string") {
      state.user(args.user);
      event.channel ??= state.dmChannel(args.user).id;
      event.tab ??= "home";
      const homeId = state.homeViews.get(args.user);
      const home = homeId === undefined ? undefined : state.views.get(homeId);
      if (home !== undefined && event.view === undefined) event.view = viewObject(home, identity);
    }
    const payload: JsonObject = {
      token: identity.verificationToken,
      team_id: identity.teamId,
      api_app_id: identity.appId,
      event,
      type: "event_callback",
      event_id: state.nextId("Ev"),
      event_time: Math.floor(state.nowMs() / 1000),
      authorizations: [
        {
          enterprise_id: null,
          team_id: identity.teamId,
          user_id: identity.botUserId,
          is_bot: true,
          is_enterprise_install: false,
        },
      ],
      is_ext_shared_channel: false,
      event_context: `4-${state.nextId("ctx")}`,
    };
    const options: DeliverOptions = {};
    if (tamper !== undefined) options.tamper = tamper;
    if (timestampS !== undefined) options.timestampS = timestampS;
    return this.#send("events_api", payload, options, {
      what: args.type,
      user: typeof args.user === "string" ? args.user : undefined,
      tampered: tamper !== undefined,
    });
  }

  /**
   * Delivers an interaction payload exactly as given (a half-formed one included), to see how the
   * app answers something Slack itself would never send.
   */
  async rawInteraction(payload: JsonObject, options: DeliverOptions = {}): Promise<Delivery> {
    return this.#send("interactive", payload, options, {
      what: "the interaction",
      user: undefined,
      tampered: options.tamper !== undefined,
    });
  }

  /**
   * Delivers the same envelope again, as Slack does when it retries: same envelope_id (Socket
   * Mode) or same body re-signed (HTTP), with `retry_attempt`/`X-Slack-Retry-Num` when given.
   */
  async replay(delivery: Delivery, retry: { attempt?: number; reason?: string } = {}): Promise<Delivery> {
    const envelope: Envelope = {
      ...delivery.envelope,
      retryAttempt: retry.attempt ?? delivery.envelope.retryAttempt,
      retryReason: retry.reason ?? delivery.envelope.retryReason,
    };
    const settle = this.#settleContexts.get(delivery.envelope);
    if (settle === undefined) throw new Error("replay: this delivery did not come from this transport");
    return this.#deliver(envelope, {}, settle);
  }

  /** Sends an HTTP delivery's request again byte for byte (an exact replay, as an attacker would). */
  async replayExact(delivery: Delivery): Promise<Delivery> {
    const settle = this.#settleContexts.get(delivery.envelope);
    if (settle === undefined || delivery.request === undefined) {
      throw new Error("replayExact: needs an HTTP delivery from this driver");
    }
    return this.#deliver(delivery.envelope, { exactRequest: delivery.request }, settle);
  }

  async #send(
    type: EnvelopeType,
    payload: JsonObject,
    options: DeliverOptions,
    settle: SettleContext,
  ): Promise<Delivery> {
    const envelope: Envelope = {
      envelopeId: randomUUID(),
      type,
      payload,
      acceptsResponsePayload: type !== "events_api",
      retryAttempt: undefined,
      retryReason: undefined,
    };
    const deliverOptions: DeliverOptions = {};
    if (options.tamper !== undefined) deliverOptions.tamper = options.tamper;
    if (options.timestampS !== undefined) deliverOptions.timestampS = options.timestampS;
    return this.#deliver(envelope, deliverOptions, settle);
  }

  async #deliver(envelope: Envelope, options: DeliverOptions, settle: SettleContext): Promise<Delivery> {
    this.#settleContexts.set(envelope, settle);
    const outcome = await this.#transport.deliver(envelope, options);
    const delivery: Delivery = {
      transport: this.#transport.kind,
      envelope,
      acked: outcome.acked,
      ackPayload: outcome.payload,
      httpStatus: outcome.httpStatus,
      timedOut: outcome.timedOut,
      elapsedMs: outcome.elapsedMs,
      responseUrl: stringField(envelope.payload, "response_url"),
      triggerId: stringField(envelope.payload, "trigger_id"),
      request: outcome.request,
    };
    this.#settle(delivery, settle);
    return delivery;
  }

  /** Applies what Slack does with an ack (or its absence) to what the user sees. */
  #settle(delivery: Delivery, settle: SettleContext): void {
    const { state } = this.#ctx;
    const envelope = delivery.envelope;
    if (!delivery.acked) {
      if (settle.tampered) return;
      const timedOut = delivery.timedOut;
      state.recordFailure({
        kind: timedOut ? "operation_timeout" : "http_error",
        transport: delivery.transport,
        envelopeType: envelope.type,
        what: settle.what,
        user: settle.user,
        detail: timedOut ? "no ack within 3 s" : `HTTP ${String(delivery.httpStatus)}`,
      });
      if (envelope.type === "slash_commands" && settle.responseScope !== undefined) {
        const error = timedOut ? "operation_timeout" : "dispatch_failed";
        state.addEphemeral({
          user: settle.responseScope.user,
          channel: settle.responseScope.channel,
          threadTs: undefined,
          text: `${settle.what} failed with the error "${error}"`,
          blocks: [],
          via: "slack",
        });
      }
      return;
    }
    const payload = delivery.ackPayload ?? {};
    if (envelope.type === "slash_commands" && settle.responseScope !== undefined && hasMessage(payload)) {
      const result = applyResponse(this.#ctx, settle.responseScope, payload, "ack");
      if (result.status !== 200) this.#invalidAck(delivery, settle, JSON.stringify(result.body));
    }
    if (settle.submittedView !== undefined)
      this.#settleSubmission(delivery, settle, settle.submittedView, payload);
  }

  #settleSubmission(delivery: Delivery, settle: SettleContext, view: StoredView, payload: JsonObject): void {
    const { state } = this.#ctx;
    const stack = state.modalStacks.get(view.user) ?? [];
    const action = payload.response_action;
    if (action === undefined) {
      state.modalStacks.set(
        view.user,
        stack.filter((id) => id !== view.id),
      );
      return;
    }
    switch (action) {
      case "errors":
        view.errors = isObject(payload.errors) ? toStrings(payload.errors) : {};
        return;
      case "clear":
        state.modalStacks.set(view.user, []);
        return;
      case "update":
      case "push": {
        const problems = viewProblems(payload.view, "modal");
        if (problems.length > 0 || !isObject(payload.view)) {
          this.#invalidAck(delivery, settle, problems.join("; "));
          return;
        }
        if (action === "update") {
          view.versions.push(view.view);
          view.view = payload.view;
          view.hash = `${Math.floor(state.nowMs() / 1000)}.${state.nextId("h")}`;
          view.errors = undefined;
          return;
        }
        const id = state.nextId("V");
        const pushed: StoredView = {
          id,
          type: "modal",
          user: view.user,
          view: payload.view,
          hash: `${Math.floor(state.nowMs() / 1000)}.${state.nextId("h")}`,
          rootViewId: view.rootViewId,
          previousViewId: view.id,
          errors: undefined,
          versions: [],
        };
        state.views.set(id, pushed);
        state.modalStacks.set(view.user, [...stack, id]);
        return;
      }
      default:
        this.#invalidAck(delivery, settle, `unknown response_action ${JSON.stringify(action)}`);
    }
  }

  #invalidAck(delivery: Delivery, settle: SettleContext, detail: string): void {
    this.#ctx.state.recordFailure({
      kind: "invalid_ack_payload",
      transport: delivery.transport,
      envelopeType: delivery.envelope.type,
      what: settle.what,
      user: settle.user,
      detail,
    });
  }

  #openModal(userId: string, viewId: string | undefined): StoredView {
    const { state } = this.#ctx;
    const stack = state.modalStacks.get(userId) ?? [];
    const id = viewId ?? stack.at(-1);
    const view = id === undefined ? undefined : state.views.get(id);
    if (view === undefined || view.type !== "modal" || !stack.includes(view.id)) {
      throw new Error(`user ${userId} has no open modal${viewId === undefined ? "" : ` ${viewId}`}`);
    }
    return view;
  }

  #buttonSource(args: ClickButtonArgs): ButtonSource {
    const { state } = this.#ctx;
    if (args.view !== undefined) {
      const view = state.views.get(args.view.id);
      if (view === undefined) throw new Error(`no view ${args.view.id}`);
      if (view.user !== args.user)
        throw new Error(`view ${view.id} belongs to ${view.user}, not ${args.user}`);
      const open = view.type === "home" || (state.modalStacks.get(args.user) ?? []).includes(view.id);
      if (!open) throw new Error(`view ${view.id} is not open`);
      return { kind: "view", view, blocks: objectList(view.view.blocks) };
    }
    if (args.message === undefined) throw new Error("clickButton needs a message or a view");
    const ephemeral = state.findEphemeral(args.message.ts);
    if (ephemeral !== undefined) {
      if (ephemeral.user !== args.user)
        throw new Error(`ephemeral ${ephemeral.ts} is only visible to ${ephemeral.user}`);
      if (ephemeral.deleted) throw new Error(`ephemeral ${ephemeral.ts} was deleted`);
      return { kind: "ephemeral", message: ephemeral, channel: ephemeral.channel, blocks: ephemeral.blocks };
    }
    const channel = "channel" in args.message ? args.message.channel : "";
    const message = state.findMessage(channel, args.message.ts);
    if (message === undefined || message.deleted)
      throw new Error(`no message ${args.message.ts} in ${channel}`);
    return { kind: "message", message, channel, blocks: message.blocks };
  }
}

type ButtonSource =
  | { kind: "view"; view: StoredView; blocks: JsonObject[] }
  | { kind: "ephemeral"; message: EphemeralMessage; channel: string; blocks: JsonObject[] }
  | { kind: "message"; message: StoredMessage; channel: string; blocks: JsonObject[] };

interface FoundButton {
  blockId: string;
  element: JsonObject;
}

function pickButton(blocks: JsonObject[], args: ClickButtonArgs): FoundButton {
  const found: FoundButton[] = [];
  for (const block of blocks) {
    const blockId = stringField(block, "block_id") ?? "";
    const candidates =
      block.type === "actions"
        ? objectList(block.elements)
        : isObject(block.accessory)
          ? [block.accessory]
          : [];
    for (const element of candidates) {
      if (element.type === "button" && element.action_id === args.actionId) found.push({ blockId, element });
    }
  }
  const matching = found.filter(
    (b) =>
      (args.value === undefined || b.element.value === args.value) &&
      (args.blockId === undefined || b.blockId === args.blockId),
  );
  const first = matching[0];
  if (first === undefined) {
    const shown = found.map((b) => JSON.stringify(b.element.value ?? null)).join(", ");
    throw new Error(
      `no button ${args.actionId}${args.value === undefined ? "" : `=${args.value}`} on screen (values: ${shown || "none"})`,
    );
  }
  if (matching.length > 1)
    throw new Error(`${matching.length} buttons ${args.actionId} match: give a value or blockId`);
  return first;
}

function hasMessage(payload: JsonObject): boolean {
  return payload.text !== undefined || payload.blocks !== undefined || payload.delete_original !== undefined;
}

function toStrings(record: JsonObject): Record<string, string> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, String(value)]));
}

const SELECTED_KEY: Readonly<Record<string, string>> = {
  datepicker: "selected_date",
  timepicker: "selected_time",
  datetimepicker: "selected_date_time",
  users_select: "selected_user",
  conversations_select: "selected_conversation",
  channels_select: "selected_channel",
  multi_users_select: "selected_users",
  multi_conversations_select: "selected_conversations",
  multi_channels_select: "selected_channels",
};

function allOptions(element: JsonObject): JsonObject[] {
  return [
    ...objectList(element.options),
    ...objectList(element.option_groups).flatMap((g) => objectList(g.options)),
  ];
}

/** `view.state.values` for the submitted inputs, shaped per element type as Slack sends them. */
function stateValues(view: StoredView, given: Record<string, Record<string, unknown>>): JsonObject {
  const values: Record<string, JsonObject> = {};
  const known = new Set<string>();
  for (const block of objectList(view.view.blocks)) {
    if (block.type !== "input" || !isObject(block.element)) continue;
    const blockId = stringField(block, "block_id") ?? "";
    const element = block.element;
    const actionId = stringField(element, "action_id") ?? "";
    const type = stringField(element, "type") ?? "";
    known.add(`${blockId}/${actionId}`);
    const raw = given[blockId]?.[actionId];
    values[blockId] = { ...values[blockId], [actionId]: stateValue(type, element, raw) };
  }
  for (const [blockId, actions] of Object.entries(given)) {
    for (const actionId of Object.keys(actions)) {
      if (!known.has(`${blockId}/${actionId}`)) {
        throw new Error(
          `view ${view.id} has no input ${blockId}/${actionId} (block_id and action_id must be set)`,
        );
      }
    }
  }
  return values;
}

function stateValue(type: string, element: JsonObject, raw: unknown): JsonObject {
  if (isObject(raw)) return { type, ...raw };
  const options = allOptions(element);
  const option = (value: unknown): JsonObject | null => options.find((o) => o.value === value) ?? null;
  switch (type) {
    case "static_select":
    case "external_select":
    case "radio_buttons":
      return { type, selected_option: raw === undefined ? null : option(raw) };
    case "multi_static_select":
    case "multi_external_select":
    case "checkboxes":
      return { type, selected_options: Array.isArray(raw) ? raw.map(option).filter((o) => o !== null) : [] };
    default: {
      const key = SELECTED_KEY[type];
      if (key !== undefined) return { type, [key]: raw ?? null };
      return { type, value: raw ?? null };
    }
  }
}
