/**
 * Utilisation readings of one GPU, averaged into `buckets` equal columns over `[fromMs, toMs)`:
 * each column is the mean of the readings in it, `null` when it has none (no sample or only
 * `null` readings). With `holdMs`, a reading also stands for the time after it, up to `holdMs`
 * (the store's sample span: two poll intervals): a column without a reading of its own takes the
 * last reading before it that still covers its start, so polls as far apart as the columns are
 * wide never leave a gap that is not there.
 */
export function bucketUtil(
  readings: Iterable<{ atMs: number; utilPct: number | null }>,
  fromMs: number,
  toMs: number,
  buckets: number,
  holdMs = 0,
): (number | null)[] {
  const sums = new Array<number>(buckets).fill(0);
  const counts = new Array<number>(buckets).fill(0);
  const widthMs = (toMs - fromMs) / buckets;
  const known: { atMs: number; utilPct: number }[] = [];
  for (const { atMs, utilPct } of readings) {
    if (utilPct === null) continue;
    known.push({ atMs, utilPct });
    if (atMs < fromMs || atMs >= toMs) continue;
    const column = Math.min(buckets - 1, Math.floor((atMs - fromMs) / widthMs));
    sums[column]! += utilPct;
    counts[column]! += 1;
  }
  return sums.map((sum, i) => {
    if (counts[i] !== 0) return sum / counts[i]!;
    const startMs = fromMs + i * widthMs;
    const before = lastBefore(known, startMs);
    return before !== null && startMs - before.atMs < holdMs ? before.utilPct : null;
  });
}

function lastBefore<T extends { atMs: number }>(readings: readonly T[], ms: number): T | null {
  let found: T | null = null;
  for (const reading of readings) {
    if (reading.atMs < ms && (found === null || reading.atMs > found.atMs)) found = reading;
  }
  return found;
}
