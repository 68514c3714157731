import type { MetaStore } from "../../store/meta-store.ts";
import { conversationId } from "./outbox-recovery.ts";

/** Channel names (`#gpu`) → the IDs Slack answered with, so a post to a name can be looked for. */
export class ChannelIds {
  readonly #known = new Map<string, string>();
  readonly #meta: Pick<MetaStore, "get" | "set">;

  constructor(meta: Pick<MetaStore, "get" | "set">) {
    this.#meta = meta;
  }

  /** The conversation ID `channel` stands for, when it is one or a name Slack answered before. */
  idOf(channel: unknown): string | undefined {
    if (typeof channel !== "string" || !isChannelName(channel)) return conversationId(channel);
    if (!this.#known.has(channel)) {
      const stored = this.#meta.get(channelKey(channel));
      if (stored !== null) this.#known.set(channel, stored);
    }
    return this.#known.get(channel);
  }

  /** Keeps the ID Slack answered for a post to `named` (call inside the store's transaction). */
  remember(named: string | undefined, channel: string | undefined): void {
    if (named === undefined || !isChannelName(named) || channel === undefined) return;
    if (this.#known.get(named) === channel) return;
    this.#meta.set(channelKey(named), channel);
    this.#known.set(named, channel);
  }
}

/** A channel given by name (`#gpu`), not by a conversation or user ID. */
function isChannelName(channel: string): boolean {
  return conversationId(channel) === undefined && !/^[UW][A-Z0-9]+$/.test(channel);
}

function channelKey(name: string): string {
  return `slack.channel_id.${name}`;
}
