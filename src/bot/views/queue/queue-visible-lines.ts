/** How many lines around the reader's own are shown on each side when the list is long. */
const AROUND = 2;

/**
 * The lines of a long list that fit in `budget` characters and `maxLines` lines, whole lines only:
 * from the top, and always the reader's own (`mine`, -1 for none) with the lines around it; each
 * gap is one `more(count)` line ("… and N more").
 */
export function visibleLines(
  lines: readonly string[],
  mine: number,
  limits: { budget: number; maxLines: number },
  more: (count: number) => string,
): string[] {
  const windowStart = mine === -1 ? lines.length : Math.max(0, mine - AROUND);
  const windowEnd = mine === -1 ? lines.length : Math.min(lines.length, mine + AROUND + 1);
  const gapLine = more(lines.length).length + 1;
  let used =
    2 * gapLine + lines.slice(windowStart, windowEnd).reduce((sum, line) => sum + line.length + 1, 0);
  let count = windowEnd - windowStart;
  const fits = (line: string) => count < limits.maxLines && used + line.length + 1 <= limits.budget;
  let head = 0;
  while (head < windowStart && fits(lines[head]!)) {
    used += lines[head]!.length + 1;
    count++;
    head++;
  }
  let tail = windowEnd;
  if (head === windowStart) {
    while (tail < lines.length && fits(lines[tail]!)) {
      used += lines[tail]!.length + 1;
      count++;
      tail++;
    }
  }
  const out = lines.slice(0, head);
  if (head < windowStart) out.push(more(windowStart - head));
  out.push(...lines.slice(windowStart, tail));
  if (tail < lines.length) out.push(more(lines.length - tail));
  return out;
}
