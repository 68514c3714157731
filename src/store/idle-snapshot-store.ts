import type { Database } from "better-sqlite3";
import type { IdleSnapshotRow } from "../domain/idle-snapshot.ts";

/** The idle states a sweep left, one row per host (`idle_snapshot`). */
export interface IdleSnapshotStore {
  all(): IdleSnapshotRow[];
  /** Records each row, replacing the host's previous one. */
  putAll(rows: readonly IdleSnapshotRow[]): void;
  /** Deletes the rows whose latest sample is older than `beforeMs`; returns how many. */
  deleteOlderThan(beforeMs: number): number;
  /** Rows written since the store was created (not something a view shows). */
  rowsChanged(): number;
}

interface SnapshotRow {
  host: string;
  at_ms: number;
  policy: string;
  state: string;
}

export function createIdleSnapshotStore(db: Database): IdleSnapshotStore {
  const upsert = db.prepare(
    `INSERT INTO idle_snapshot (host, at_ms, policy, state) VALUES (?, ?, ?, ?)
     ON CONFLICT (host) DO UPDATE SET at_ms = excluded.at_ms, policy = excluded.policy, state = excluded.state`,
  );
  const selectAll = db.prepare("SELECT host, at_ms, policy, state FROM idle_snapshot");
  const deleteOlder = db.prepare("DELETE FROM idle_snapshot WHERE at_ms < ?");
  let rowsChanged = 0;
  const putAll = db.transaction((rows: readonly IdleSnapshotRow[]) => {
    for (const row of rows) rowsChanged += upsert.run(row.host, row.atMs, row.policy, row.state).changes;
  });
  return {
    all: () =>
      (selectAll.all() as SnapshotRow[]).map((row) => ({
        host: row.host,
        atMs: row.at_ms,
        policy: row.policy,
        state: row.state,
      })),
    putAll: (rows) => {
      if (rows.length > 0) putAll(rows);
    },
    deleteOlderThan: (beforeMs) => deleteOlder.run(beforeMs).changes,
    rowsChanged: () => rowsChanged,
  };
}
