/**
 * Slack's rate limits as the emulator enforces them when asked (`slackLimits: true`): each Web API
 * method's tier, per app and workspace, over a sliding minute; and `chat.postMessage`'s special
 * limit of about one message a second per channel, with a short burst. A call over a limit is
 * answered as Slack does: HTTP 429, `Retry-After` in seconds, `{"ok":false,"error":"ratelimited"}`.
 */
const METHOD_TIERS: Readonly<Record<string, 1 | 2 | 3 | 4>> = {
  "chat.update": 3,
  "chat.postEphemeral": 4,
  "chat.delete": 3,
  "chat.getPermalink": 4,
  "conversations.open": 3,
  "conversations.info": 3,
  "conversations.join": 3,
  "conversations.history": 3,
  "conversations.replies": 3,
  "users.info": 4,
  "views.publish": 4,
  "views.open": 4,
  "views.push": 4,
  "views.update": 4,
  "files.getUploadURLExternal": 4,
  "files.completeUploadExternal": 4,
  "reactions.add": 3,
};

/** Calls a minute each tier allows (Slack's documented floor: 1+, 20+, 50+, 100+). */
const TIER_PER_MINUTE: Readonly<Record<1 | 2 | 3 | 4, number>> = { 1: 1, 2: 20, 3: 50, 4: 100 };

/** Posts to one channel: this many within {@link POST_BURST_WINDOW_MS} (about one a second). */
const POST_BURST = 3;
const POST_BURST_WINDOW_MS = 3_000;

const MINUTE_MS = 60_000;

/** The limits' sliding windows; `check` answers how long to wait, or `undefined` to let the call through. */
export class SlackRateLimits {
  readonly #seen = new Map<string, number[]>();

  /** The `Retry-After` (s) for this call, or `undefined` when it is within Slack's limits (then counted). */
  check(method: string, args: Record<string, unknown>, nowMs: number): number | undefined {
    if (method === "chat.postMessage") {
      const channel = typeof args.channel === "string" ? args.channel : "?";
      return this.#take(`post:${channel}`, POST_BURST, POST_BURST_WINDOW_MS, nowMs);
    }
    const tier = METHOD_TIERS[method];
    if (tier === undefined) return undefined;
    return this.#take(`method:${method}`, TIER_PER_MINUTE[tier], MINUTE_MS, nowMs);
  }

  #take(key: string, limit: number, windowMs: number, nowMs: number): number | undefined {
    const seen = (this.#seen.get(key) ?? []).filter((atMs) => nowMs - atMs < windowMs);
    this.#seen.set(key, seen);
    if (seen.length >= limit) return Math.max(1, Math.ceil((seen[0]! + windowMs - nowMs) / 1000));
    seen.push(nowMs);
    return undefined;
  }
}
