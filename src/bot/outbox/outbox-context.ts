import type { webApi } from "@slack/bolt";
import type { Clock } from "../../shared/clock.ts";
import type { Logger } from "../../shared/logger.ts";
import type { BotStateStore } from "../../store/bot-state-store.ts";
import type { ChannelIds } from "./outbox-channel-ids.ts";

/** What delivering one outbox item needs from the worker that owns it. */
export interface OutboxContext {
  store: Pick<BotStateStore, "outbox" | "alerts" | "meta" | "transaction">;
  client: webApi.WebClient;
  clock: Clock;
  /** The worker's `component: "outbox"` logger. */
  log: Logger;
  /** Named in operator hints (`/invite @gpu-warden`). */
  botName: string;
  channelIds: ChannelIds;
  /** The wait before the next attempt after `attemptsBefore` failed ones. */
  backoffMs(attemptsBefore: number): number;
  /** An unexpected (non-Slack) error is retried this many times, then the item is given up. */
  maxUnexpected: number;
  onSetAside: ((setAside: { method: string; reason: string }) => void) | undefined;
  /** After a 429: nothing is sent before `untilMs`. */
  pauseUntil(untilMs: number): void;
}
