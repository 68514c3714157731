/** Waits `ms`, or less when `signal` aborts (never rejects). */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

/**
 * Real timers, at most a second at a time: the loop then re-reads the clock, so a clock that jumps
 * (a `ManualClock` in tests and the playground) is followed within a second.
 */
export const realSleep: Sleep = (ms, signal) =>
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

/** Back-off after `attemptsBefore` failed attempts: `initialMs × 2^attemptsBefore`, at most `maxMs`. */
export function backoffDelayMs(
  backoff: { initialMs: number; maxMs: number },
  attemptsBefore: number,
): number {
  return Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.min(attemptsBefore, 30));
}
