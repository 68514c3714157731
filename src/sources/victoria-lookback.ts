/** VictoriaMetrics' default `-search.latencyOffset`. */
const DEFAULT_LATENCY_OFFSET_MS = 30_000;

const GO_UNIT_MS: Record<string, number> = {
  h: 3_600_000,
  m: 60_000,
  s: 1000,
  ms: 1,
  us: 0.001,
  µs: 0.001,
  ns: 1e-6,
};

/**
 * The `max_lookback` (whole seconds) under which VictoriaMetrics' instant selectors hold no sample older
 * than `staleAfterS` before the poll's time, from the flags its `/flags` lists; null when none does
 * (then the FB_USED heartbeat checks each sample's age).
 * NOTE: a query for about "now" is evaluated `-search.latencyOffset` (30 s by default) earlier, and its
 * look-back window ends there: the offset comes off `staleAfterS`. A query further from the engine's now
 * is not moved, and a sample between `staleAfterS` − offset and `staleAfterS` old is then no reading:
 * unknown, never idle.
 */
export function victoriaMaxLookbackSeconds(
  flags: Record<string, string>,
  staleAfterS: number,
): number | null {
  const offset = flags["search.latencyOffset"];
  const offsetMs = offset === undefined ? DEFAULT_LATENCY_OFFSET_MS : parseGoDurationMs(offset);
  if (offsetMs === null) return null;
  const seconds = Math.floor((staleAfterS * 1000 - offsetMs) / 1000);
  return seconds >= 1 ? seconds : null;
}

/** Go's `time.Duration` text (`30s`, `1m30s`, `500ms`, `0s`) → milliseconds; null when it is not one. */
export function parseGoDurationMs(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === "0") return 0;
  if (!/^(\d+(\.\d+)?(h|ms|us|µs|ns|m|s))+$/.test(trimmed)) return null;
  let total = 0;
  for (const match of trimmed.matchAll(/(\d+(?:\.\d+)?)(h|ms|us|µs|ns|m|s)/g)) {
    total += Number(match[1]) * (GO_UNIT_MS[match[2]!] ?? 0);
  }
  return total;
}
