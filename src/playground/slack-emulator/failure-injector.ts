import type { Clock } from "../../shared/clock.ts";
import type { SlackRateLimits } from "./slack-rate-limits.ts";

/**
 * How an injected failure answers:
 * - `status`: that HTTP status (e.g. 503, or 429 with `retryAfterS` → `Retry-After` header);
 * - `error`: HTTP 200 with `{ok:false, error}` (e.g. `internal_error`, `fatal_error`);
 * - `hang`: never answers (until the emulator closes);
 * - `hangAfter`: does what the call asks (a post is posted), then never answers: the answer is
 *   lost, as when a connection breaks after Slack took the message (a Web API method; elsewhere `hang`);
 * - `delayMs`: answers normally after that long.
 */
export type FailureMode =
  | { status: number; retryAfterS?: number }
  | { error: string }
  | { hang: true }
  | { hangAfter: true }
  | { delayMs: number };

/**
 * Which calls a rule matches: a Web API method name, `*` for all of them, or `response_url` /
 * `upload`; or a method and argument values, e.g. `{ method: "chat.postMessage", where: { channel: "C1" } }`
 * (one conversation failing while the others work).
 */
export type FailureTarget = string | { method: string; where: Record<string, string> };

export interface FailureRule {
  readonly target: FailureTarget;
  readonly mode: FailureMode;
  /** Calls this rule answered. */
  hits: number;
  /** Stop the rule now. */
  remove(): void;
}

interface ActiveRule {
  public: FailureRule;
  remaining: number | undefined;
  untilMs: number | undefined;
  removed: boolean;
}

interface RateLimit {
  target: FailureTarget;
  limit: number;
  windowMs: number;
  retryAfterS: number;
  seenAtMs: number[];
}

/** Failure rules the HTTP layer consults before answering a call; windows use the injected clock. */
export class FailureInjector {
  readonly #clock: Clock;
  #rules: ActiveRule[] = [];
  #limits: RateLimit[] = [];
  readonly #slackLimits: SlackRateLimits | undefined;

  /** With `slackLimits`, Slack's own rate limits answer 429 after the injected rules. */
  constructor(clock: Clock, slackLimits?: SlackRateLimits) {
    this.#clock = clock;
    this.#slackLimits = slackLimits;
  }

  /** Answer the next `times` matching calls with `mode`. */
  failNext(target: FailureTarget, mode: FailureMode, times = 1): FailureRule {
    return this.#add(target, mode, times, undefined);
  }

  /** Answer every matching call with `mode` for the next `durationMs`. */
  failFor(target: FailureTarget, mode: FailureMode, durationMs: number): FailureRule {
    return this.#add(target, mode, undefined, this.#clock.now() + durationMs);
  }

  /** Answer 429 + `Retry-After` once more than `limit` calls arrived within `windowMs` (sliding). */
  rateLimit(target: FailureTarget, limit: number, windowMs: number, retryAfterS: number): void {
    this.#limits.push({ target, limit, windowMs, retryAfterS, seenAtMs: [] });
  }

  clear(): void {
    for (const rule of this.#rules) rule.removed = true;
    this.#rules = [];
    this.#limits = [];
  }

  /** The failure for this call, if any (consumes one use of a counted rule). */
  next(name: string, isApiMethod: boolean, args: Record<string, unknown> = {}): FailureMode | undefined {
    const nowMs = this.#clock.now();
    this.#rules = this.#rules.filter(
      (r) =>
        !r.removed &&
        (r.remaining === undefined || r.remaining > 0) &&
        (r.untilMs === undefined || nowMs < r.untilMs),
    );
    const rule = this.#rules.find((r) => matches(r.public.target, name, isApiMethod, args));
    if (rule !== undefined) {
      if (rule.remaining !== undefined) rule.remaining -= 1;
      rule.public.hits += 1;
      return rule.public.mode;
    }
    for (const limit of this.#limits) {
      if (!matches(limit.target, name, isApiMethod, args)) continue;
      limit.seenAtMs = limit.seenAtMs.filter((atMs) => nowMs - atMs < limit.windowMs);
      if (limit.seenAtMs.length >= limit.limit) return { status: 429, retryAfterS: limit.retryAfterS };
      limit.seenAtMs.push(nowMs);
    }
    const retryAfterS = isApiMethod ? this.#slackLimits?.check(name, args, nowMs) : undefined;
    return retryAfterS === undefined ? undefined : { status: 429, retryAfterS };
  }

  #add(
    target: FailureTarget,
    mode: FailureMode,
    times: number | undefined,
    untilMs: number | undefined,
  ): FailureRule {
    const active: ActiveRule = {
      public: {
        target,
        mode,
        hits: 0,
        remove: () => {
          active.removed = true;
        },
      },
      remaining: times,
      untilMs,
      removed: false,
    };
    this.#rules.push(active);
    return active.public;
  }
}

function matches(
  target: FailureTarget,
  name: string,
  isApiMethod: boolean,
  args: Record<string, unknown>,
): boolean {
  if (typeof target !== "string") {
    return (
      target.method === name && Object.entries(target.where).every(([key, value]) => args[key] === value)
    );
  }
  return target === name || (target === "*" && isApiMethod);
}
