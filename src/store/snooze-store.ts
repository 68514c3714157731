import type { Database } from "better-sqlite3";
import type { Snooze } from "../domain/snooze.ts";

/** "Keep" on a host: no idle alert and no automatic stop until `untilMs`. */
export interface SnoozeStore {
  set(snooze: Snooze): void;
  /** The snooze in force at `atMs`, if any. */
  activeAt(host: string, atMs: number): Snooze | null;
  allActiveAt(atMs: number): Snooze[];
}

interface SnoozeRow {
  host: string;
  until_ms: number;
  by_user: string;
  set_ms: number;
}

const toSnooze = (row: SnoozeRow): Snooze => ({
  host: row.host,
  untilMs: row.until_ms,
  byUser: row.by_user,
  setAtMs: row.set_ms,
});

export function createSnoozeStore(db: Database): SnoozeStore {
  const upsert = db.prepare(
    `INSERT INTO snooze (host, until_ms, by_user, set_ms) VALUES (?, ?, ?, ?)
     ON CONFLICT (host) DO UPDATE SET until_ms = excluded.until_ms, by_user = excluded.by_user, set_ms = excluded.set_ms`,
  );
  const selectActive = db.prepare("SELECT * FROM snooze WHERE host = ? AND until_ms > ?");
  const selectAllActive = db.prepare("SELECT * FROM snooze WHERE until_ms > ? ORDER BY host");
  return {
    set: (snooze) => {
      upsert.run(snooze.host, snooze.untilMs, snooze.byUser, snooze.setAtMs);
    },
    activeAt: (host, atMs) => {
      const row = selectActive.get(host, atMs) as SnoozeRow | undefined;
      return row ? toSnooze(row) : null;
    },
    allActiveAt: (atMs) => (selectAllActive.all(atMs) as SnoozeRow[]).map(toSnooze),
  };
}
