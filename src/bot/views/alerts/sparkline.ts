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
