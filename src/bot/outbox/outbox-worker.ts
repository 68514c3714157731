import bolt, { type webApi } from "@slack/bolt";
import type { Clock } from "../../shared/clock.ts";
import type { Logger } from "../../shared/logger.ts";
import type { BotStateStore } from "../../store/bot-state-store.ts";
import type { Notifier, SlackMethod } from "../../usecases/ports.ts";
import { boltLogger } from "../transport/bolt-logger.ts";
import { createLeanFetch } from "../transport/lean-fetch.ts";
import { withEmphasisBoundaries } from "../views/emphasis-boundaries.ts";
import { ChannelIds } from "./outbox-channel-ids.ts";
import type { OutboxContext } from "./outbox-context.ts";
import { ConversationIndex } from "./outbox-conversation.ts";
import { deliverOutboxItem } from "./outbox-deliver.ts";
import { waitForDrain } from "./outbox-drain.ts";
import { OutboxFlights } from "./outbox-flights.ts";
import { ChannelPacer, type POST_INTERVAL_MS } from "./outbox-pacing.ts";
import { type PickedItem, pickOutboxItem } from "./outbox-pick.ts";
import { backoffDelayMs, realSleep, type Sleep } from "./outbox-sleep.ts";
import { OutboxWaker } from "./outbox-waker.ts";

const { WebClient } = bolt.webApi;

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
  /** Calls in flight at once, each to a different conversation. Default 8. */
  concurrency?: number;
  /**
   * The least time between two posts to one channel: Slack's {@link POST_INTERVAL_MS} against Slack,
   * 0 against a stand-in that enforces no limit (whose clock may stand still).
   */
  postIntervalMs: number;
  /** Called once for each message set aside for good (e.g. to count it on `/metrics`). */
  onSetAside?: (setAside: { method: string; reason: string }) => void;
}

export interface OutboxWorker extends Notifier {
  /** Starts delivering, beginning with what a previous run left pending in the database. */
  start(): void;
  /** Stops after the calls in flight (if any) have finished and been recorded. */
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

/**
 * Delivers the durable outbox to Slack in order within each conversation ({@link conversationOf}:
 * an alert with its updates and thread replies, a thread, a channel or DM, a Home tab), the oldest
 * due item first, several conversations at once (`concurrency`), posts to one channel spaced
 * `postIntervalMs` apart (Slack's per-channel limit). A call that hangs or a retriable failure holds
 * its own conversation only (an alert is never edited before it is posted, thread replies keep
 * their order), never the others. 429 holds every
 * conversation for `Retry-After` (Slack's limits are per method and app); 5xx, timeouts and network
 * errors back off exponentially up to a cap; errors Slack will never accept (`channel_not_found`,
 * `not_in_channel`, `invalid_blocks`…) set the item aside with one log line that says how to fix it,
 * and its conversation moves on.
 *
 * A `chat.postMessage` carries its outbox id in the message's metadata and is marked in flight in
 * the store before the call. When the answer is lost (the process killed between Slack's answer and
 * the record, a timeout, a broken connection), the next attempt first looks for the message in the
 * conversation (`findOutboxPost`) and adopts its ts rather than posting it again. The normal path
 * makes no extra Slack call: only an item found in flight is looked for. A DM to a user ID is looked
 * for in the app's DM with them (`conversations.open`); a channel name never answered before cannot
 * be looked for: it is posted again, with a warning. A `files.uploadV2` (a file share carries no
 * metadata) is marked in flight the same way and looked for as the bot's message whose files have
 * exactly its file names (`findEarlierUpload`).
 */
export function createOutboxWorker(options: OutboxWorkerOptions): OutboxWorker {
  const { store, clock, logger } = options;
  const log = logger.child({ component: "outbox" });
  const backoff = options.backoff ?? { initialMs: 1_000, maxMs: 5 * 60_000 };
  const sleep = options.sleep ?? realSleep;
  let running = false;
  let loop: Promise<void> | undefined;
  let stopSignal = new AbortController();
  const waker = new OutboxWaker(sleep);
  /** After a 429, nothing is sent before this instant. */
  let pausedUntilMs = 0;
  const conversations = new ConversationIndex();
  const flights = new OutboxFlights(new ChannelPacer(options.postIntervalMs));
  const concurrency = options.concurrency ?? 8;
  const drains = new Set<() => void>();
  const ctx = contextOf(options, log, backoff, (untilMs) => {
    pausedUntilMs = Math.max(pausedUntilMs, untilMs);
  });

  const wake = () => waker.wake();
  const waitFor = (ms: number) => waker.waitFor(ms, stopSignal.signal);

  const settleDrains = () => {
    if (drains.size === 0 || store.outbox.pendingCount() > 0) return;
    for (const resolve of drains) resolve();
    drains.clear();
  };

  const launch = ({ item, head }: PickedItem) => {
    const deliver = () =>
      deliverOutboxItem(ctx, item).catch((error: unknown) => {
        log.error({ err: error, outboxId: item.id }, "outbox delivery failed; trying again shortly");
        pausedUntilMs = Math.max(pausedUntilMs, clock.now() + backoff.initialMs);
        return false;
      });
    flights.launch(head, () => clock.now(), deliver, wake);
  };

  const idle = () => waker.idle();

  const run = async (): Promise<void> => {
    while (running) {
      try {
        if (flights.size >= concurrency) {
          await idle();
          continue;
        }
        const gate = { busy: flights.busy(), pacer: flights.pacer };
        const next = pickOutboxItem(store.outbox, conversations, clock.now(), pausedUntilMs, gate);
        if (next === null || next === "busy") {
          if (next === null && flights.size === 0) settleDrains();
          await idle();
          continue;
        }
        if ("waitMs" in next) {
          if (next.waitMs > 0) await waitFor(next.waitMs);
          continue;
        }
        launch(next);
      } catch (error) {
        log.error({ err: error }, "outbox worker step failed; trying again shortly");
        await waitFor(backoff.initialMs);
      }
    }
    await flights.settled();
  };

  return {
    send(method: SlackMethod, args, sendOptions = {}) {
      store.outbox.enqueue(
        {
          method,
          args: withEmphasisBoundaries(args),
          alertId: sendOptions.alertId ?? null,
          role: sendOptions.role ?? "message",
        },
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
      return waitForDrain(store.outbox, drains, timeoutMs);
    },
  };
}

function contextOf(
  options: OutboxWorkerOptions,
  log: Logger,
  backoff: { initialMs: number; maxMs: number },
  pauseUntil: (untilMs: number) => void,
): OutboxContext {
  const { store, client, clock } = options;
  return {
    store,
    client,
    clock,
    log,
    botName: options.botName ?? "gpu-warden",
    channelIds: new ChannelIds(store.meta),
    backoffMs: (attemptsBefore) => backoffDelayMs(backoff, attemptsBefore),
    maxUnexpected: options.maxUnexpectedAttempts ?? 5,
    onSetAside: options.onSetAside,
    pauseUntil,
  };
}
