/** One benchmark result, printed as the single `BENCH {json}` line the contract asks for. */
export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  baseline?: number | null;
  ratio?: number | null;
  [extra: string]: unknown;
}

export function report(result: BenchResult): void {
  process.stdout.write(`BENCH ${JSON.stringify(result)}\n`);
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
