import bolt, { type webApi } from "@slack/bolt";
import type { Clock } from "../shared/clock.ts";
import type { Logger } from "../shared/logger.ts";
import type { BotStateStore } from "../store/bot-state-store.ts";
import type { OutboxItem } from "../store/outbox-store.ts";
import type { IfLate, Notifier, SlackMethod } from "../usecases/ports.ts";
import { boltLogger } from "./bolt-logger.ts";
import { classifySlackFailure, type SlackFailure } from "./classify-slack-failure.ts";
import { createLeanFetch } from "./lean-fetch.ts";
import { ConversationIndex } from "./outbox-conversation.ts";
import { conversationId, type FoundPost, findOutboxPost, withOutboxMetadata } from "./outbox-recovery.ts";
import { missingScope, slackErrorHint } from "./slack-error-hint.ts";

const { WebClient } = bolt.webApi;

/** Waits `ms`, or less when `signal` aborts (never rejects). */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export interface OutboxWorkerOptions {
  store: Pick<BotStateStore, "outbox" | "alerts" | "meta" | "transaction">;
  /** A client that neither retries nor waits on 429 by itself: see {@link createOutboxClient}. */
  client: webApi.WebClient;
  clock: Clock;
  logger: Logger;
  /** Named in operator hints (`/invite @gpu-warden`). */
  botName?: string;
  /** Back-off after a transient failure: `initialMs × 2^(attempts-1)`, at most `maxMs`. Default 1 s … 5 min. */
  backoff?: { initialMs: number; maxMs: number };
  /** An unexpected (non-Slack) error is retried this many times, then the item is given up. Default 5. */
  maxUnexpectedAttempts?: number;
  /** How the worker waits for `not_before`; real timers by default (tests inject a clock-advancing one). */
  sleep?: Sleep;
  /** Called once for each message set aside for good (e.g. to count it on `/metrics`). */
  onSetAside?: (setAside: { method: string; reason: string }) => void;
}

export interface OutboxWorker extends Notifier {
  /** Starts delivering, beginning with what a previous run left pending in the database. */
  start(): void;
  /** Stops after the call in flight (if any) has finished and been recorded. */
  stop(): Promise<void>;
  /** Resolves once nothing is pending; rejects after `timeoutMs` (default 10 s) naming what is left. */
  drain(timeoutMs?: number): Promise<void>;
}

/**
 * The outbox's Web API client. It never retries and rejects a 429 at once
 * (`rejectRateLimitedCalls`): the worker owns retries, so a failing item holds the queue and keeps the
 * order, and its waits are in the database (they survive a restart).
 *
 * NOTE: `chat.postMessage` has no idempotency key. If the client gives up waiting while Slack
 * still completes the call, a plain retry posts the message twice (observed with the real SDK). The
 * timeout is therefore generous (30 s, far above Slack's normal latency), and the worker looks for
 * such a post before sending it again (see {@link createOutboxWorker}).
 */
export function createOutboxClient(options: {
  botToken: string;
  slackApiUrl?: string | undefined;
  logger: Logger;
  timeoutMs?: number;
}): webApi.WebClient {
  const clientOptions: webApi.WebClientOptions = {
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 0 },
    timeout: options.timeoutMs ?? 30_000,
    logger: boltLogger(options.logger, "outbox", { quiet: true }),
    fetch: createLeanFetch(),
  };
  if (options.slackApiUrl !== undefined) clientOptions.slackApiUrl = options.slackApiUrl;
  return new WebClient(options.botToken, clientOptions);
}

const NOT_IDEMPOTENT = new Set(["chat.postMessage", "chat.postEphemeral", "files.uploadV2"]);

/** Where an `$alertTs` placeholder sits; `thread_ts` may fall back to the channel, `ts` may not. */
type Resolution =
  | { ok: true; args: Record<string, unknown>; threadDropped: boolean }
  | { ok: false; reason: string };

/**
 * Real timers, at most a second at a time: the loop then re-reads the clock, so a clock that jumps
 * (a `ManualClock` in tests and the playground) is followed within a second.
 */
const realSleep: Sleep = (ms, signal) =>
  new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const timer = setTimeout(done, Math.min(ms, 1_000));
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });

/**
 * Delivers the durable outbox to Slack in order within each conversation ({@link conversationOf}:
 * an alert with its updates and thread replies, a thread, a channel or DM, a Home tab), the oldest
 * due item first. A retriable failure holds its own conversation only (an alert is never edited
 * before it is posted, thread replies keep their order), never the others. 429 holds every
 * conversation for `Retry-After` (Slack's limits are per method and app); 5xx, timeouts and network
 * errors back off exponentially up to a cap; errors Slack will never accept (`channel_not_found`,
 * `not_in_channel`, `invalid_blocks`…) set the item aside with one log line that says how to fix it,
 * and its conversation moves on.
 *
 * A `chat.postMessage` carries its outbox id in the message's metadata and is marked in flight in
 * the store before the call. When the answer is lost (the process killed between Slack's answer and
 * the record, a timeout, a broken connection), the next attempt first looks for the message in the
 * conversation (`findOutboxPost`) and adopts its ts rather than posting it again. The normal path
 * makes no extra Slack call: only an item found in flight is looked for. A DM to a user ID, or a
 * channel name never answered before, cannot be looked for: it is posted again, with a warning.
 */
export function createOutboxWorker(options: OutboxWorkerOptions): OutboxWorker {
  const { store, client, clock, logger } = options;
  const log = logger.child({ component: "outbox" });
  const botName = options.botName ?? "gpu-warden";
  const backoff = options.backoff ?? { initialMs: 1_000, maxMs: 5 * 60_000 };
  const maxUnexpected = options.maxUnexpectedAttempts ?? 5;
  const sleep = options.sleep ?? realSleep;

  let running = false;
  let loop: Promise<void> | undefined;
  let stopSignal = new AbortController();
  /** Aborted by a new message or by stop(): a wait for another conversation's not_before ends early. */
  let waitSignal = new AbortController();
  let wakeIdle: (() => void) | undefined;
  /** After a 429, nothing is sent before this instant. */
  let pausedUntilMs = 0;
  const conversations = new ConversationIndex();
  const drains = new Set<() => void>();

  const wake = () => {
    waitSignal.abort();
    const resolve = wakeIdle;
    wakeIdle = undefined;
    resolve?.();
  };

  const waitFor = async (ms: number) => {
    if (waitSignal.signal.aborted || stopSignal.signal.aborted) waitSignal = new AbortController();
    await sleep(ms, AbortSignal.any([waitSignal.signal, stopSignal.signal]));
  };

  const settleDrains = () => {
    if (drains.size === 0 || store.outbox.pendingCount() > 0) return;
    for (const resolve of drains) resolve();
    drains.clear();
  };

  const resolvePlaceholders = (item: OutboxItem): Resolution => {
    const args: Record<string, unknown> = { ...item.args };
    let threadDropped = false;
    for (const [key, value] of Object.entries(args)) {
      const alertId = placeholderId(value);
      if (alertId === undefined) {
        if (containsPlaceholder(value)) return { ok: false, reason: `unsupported $alertTs inside "${key}"` };
        continue;
      }
      const alert = store.alerts.byId(alertId);
      if (alert?.ts === null || alert?.ts === undefined) {
        if (key !== "thread_ts") {
          return {
            ok: false,
            reason: `alert ${alertId} has no Slack message (its post failed or never ran)`,
          };
        }
        delete args[key];
        threadDropped = true;
        continue;
      }
      args[key] = alert.ts;
      // NOTE: the message lives in the channel Slack answered with (an ID); the queued `channel`
      // may be a name such as "#gpu", which chat.update refuses.
      if (alert.channel !== null && (key === "ts" || key === "thread_ts")) {
        args[item.method === "files.uploadV2" ? "channel_id" : "channel"] = alert.channel;
      }
    }
    return { ok: true, args, threadDropped };
  };

  const call = async (method: string, args: Record<string, unknown>): Promise<Record<string, unknown>> => {
    if (method === "files.uploadV2") {
      const result = await client.filesUploadV2(reviveBuffers(args) as never);
      return result as unknown as Record<string, unknown>;
    }
    return (await client.apiCall(method, args)) as unknown as Record<string, unknown>;
  };

  const giveUp = (item: OutboxItem, code: string, detail: Record<string, unknown> = {}) => {
    const first = Array.isArray(detail.slackDetail) ? detail.slackDetail[0] : detail.reason;
    const why = typeof first === "string" ? `${code}: ${first.replace(/^\[ERROR\] /, "")}` : code;
    store.outbox.markDead(item.id, why, clock.now());
    options.onSetAside?.({ method: item.method, reason: code });
    const channel = stringArg(item.args.channel) ?? stringArg(item.args.channel_id);
    const hint = slackErrorHint(code, { botName, channel, needed: detail.needed as string | undefined });
    log.error(
      {
        outboxId: item.id,
        method: item.method,
        channel,
        alertId: item.alertId,
        slackError: code,
        hint,
        ...detail,
      },
      `Slack refused ${item.method} for good (${why}); message ${item.id} set aside${hint === undefined ? "" : `: ${hint}`}`,
    );
  };

  /** Channel names (`#gpu`) → the IDs Slack answered with, so a post to a name can be looked for. */
  const channelIds = new Map<string, string>();
  const channelIdOf = (channel: unknown): string | undefined => {
    if (typeof channel !== "string" || !isChannelName(channel)) return conversationId(channel);
    if (!channelIds.has(channel)) {
      const stored = store.meta.get(channelKey(channel));
      if (stored !== null) channelIds.set(channel, stored);
    }
    return channelIds.get(channel);
  };

  const record = (item: OutboxItem, args: Record<string, unknown>, result: Record<string, unknown>) => {
    const atMs = clock.now();
    store.transaction(() => {
      const ts = stringArg(result.ts);
      const channel = stringArg(result.channel) ?? stringArg(args.channel);
      if (item.role === "alert-post" && item.alertId !== null) {
        if (ts !== undefined && channel !== undefined) store.alerts.setTs(item.alertId, channel, ts);
      }
      const named = stringArg(args.channel);
      if (
        named !== undefined &&
        isChannelName(named) &&
        channel !== undefined &&
        channelIds.get(named) !== channel
      ) {
        store.meta.set(channelKey(named), channel);
        channelIds.set(named, channel);
      }
      store.outbox.markSent(item.id, atMs);
    });
  };

  /**
   * A call for this item began before (and was never recorded): the message Slack may have posted
   * then, found by its metadata; `undefined` when it is not there or cannot be looked for.
   */
  const findEarlierPost = async (
    item: OutboxItem,
    args: Record<string, unknown>,
    sinceMs: number,
  ): Promise<FoundPost | undefined> => {
    const channel = channelIdOf(args.channel);
    const context = { outboxId: item.id, alertId: item.alertId, channel: args.channel };
    if (channel === undefined) {
      log.warn(
        context,
        "a post may have reached Slack before a restart; it cannot be looked for, so it may appear twice",
      );
      return undefined;
    }
    try {
      const threadTs = stringArg(args.thread_ts);
      return await findOutboxPost(client, { channel, threadTs, item, sinceMs });
    } catch (error) {
      const failure = classifySlackFailure(error);
      if (failure.kind !== "permanent") throw error;
      const hint = slackErrorHint(failure.code, { botName, channel, needed: missingScope(error) });
      log.warn(
        { ...context, slackError: failure.code, hint },
        `could not look for a post that may have reached Slack before a restart (${failure.code}); posting it, so it may appear twice`,
      );
      return undefined;
    }
  };

  const deliver = async (item: OutboxItem): Promise<void> => {
    if (store.outbox.isSuperseded(item)) {
      store.outbox.markDead(item.id, "superseded", clock.now());
      log.debug({ outboxId: item.id, alertId: item.alertId }, "alert update superseded by a newer one");
      return;
    }
    if (item.role === "alert-post" && item.alertId !== null && store.alerts.byId(item.alertId)?.ts) {
      store.outbox.markDead(item.id, "already_posted", clock.now());
      log.warn({ outboxId: item.id, alertId: item.alertId }, "alert already posted; second post skipped");
      return;
    }
    const resolved = resolvePlaceholders(withLateNotice(item, clock.now()));
    if (!resolved.ok) {
      giveUp(item, "no_alert_message", { reason: resolved.reason });
      return;
    }
    if (resolved.threadDropped) {
      log.warn(
        { outboxId: item.id, alertId: item.alertId },
        "the alert message was never posted; posting this thread reply in the channel instead",
      );
    }
    const args = item.method === "chat.postMessage" ? withOutboxMetadata(resolved.args, item) : resolved.args;
    const traceable = args !== resolved.args;
    let posting = false;
    try {
      if (traceable) {
        const sinceMs = store.outbox.inFlightSince(item.id);
        const found = sinceMs === null ? undefined : await findEarlierPost(item, args, sinceMs);
        if (found !== undefined) {
          log.info(
            { outboxId: item.id, alertId: item.alertId, channel: found.channel, ts: found.ts },
            "found the message an interrupted post had already sent; not posting it again",
          );
          record(item, args, { ...found });
          return;
        }
        // NOTE: the first unrecorded attempt's time is kept: a late answer to it may still post.
        if (sinceMs === null) store.outbox.markInFlight(item.id, clock.now());
      }
      posting = true;
      record(item, args, await call(item.method, args));
    } catch (error) {
      const failure = classifySlackFailure(error);
      const nowMs = clock.now();
      if (traceable && posting && !mayHaveCompleted(failure)) store.outbox.clearInFlight(item.id);
      switch (failure.kind) {
        case "permanent":
          giveUp(item, failure.code, { needed: missingScope(error), slackDetail: platformDetail(error) });
          return;
        case "unexpected":
          if (item.attempts + 1 >= maxUnexpected) {
            giveUp(item, failure.code, { err: error });
            return;
          }
          store.outbox.retryLater(item.id, failure.code, nowMs + backoffMs(item.attempts));
          log.error(
            { err: error, outboxId: item.id, method: item.method },
            "unexpected error sending to Slack",
          );
          return;
        case "rate-limited":
          store.outbox.retryLater(item.id, failure.code, nowMs + failure.retryAfterMs);
          pausedUntilMs = Math.max(pausedUntilMs, nowMs + failure.retryAfterMs);
          log.warn(
            { outboxId: item.id, method: item.method, retryAfterMs: failure.retryAfterMs },
            "Slack rate limit: holding the outbox for Retry-After",
          );
          return;
        case "transient": {
          const waitMs = backoffMs(item.attempts);
          store.outbox.retryLater(item.id, failure.code, nowMs + waitMs);
          log.warn(
            {
              outboxId: item.id,
              method: item.method,
              slackError: failure.code,
              attempts: item.attempts + 1,
              waitMs,
            },
            failureLine(item.method, failure.timedOut, traceable),
          );
          return;
        }
        default:
          failure satisfies never;
      }
    }
  };

  const backoffMs = (attemptsBefore: number): number =>
    Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.min(attemptsBefore, 30));

  /** The next item to send now, or how long to wait for one (`null`: nothing is pending). */
  const pick = (): OutboxItem | { waitMs: number } | null => {
    const heads = conversations.heads(store.outbox.pendingSchedule(), (minId) =>
      store.outbox.pendingRoutes(minId),
    );
    if (heads.length === 0) return null;
    const nowMs = clock.now();
    if (pausedUntilMs > nowMs) return { waitMs: pausedUntilMs - nowMs };
    const due = heads.find((head) => head.notBeforeMs <= nowMs);
    if (due === undefined) return { waitMs: Math.min(...heads.map((head) => head.notBeforeMs)) - nowMs };
    return store.outbox.pendingById(due.id) ?? { waitMs: 0 };
  };

  const run = async (): Promise<void> => {
    while (running) {
      try {
        const next = pick();
        if (next === null) {
          settleDrains();
          await new Promise<void>((resolve) => {
            wakeIdle = resolve;
          });
          continue;
        }
        if ("waitMs" in next) {
          if (next.waitMs > 0) await waitFor(next.waitMs);
          continue;
        }
        await deliver(next);
      } catch (error) {
        log.error({ err: error }, "outbox worker step failed; trying again shortly");
        await waitFor(backoff.initialMs);
      }
    }
  };

  return {
    send(method: SlackMethod, args, sendOptions = {}) {
      store.outbox.enqueue(
        { method, args, alertId: sendOptions.alertId ?? null, role: sendOptions.role ?? "message" },
        clock.now(),
      );
      wake();
    },
    start() {
      if (running) return;
      running = true;
      stopSignal = new AbortController();
      const pending = store.outbox.pendingCount();
      if (pending > 0) log.info({ pending }, "outbox: resuming pending messages");
      loop = run();
    },
    async stop() {
      running = false;
      stopSignal.abort();
      wake();
      await loop;
      loop = undefined;
    },
    drain(timeoutMs = 10_000) {
      return new Promise<void>((resolve, reject) => {
        if (store.outbox.pendingCount() === 0) {
          resolve();
          return;
        }
        const timer = setTimeout(() => {
          drains.delete(done);
          const head = store.outbox.next();
          reject(
            new Error(
              `outbox not drained after ${timeoutMs} ms: ${store.outbox.pendingCount()} pending, head ${head?.method} #${head?.id} (${head?.attempts} attempts)`,
            ),
          );
        }, timeoutMs);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        drains.add(done);
      });
    },
  };
}

function failureLine(method: string, timedOut: boolean, traceable: boolean): string {
  if (!timedOut || !NOT_IDEMPOTENT.has(method)) return "Slack call failed; retrying after a back-off";
  if (traceable)
    return `${method} timed out; Slack may have completed it, so it is looked for before it is sent again`;
  return `${method} timed out; retrying — Slack may have completed it anyway, so it can appear twice`;
}

/** No answer came (a timeout, a broken connection, an error of our own): Slack may have done it. */
function mayHaveCompleted(failure: SlackFailure): boolean {
  if (failure.kind === "unexpected") return true;
  return failure.kind === "transient" && (failure.timedOut || failure.code === "request_failed");
}

/** A channel given by name (`#gpu`), not by a conversation or user ID. */
function isChannelName(channel: string): boolean {
  return conversationId(channel) === undefined && !/^[UW][A-Z0-9]+$/.test(channel);
}

function channelKey(name: string): string {
  return `slack.channel_id.${name}`;
}

/** Slack's own words on a refused call (`errors`, `response_metadata.messages`), when it gave any. */
function platformDetail(error: unknown): string[] | undefined {
  const data = (error as { data?: { errors?: unknown; response_metadata?: { messages?: unknown } } }).data;
  const detail = data?.errors ?? data?.response_metadata?.messages;
  return Array.isArray(detail) ? detail.map(String) : undefined;
}

/** The item without its `$ifLate` key, and with those blocks in when it is sent late (see {@link IfLate}). */
function withLateNotice(item: OutboxItem, nowMs: number): OutboxItem {
  const { $ifLate: late, ...args } = item.args as Record<string, unknown> & { $ifLate?: IfLate };
  if (late === undefined) return item;
  if (nowMs - item.createdAtMs > late.afterMs && Array.isArray(args.blocks)) {
    args.blocks = [...args.blocks.slice(0, 1), ...late.blocks, ...args.blocks.slice(1)];
  }
  return { ...item, args };
}

function placeholderId(value: unknown): number | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const keys = Object.keys(value);
  const id = (value as { $alertTs?: unknown }).$alertTs;
  return keys.length === 1 && typeof id === "number" ? id : undefined;
}

function containsPlaceholder(value: unknown): boolean {
  return typeof value === "object" && value !== null && JSON.stringify(value).includes('"$alertTs"');
}

function stringArg(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** Buffers queued as JSON come back as `{type:"Buffer", data:[…]}`: turn them into Buffers again. */
function reviveBuffers(args: Record<string, unknown>): Record<string, unknown> {
  const revive = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(revive);
    if (typeof value !== "object" || value === null) return value;
    const record = value as Record<string, unknown>;
    if (record.type === "Buffer" && Array.isArray(record.data)) return Buffer.from(record.data as number[]);
    return Object.fromEntries(Object.entries(record).map(([key, inner]) => [key, revive(inner)]));
  };
  return revive(args) as Record<string, unknown>;
}
