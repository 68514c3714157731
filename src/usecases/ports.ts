import type { IdleEpisodeState } from "../checks/idle-episode.ts";
import type { AlertResolution } from "../domain/alert-record.ts";
import type { LatestObservation } from "../domain/metrics.ts";
import type { OutboxRole } from "../domain/outbox-role.ts";
import type { AlertNote } from "./alerts/alert-words.ts";

/**
 * The contracts between the use-cases and the Slack side. The use-cases never call Slack directly:
 * everything they send goes through the {@link Notifier} (a durable outbox).
 */

/** A message as the outbox posts it: the fallback text and its Block Kit blocks (from a words port). */
export interface RenderedMessage {
  /** The notification and accessibility fallback. */
  text: string;
  blocks: unknown[];
}

/** A message for one person or a post whose blocks are optional (the views' `Reply`). */
export interface RenderedReply {
  text: string;
  blocks?: unknown[];
}

/** A Web API method the outbox may call. */
export type SlackMethod =
  | "chat.postMessage"
  | "chat.update"
  | "chat.postEphemeral"
  | "views.publish"
  | "files.uploadV2";

/** In outbox args: replaced by the alert message's ts when the item is sent (for `ts` / `thread_ts`). */
export interface AlertTsRef {
  $alertTs: number;
}

export function alertTs(alertId: number): AlertTsRef {
  return { $alertTs: alertId };
}

/**
 * In outbox args (key `$ifLate`): when the item reaches Slack more than `afterMs` after it was
 * queued (Slack was down or refusing), `blocks` are put after the message's first block, saying so.
 * The key itself is never sent.
 */
export interface IfLate {
  afterMs: number;
  blocks: unknown[];
}

export function ifLate(afterMs: number, blocks: unknown[]): IfLate {
  return { afterMs, blocks };
}

/**
 * Queues Web API calls in a durable outbox. Delivery keeps the order, survives Slack outages
 * (5xx, 429 + Retry-After, timeouts) and restarts, and loses nothing. DMs: `chat.postMessage` with
 * `channel` set to the user id.
 */
export interface Notifier {
  send(
    method: SlackMethod,
    args: Record<string, unknown>,
    options?: { alertId?: number; role?: OutboxRole },
  ): void;
}

/** The current monthly cost warden (the rotation issue completes this). */
export interface WardenLookup {
  current(atMs: number): string | null;
}

/** What the bot knows about the fleet right now, for status, stop re-checks and views. */
export interface FleetView {
  /** Host names known to the bot, sorted. */
  hosts(): string[];
  latest(host: string): LatestObservation | null;
  /** The idle-check state after the latest sweep. */
  state(host: string): IdleEpisodeState | null;
}

/** The alert lifecycle as other use-cases (stop, keep, claim) drive it. */
export interface AlertPort {
  /** Re-renders the host's open alert now (after a keep, a claim, a stop starting). */
  refresh(host: string): void;
  /** Resolves the host's open idle alert (if any) and re-renders it as resolved. */
  resolve(host: string, resolution: AlertResolution): void;
  /** Posts in the thread of the host's open (or latest) alert; in the channel when there is none. */
  postInThread(host: string, text: string, blocks?: unknown[]): void;
  /** Posts a host action's note (a keep, …) where {@link postInThread} would, in the channel's words. */
  postNote(host: string, note: AlertNote): void;
  /** DMs a host action's note to `user`, in their language (a start's outcome to whoever waits for the host). */
  tell(user: string, note: AlertNote): void;
}

/**
 * People's names as the workspace shows them (Slack display name, else real name), to name someone
 * in a message without notifying them. A user whose name cannot be found is left out of the map.
 */
export interface PeopleDirectory {
  names(users: readonly string[]): Promise<ReadonlyMap<string, string>>;
}
