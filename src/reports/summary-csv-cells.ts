import type { MessageId } from "../messages/catalog.ts";

/** The summary CSVs' column titles that take no argument. */
export type CsvColumnId = Exclude<
  Extract<MessageId, `csv.col.${string}`>,
  "csv.col.idleCost" | "csv.col.claimIdleCost" | "csv.col.saved" | "csv.col.dayUtilPct"
>;

/** A percentage cell: one decimal. */
export function pct(value: number | null): number | null {
  return round(value, 1);
}

/** A duration-in-hours cell: two decimals. */
export function hours(value: number): number {
  return round(value, 2)!;
}

/** A money cell: two decimals. */
export function money(value: number | null): number | null {
  return round(value, 2);
}

/** `value` rounded to `digits` decimals; `null` stays `null` (an empty cell). */
export function round(value: number | null, digits: number): number | null {
  if (value === null) return null;
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** Code-unit order (the same in every locale). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
