import type { Database } from "better-sqlite3";
import type { ClaimIdleRecord, GpuIdleRun } from "../domain/gpu-idle-run.ts";

/** The claims job's idle stretches, one record per claimed host (`claim_idle`). */
export interface ClaimIdleStore {
  all(): ClaimIdleRecord[];
  /** Records `record`, replacing the host's previous one. */
  put(record: ClaimIdleRecord): void;
  remove(host: string): void;
  /** Rows written since the store was created (not something a view shows). */
  rowsChanged(): number;
}

interface ClaimIdleRow {
  host: string;
  from_ms: number;
  read_up_to_ms: number;
  gpus: string;
}

export function createClaimIdleStore(db: Database): ClaimIdleStore {
  const upsert = db.prepare(
    `INSERT INTO claim_idle (host, from_ms, read_up_to_ms, gpus) VALUES (?, ?, ?, ?)
     ON CONFLICT (host) DO UPDATE SET from_ms = excluded.from_ms, read_up_to_ms = excluded.read_up_to_ms,
       gpus = excluded.gpus`,
  );
  const selectAll = db.prepare("SELECT * FROM claim_idle ORDER BY host");
  const deleteOne = db.prepare("DELETE FROM claim_idle WHERE host = ?");
  let rowsChanged = 0;
  return {
    all: () =>
      (selectAll.all() as ClaimIdleRow[]).map((row) => ({
        host: row.host,
        fromMs: row.from_ms,
        readUpToMs: row.read_up_to_ms,
        gpus: JSON.parse(row.gpus) as GpuIdleRun[],
      })),
    put: (record) => {
      rowsChanged += upsert.run(
        record.host,
        record.fromMs,
        record.readUpToMs,
        JSON.stringify(record.gpus),
      ).changes;
    },
    remove: (host) => {
      rowsChanged += deleteOne.run(host).changes;
    },
    rowsChanged: () => rowsChanged,
  };
}
