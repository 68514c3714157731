import type { Database, Statement } from "better-sqlite3";

export type SqlValue = number | string | null;

/**
 * Rows buffered into multi-row INSERTs: `add` one value per column, in column order, row after
 * row; `flush()` before the transaction ends.
 */
export interface BatchInsert {
  add(value: SqlValue): void;
  flush(): void;
  /** Drops the rows not yet flushed (their transaction failed). */
  discard(): void;
}

/**
 * Appends rows to `table` with one multi-row INSERT per `rowsPerStatement` rows.
 *
 * NOTE: a better-sqlite3 `run()` costs about as much as a small append itself, so a poll cycle of
 * thousands of rows is dominated by statement calls; batching them makes a cycle cheaper than
 * SQLite's single-row insert loop. Values go into one preallocated array: no per-row garbage.
 */
export function createBatchInsert(
  db: Database,
  table: string,
  columns: readonly string[],
  rowsPerStatement: number,
): BatchInsert {
  const width = columns.length;
  const buffer: SqlValue[] = new Array<SqlValue>(rowsPerStatement * width).fill(null);
  let size = 0;
  const statements: Statement[] = [];
  const row = `(${columns.map(() => "?").join(", ")})`;
  const statementFor = (rows: number): Statement =>
    (statements[rows] ??= db.prepare(
      `INSERT INTO ${table} (${columns.join(", ")}) VALUES ${Array.from({ length: rows }, () => row).join(", ")}`,
    ));
  const flush = () => {
    if (size === 0) return;
    const filled = size;
    size = 0;
    if (filled % width !== 0) throw new Error(`${table}: a row has ${filled % width} of ${width} values`);
    statementFor(filled / width).run(filled === buffer.length ? buffer : buffer.slice(0, filled));
  };
  return {
    add(value) {
      buffer[size++] = value;
      if (size === buffer.length) flush();
    },
    flush,
    discard() {
      size = 0;
    },
  };
}
