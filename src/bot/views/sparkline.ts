/** The eight marks, lowest first: utilisation 0–12.5 % is `▁`, 87.5–100 % is `█`. */
export const SPARK_MARKS = "▁▂▃▄▅▆▇█";

/** The mark for a stretch without any utilisation reading: unknown, never drawn as idle. */
export const UNKNOWN_MARK = "?";

/** One mark per value: utilisation in % → `▁`…`█`, `null` (no reading) → `?`. */
export function sparkline(utilPcts: readonly (number | null)[]): string {
  let out = "";
  for (const utilPct of utilPcts) {
    if (utilPct === null || !Number.isFinite(utilPct)) out += UNKNOWN_MARK;
    else out += SPARK_MARKS[Math.min(7, Math.max(0, Math.floor(utilPct / 12.5)))];
  }
  return out;
}

/**
 * Utilisation readings of one GPU, averaged into `buckets` equal columns over `[fromMs, toMs)`:
 * each column is the mean of the readings in it, `null` when it has none (no sample or only
 * `null` readings).
 */
export function bucketUtil(
  readings: Iterable<{ atMs: number; utilPct: number | null }>,
  fromMs: number,
  toMs: number,
  buckets: number,
): (number | null)[] {
  const sums = new Array<number>(buckets).fill(0);
  const counts = new Array<number>(buckets).fill(0);
  const widthMs = (toMs - fromMs) / buckets;
  for (const { atMs, utilPct } of readings) {
    if (utilPct === null || atMs < fromMs || atMs >= toMs) continue;
    const column = Math.min(buckets - 1, Math.floor((atMs - fromMs) / widthMs));
    sums[column]! += utilPct;
    counts[column]! += 1;
  }
  return sums.map((sum, i) => (counts[i] === 0 ? null : sum / counts[i]!));
}
