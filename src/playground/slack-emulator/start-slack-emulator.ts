import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Clock, systemClock } from "../../shared/clock.ts";
import { DEFAULT_IDENTITY, type EmulatorIdentity } from "./emulator-identity.ts";
import { createEmulatorRoute } from "./emulator-routes.ts";
import {
  type ChannelKind,
  type DeliveryFailure,
  type EmulatedChannel,
  type EmulatedUser,
  EmulatorState,
  type EphemeralMessage,
  type StoredFile,
  type StoredMessage,
  type StoredView,
  type WebApiCall,
} from "./emulator-state.ts";
import {
  FailureInjector,
  type FailureMode,
  type FailureRule,
  type FailureTarget,
} from "./failure-injector.ts";
import { HttpDriver } from "./http-driver.ts";
import { Interactions } from "./interactions.ts";
import { SlackRateLimits } from "./slack-rate-limits.ts";
import { SocketModeServer } from "./socket-mode-server.ts";
import type { WebApiContext } from "./web-api.ts";

export interface EmulatorChannelOptions {
  id: string;
  name?: string;
  kind?: ChannelKind;
  /** Default true; false makes posts answer `not_in_channel` until `conversations.join`. */
  botIsMember?: boolean;
  /** Human members; default: everyone in the workspace. */
  members?: string[];
  archived?: boolean;
}

export interface SlackEmulatorOptions {
  identity?: Partial<EmulatorIdentity>;
  users?: Array<Partial<EmulatedUser> & { id: string }>;
  /** Default: one public channel `C0GENERAL` (#general) with the bot in it. */
  channels?: EmulatorChannelOptions[];
  /** Where slash commands are typed when none is given; default: the first channel. */
  defaultChannel?: string;
  /** Time zone of users added without one; default `UTC`. */
  defaultTz?: string;
  /** Drives message `ts`, trigger expiry and failure windows; default: the system clock. */
  clock?: Clock;
  /** Slack's ack deadline; default 3000 ms. */
  ackTimeoutMs?: number;
  /** Budget of all block `text` in one message before `msg_blocks_too_long`; default 12,000. */
  blocksTextLimitChars?: number;
  /**
   * Enforce Slack's rate limits (`slack-rate-limits.ts`: method tiers, one post a second per
   * channel), answering 429 with `Retry-After` on the injected clock; default off.
   */
  slackLimits?: boolean;
}

/** What a channel shows, computed when asked. */
export interface ChannelView {
  id: string;
  name: string;
  /** Top-level messages still shown, oldest first (a thread reply only when broadcast). */
  messages: StoredMessage[];
  /** The newest of `messages`. */
  latest: StoredMessage | undefined;
  /** Replies in the thread of `ts`, oldest first, deleted ones left out. */
  thread(ts: string): StoredMessage[];
  /** Everything ever posted here, deleted messages and thread replies included. */
  history: StoredMessage[];
}

export interface SlackEmulator {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** `http://127.0.0.1:<port>/api/`: give it to Bolt as `clientOptions.slackApiUrl`. */
  readonly apiUrl: string;
  readonly identity: EmulatorIdentity;
  readonly state: EmulatorState;
  channel(id: string): ChannelView;
  /** The bot's DM with `user` (top-level messages), empty when never opened. */
  dms(user: string): StoredMessage[];
  /** Ephemeral messages shown to `user` and not deleted, oldest first. */
  ephemerals(user: string, channel?: string): EphemeralMessage[];
  home(user: string): StoredView | undefined;
  /** Open modals of `user`, bottom first. */
  modals(user: string): StoredView[];
  files(): StoredFile[];
  /** Web API requests received (failed or not), optionally for one method. */
  calls(method?: string): WebApiCall[];
  /** Requests received for `method` (every attempt, injected failures included). */
  attempts(method: string): number;
  /** Missing/late acks, HTTP errors and bad ack bodies: what Slack would show as a failure. */
  failures(): DeliveryFailure[];
  /** Errors inside the emulator itself (should stay empty). */
  internalErrors(): Error[];
  failNext(target: FailureTarget, mode: FailureMode, times?: number): FailureRule;
  failFor(target: FailureTarget, mode: FailureMode, durationMs: number): FailureRule;
  rateLimit(target: FailureTarget, limit: number, windowMs: number, retryAfterS: number): void;
  clearFailures(): void;
  addUser(user: Partial<EmulatedUser> & { id: string }): EmulatedUser;
  addChannel(channel: EmulatorChannelOptions): EmulatedChannel;
  setBotMembership(channel: string, isMember: boolean): void;
  readonly socket: {
    readonly connectionCount: number;
    waitForConnection(timeoutMs?: number): Promise<void>;
    disconnect(reason?: "warning" | "refresh_requested" | "link_disabled" | "too_many_websockets"): void;
    /** Acks that came after their deadline or for unknown envelopes. */
    readonly strayAcks: ReadonlyArray<{ envelopeId: string; payload: unknown }>;
  };
  /** User actions over Socket Mode. */
  readonly slashCommand: Interactions["slashCommand"];
  readonly clickButton: Interactions["clickButton"];
  readonly submitView: Interactions["submitView"];
  readonly closeView: Interactions["closeView"];
  readonly event: Interactions["event"];
  readonly rawInteraction: Interactions["rawInteraction"];
  readonly replay: Interactions["replay"];
  /**
   * Resolves once `predicate` holds (polled every 10 ms): the app's work after an ack is
   * asynchronous. Rejects after `timeoutMs` (default 20,000: the limit only bounds a failure) naming `what`.
   */
  waitFor(predicate: () => boolean, what?: string, timeoutMs?: number): Promise<void>;
  /** The same user actions as signed HTTP requests to `url` (e.g. `http://127.0.0.1:<port>/slack/events`). */
  http(url: string, options?: { signingSecret?: string; clock?: Clock }): HttpDriver;
  close(): Promise<void>;
}

/** Starts the emulator on 127.0.0.1 on a free port. */
export async function startSlackEmulator(options: SlackEmulatorOptions = {}): Promise<SlackEmulator> {
  const clock = options.clock ?? systemClock;
  const identity: EmulatorIdentity = { ...DEFAULT_IDENTITY, ...options.identity };
  const ackTimeoutMs = options.ackTimeoutMs ?? 3000;
  const blocksTextLimitChars = options.blocksTextLimitChars ?? 12_000;
  const state = new EmulatorState(clock, options.defaultTz ?? "UTC");
  const injector = new FailureInjector(clock, options.slackLimits ? new SlackRateLimits() : undefined);
  const socketServer = new SocketModeServer(identity.appId);
  const internalErrors: Error[] = [];
  const pendingTimers = new Set<NodeJS.Timeout>();

  const addChannel = seedState(state, identity, options);
  const defaultChannel = options.defaultChannel ?? [...state.channels.keys()][0] ?? "C0GENERAL";

  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  const apiContext: WebApiContext = {
    state,
    identity,
    baseUrl: url,
    issueSocketUrl: () => socketServer.issueUrl(`ws://127.0.0.1:${port}`),
    blocksTextLimitChars,
    maxViewBytes: 250_000,
  };
  const interactionContext = { state, identity, baseUrl: url, defaultChannel, blocksTextLimitChars };

  const route = createEmulatorRoute({
    state,
    identity,
    clock,
    injector,
    apiContext,
    blocksTextLimitChars,
    pendingTimers,
    baseUrl: url,
  });

  server.on("request", (req, res) => {
    route(req, res).catch((error: unknown) => {
      const failure = error instanceof Error ? error : new Error(String(error));
      internalErrors.push(failure);
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(failure.message);
    });
  });
  server.on("upgrade", (req, socket, head) => {
    if (!socketServer.handleUpgrade(req, socket, head)) socket.destroy();
  });

  const socketInteractions = new Interactions(interactionContext, {
    kind: "socket",
    deliver: async (envelope) => {
      await socketServer.waitForConnection(ackTimeoutMs);
      return socketServer.deliver(envelope, ackTimeoutMs);
    },
  });

  return {
    url,
    apiUrl: `${url}/api/`,
    identity,
    state,
    ...stateReaders(state),
    internalErrors: () => [...internalErrors],
    failNext: (target, mode, times) => injector.failNext(target, mode, times),
    failFor: (target, mode, durationMs) => injector.failFor(target, mode, durationMs),
    rateLimit: (target, limit, windowMs, retryAfterS) =>
      injector.rateLimit(target, limit, windowMs, retryAfterS),
    clearFailures: () => injector.clear(),
    addUser: (user) => state.addUser(user),
    addChannel,
    setBotMembership: (channel, isMember) => {
      const found = state.channels.get(channel);
      if (found === undefined) throw new Error(`no channel ${channel}`);
      found.botIsMember = isMember;
    },
    ...socketControls(socketServer, socketInteractions),
    waitFor,
    http: (target, httpOptions = {}) =>
      HttpDriver.create(
        interactionContext,
        target,
        httpOptions.signingSecret ?? identity.signingSecret,
        httpOptions.clock ?? systemClock,
        ackTimeoutMs,
      ),
    close: async () => {
      for (const timer of pendingTimers) clearTimeout(timer);
      pendingTimers.clear();
      await socketServer.close();
      await closeServer(server);
    },
  };
}

/** What a test reads back from the emulator's state: channels, DMs, ephemerals, views, files, calls. */
function stateReaders(
  state: EmulatorState,
): Pick<
  SlackEmulator,
  "channel" | "dms" | "ephemerals" | "home" | "modals" | "files" | "calls" | "attempts" | "failures"
> {
  const channelView = (id: string): ChannelView => {
    const channel = state.channels.get(id);
    if (channel === undefined) throw new Error(`no channel ${id}`);
    const history = state.messages.filter((m) => m.channel === id);
    const messages = history.filter(
      (m) => !m.deleted && (m.threadTs === undefined || m.threadTs === m.ts || m.replyBroadcast),
    );
    return {
      id,
      name: channel.name,
      messages,
      latest: messages.at(-1),
      thread: (ts) => history.filter((m) => m.threadTs === ts && m.ts !== ts && !m.deleted),
      history,
    };
  };
  return {
    channel: channelView,
    dms: (user) => {
      const dm = [...state.channels.values()].find((c) => c.kind === "im" && c.imUser === user);
      return dm === undefined ? [] : channelView(dm.id).messages;
    },
    ephemerals: (user, channel) =>
      state.ephemerals.filter(
        (m) => m.user === user && !m.deleted && (channel === undefined || m.channel === channel),
      ),
    home: (user) => {
      const id = state.homeViews.get(user);
      return id === undefined ? undefined : state.views.get(id);
    },
    modals: (user) =>
      (state.modalStacks.get(user) ?? []).flatMap((id) => {
        const view = state.views.get(id);
        return view === undefined ? [] : [view];
      }),
    files: () => [...state.files.values()],
    calls: (method) =>
      method === undefined ? [...state.calls] : state.calls.filter((c) => c.method === method),
    attempts: (method) => state.calls.filter((c) => c.method === method).length,
    failures: () => [...state.failures],
  };
}

/** The Socket Mode connection's controls and the interactions a test sends through it. */
function socketControls(
  socketServer: SocketModeServer,
  socketInteractions: Interactions,
): Pick<
  SlackEmulator,
  | "socket"
  | "slashCommand"
  | "clickButton"
  | "submitView"
  | "closeView"
  | "event"
  | "rawInteraction"
  | "replay"
> {
  return {
    socket: {
      get connectionCount() {
        return socketServer.connectionCount;
      },
      waitForConnection: (timeoutMs = 5000) => socketServer.waitForConnection(timeoutMs),
      disconnect: (reason = "refresh_requested") => socketServer.sendDisconnect(reason),
      strayAcks: socketServer.strayAcks,
    },
    slashCommand: (args) => socketInteractions.slashCommand(args),
    clickButton: (args) => socketInteractions.clickButton(args),
    submitView: (args) => socketInteractions.submitView(args),
    closeView: (args) => socketInteractions.closeView(args),
    event: (args) => socketInteractions.event(args),
    rawInteraction: (payload, options) => socketInteractions.rawInteraction(payload, options),
    replay: (delivery, retry) => socketInteractions.replay(delivery, retry),
  };
}

/** Adds the configured users and channels (and the bot user); returns how to add a channel later. */
function seedState(
  state: EmulatorState,
  identity: EmulatorIdentity,
  options: SlackEmulatorOptions,
): (channel: EmulatorChannelOptions) => EmulatedChannel {
  for (const user of options.users ?? []) state.addUser(user);
  state.addUser({ id: identity.botUserId, name: identity.botName, isBot: true });
  const addChannel = (channel: EmulatorChannelOptions): EmulatedChannel => {
    const { members, ...rest } = channel;
    const full: Partial<EmulatedChannel> & { id: string } = { ...rest };
    if (members !== undefined) full.members = new Set(members);
    return state.addChannel(full);
  };
  for (const channel of options.channels ?? [{ id: "C0GENERAL", name: "general" }]) addChannel(channel);
  return addChannel;
}

// NOTE: a wait ends as soon as its condition holds; the limit only bounds a failure. 20 s, not 5: on a
// loaded machine (npm test runs four processes on two cores) a chart's render and upload took over 5 s.
async function waitFor(predicate: () => boolean, what = "condition", timeoutMs = 20_000): Promise<void> {
  const startedMs = performance.now();
  while (!predicate()) {
    if (performance.now() - startedMs > timeoutMs)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error === undefined ? resolve() : reject(error)));
    server.closeAllConnections();
  });
}

export type { EmulatorIdentity } from "./emulator-identity.ts";
export type {
  DeliveryFailure,
  EmulatedUser,
  EphemeralMessage,
  StoredFile,
  StoredMessage,
  StoredView,
  WebApiCall,
} from "./emulator-state.ts";
export type { FailureMode, FailureRule } from "./failure-injector.ts";
export type { HttpDriver } from "./http-driver.ts";
export type { Delivery } from "./interactions.ts";
export { slackSignature } from "./signed-http-transport.ts";
