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
