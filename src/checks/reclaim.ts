/**
 * The reclaim rule: a host whose mean utilisation over the last 30 days is below 15 % becomes
 * *pending reclaim*; 14 days of observation follow; a day of sustained use clears it; at the end the
 * cost warden decides (stop, lend, keep). Pure: the use-case feeds it rollup totals and day means.
 *
 * Utilisation is averaged over the GPU-minutes that have a reading: unknown time is neither use nor
 * idleness. A window (or a day) with too few readings is not judged at all.
 */

export interface ReclaimPolicy {
  /** A host below this 30-day mean becomes pending reclaim. */
  belowPct: number;
  windowDays: number;
  observeDays: number;
  /** A day at or above this mean clears a pending reclaim ("sustained use"). */
  sustainedPct: number;
  /** Share of the window's GPU-minutes that need a reading before the window is judged, 0–1. */
  minWindowCoverage: number;
  /** Share of a day's GPU-minutes that need a reading before the day can clear a reclaim, 0–1. */
  minDayCoverage: number;
}

export const DEFAULT_RECLAIM: ReclaimPolicy = {
  belowPct: 15,
  windowDays: 30,
  observeDays: 14,
  sustainedPct: 15,
  minWindowCoverage: 0.5,
  minDayCoverage: 0.25,
};

/** Minutes of one GPU (or a host's GPUs together) over a span. */
export interface UtilMinutes {
  /** Σ utilisation × minutes with a reading, in %·minutes. */
  utilPctMinutes: number;
  /** Minutes with a reading. */
  knownMinutes: number;
  /** Minutes of the span × GPUs: what full coverage would be. */
  spanMinutes: number;
}

/** Mean utilisation over the minutes with a reading; `null` with none. */
export function meanPct(minutes: UtilMinutes): number | null {
  return minutes.knownMinutes > 0 ? minutes.utilPctMinutes / minutes.knownMinutes : null;
}

export function coverage(minutes: UtilMinutes): number {
  return minutes.spanMinutes > 0 ? minutes.knownMinutes / minutes.spanMinutes : 0;
}

/** One local day of a host during observation. */
export interface ReclaimDay {
  dayStartMs: number;
  minutes: UtilMinutes;
}

/** The host's open reclaim case, if any. */
export interface OpenReclaim {
  state: "pending" | "due";
  startedAtMs: number;
  observeUntilMs: number;
}

export interface ReclaimInput {
  host: string;
  /** When the store first saw the host. */
  firstSeenMs: number;
  open: OpenReclaim | null;
  /** When the host's last case ended (cleared or decided): no new case for a window after that. */
  lastEndedAtMs: number | null;
  /** The host's GPUs over the last `windowDays`. */
  window: UtilMinutes;
  /** Complete local days since the open case started, oldest first (earlier days are ignored). */
  days: readonly ReclaimDay[];
  nowMs: number;
}

export type ReclaimStep =
  | {
      kind: "none";
      why:
        | "no-case"
        | "observing"
        | "awaiting-decision"
        | "too-new"
        | "cooling-off"
        | "too-little-data"
        | "in-use";
    }
  | { kind: "start"; windowMeanPct: number; observeUntilMs: number }
  | { kind: "clear"; dayStartMs: number; dayMeanPct: number }
  | { kind: "due" };

const DAY_MS = 86_400_000;

export function reclaimStep(input: ReclaimInput, policy: ReclaimPolicy = DEFAULT_RECLAIM): ReclaimStep {
  const { open, nowMs } = input;
  if (open !== null) {
    for (const day of input.days) {
      const dayMean = meanPct(day.minutes);
      if (
        day.dayStartMs >= open.startedAtMs &&
        dayMean !== null &&
        dayMean >= policy.sustainedPct &&
        coverage(day.minutes) >= policy.minDayCoverage
      ) {
        return { kind: "clear", dayStartMs: day.dayStartMs, dayMeanPct: dayMean };
      }
    }
    if (open.state === "pending" && nowMs >= open.observeUntilMs) return { kind: "due" };
    return { kind: "none", why: open.state === "pending" ? "observing" : "awaiting-decision" };
  }
  const windowMs = policy.windowDays * DAY_MS;
  if (input.lastEndedAtMs !== null && nowMs - input.lastEndedAtMs < windowMs) {
    return { kind: "none", why: "cooling-off" };
  }
  if (nowMs - input.firstSeenMs < windowMs) return { kind: "none", why: "too-new" };
  const mean = meanPct(input.window);
  if (mean === null || coverage(input.window) < policy.minWindowCoverage) {
    return { kind: "none", why: "too-little-data" };
  }
  if (mean >= policy.belowPct) return { kind: "none", why: "in-use" };
  return { kind: "start", windowMeanPct: mean, observeUntilMs: nowMs + policy.observeDays * DAY_MS };
}
