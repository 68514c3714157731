import type { Database } from "better-sqlite3";
import type { DoneMark } from "../domain/done-mark.ts";

/** *Done with mine* marks, per host and person (the latest press counts). */
export interface DoneMarkStore {
  mark(mark: DoneMark): void;
  /** The marks on the host, oldest first. */
  onHost(host: string): DoneMark[];
}

interface DoneMarkRow {
  host: string;
  user: string;
  alert_id: number;
  at_ms: number;
  pids: string;
}

const toMark = (row: DoneMarkRow): DoneMark => ({
  host: row.host,
  user: row.user,
  alertId: row.alert_id,
  atMs: row.at_ms,
  pids: JSON.parse(row.pids) as number[],
});

export function createDoneMarkStore(db: Database): DoneMarkStore {
  const upsert = db.prepare(
    `INSERT INTO done_mark (host, user, alert_id, at_ms, pids) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (host, user) DO UPDATE SET
       alert_id = excluded.alert_id, at_ms = excluded.at_ms, pids = excluded.pids`,
  );
  const selectOnHost = db.prepare("SELECT * FROM done_mark WHERE host = ? ORDER BY at_ms, user");
  return {
    mark: (mark) => {
      upsert.run(mark.host, mark.user, mark.alertId, mark.atMs, JSON.stringify(mark.pids));
    },
    onHost: (host) => (selectOnHost.all(host) as DoneMarkRow[]).map(toMark),
  };
}
