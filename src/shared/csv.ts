import { stringify } from "csv-stringify/sync";

/** One CSV cell: empty for `null` and for a number that is not finite; booleans are `yes`/`no`. */
export type CsvCell = string | number | boolean | null;

const PLAIN_NUMBER = /^-?\d+(?:\.\d+)?$/;
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * RFC 4180 text through csv-stringify: a header row, `\r\n` after every record, a field quoted when
 * it holds a comma, a quote or a line break (a quote doubled). A text cell that a spreadsheet would
 * run as a formula (`=`, `+`, `-`, `@`, tab, CR first) is prefixed with `'`; numbers, and text that
 * is a plain number, are left alone.
 */
export function toCsv(header: readonly string[], rows: Iterable<readonly CsvCell[]>): string {
  const parts = [stringifyRecords([header])];
  let chunk: (readonly CsvCell[])[] = [];
  for (const row of rows) {
    chunk.push(row);
    if (chunk.length === CHUNK_ROWS) {
      parts.push(stringifyRecords(chunk));
      chunk = [];
    }
  }
  if (chunk.length > 0) parts.push(stringifyRecords(chunk));
  return parts.join("");
}

/**
 * Rows are turned into text this many at a time, so that a large table (80,000 GPUs' rows) is never
 * held as cells and as text at once; every record ends with its delimiter, so the parts join as one.
 */
const CHUNK_ROWS = 1_000;

/**
 * The records as csv-stringify writes them with {@link STRINGIFY_OPTIONS}: a record whose cells need
 * no quoting (numbers, booleans, `null`, text without a comma, quote or line break) is joined here
 * (80,000 GPUs' rows, 7.5 MB, in a fifth of the time), any other through csv-stringify.
 */
function stringifyRecords(records: readonly (readonly CsvCell[])[]): string {
  const lines: string[] = [];
  const texts: string[] = [];
  for (const record of records)
    lines.push(plainRecord(record, texts) ?? stringify([record as CsvCell[]], STRINGIFY_OPTIONS));
  return lines.join("");
}

/** The record's text when no cell needs quoting (its cells' texts put in `texts`); `null` otherwise. */
function plainRecord(record: readonly CsvCell[], texts: string[]): string | null {
  texts.length = record.length;
  for (let i = 0; i < record.length; i++) {
    const text = plainCell(record[i]!);
    if (text === null) return null;
    texts[i] = text;
  }
  return `${texts.join(",")}\r\n`;
}

/** A cell's text as the cast below makes it; `null` when it needs quoting. */
function plainCell(cell: CsvCell): string | null {
  if (cell === null || cell === undefined) return "";
  if (typeof cell === "number") return Number.isFinite(cell) ? String(cell) : "";
  if (typeof cell === "boolean") return cell ? "yes" : "no";
  const text = castText(cell);
  return NEEDS_QUOTES.test(text) ? null : text;
}

const NEEDS_QUOTES = /[,"\r\n]/;

function castText(value: string): string {
  return FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
}

const STRINGIFY_OPTIONS: Parameters<typeof stringify>[1] = {
  record_delimiter: "windows",
  // NOTE: csv-stringify quotes a field with the record delimiter (`\r\n`) in it, not one with a
  // lone `\n` or `\r`, which RFC 4180 readers would still split on.
  quoted_match: /[\r\n]/,
  cast: {
    boolean: (value) => (value ? "yes" : "no"),
    number: (value) => (Number.isFinite(value) ? String(value) : ""),
    string: castText,
  },
};
