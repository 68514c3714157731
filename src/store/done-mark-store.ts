import type { Database } from "better-sqlite3";
import type { DoneMark } from "../domain/done-mark.ts";

/** *Done with mine* marks, per idle alert and person (the latest press counts). */
export interface DoneMarkStore {
  mark(mark: DoneMark): void;
  /** The marks on the alert, oldest first. */
  onAlert(alertId: number): DoneMark[];
}

interface DoneMarkRow {
  alert_id: number;
  user: string;
  host: string;
  at_ms: number;
}

const toMark = (row: DoneMarkRow): DoneMark => ({
  alertId: row.alert_id,
  host: row.host,
  user: row.user,
  atMs: row.at_ms,
});

export function createDoneMarkStore(db: Database): DoneMarkStore {
  const upsert = db.prepare(
    `INSERT INTO done_mark (alert_id, user, host, at_ms) VALUES (?, ?, ?, ?)
     ON CONFLICT (alert_id, user) DO UPDATE SET at_ms = excluded.at_ms`,
  );
  const selectOnAlert = db.prepare("SELECT * FROM done_mark WHERE alert_id = ? ORDER BY at_ms, user");
  return {
    mark: (mark) => {
      upsert.run(mark.alertId, mark.user, mark.host, mark.atMs);
    },
    onAlert: (alertId) => (selectOnAlert.all(alertId) as DoneMarkRow[]).map(toMark),
  };
}
