import type { Database } from "better-sqlite3";

/** A completed slot of a scheduled job. */
export interface JobRun {
  name: string;
  slotMs: number;
  /** The slot's wall-clock time in the job's zone, `YYYY-MM-DDTHH:mm`. */
  localSlot: string;
  /** Run after its grace period (after downtime). */
  late: boolean;
  doneAtMs: number;
}

/** The last runs of scheduled jobs: what makes them exactly-once across restarts. */
export interface JobRunStore {
  /** The latest completed slot of the job; `null` before its first. */
  last(name: string): JobRun | null;
  /**
   * Records a slot as done; `false` (nothing written) when that slot, or another at the same wall
   * time, already is. Call it inside {@link JobRunStore.transaction} with the job's effect.
   */
  record(run: JobRun): boolean;
  /**
   * When the job was first scheduled on this database (stored at the first call with `nowMs`):
   * slots before it were never due, slots after it are caught up even if none ever ran.
   */
  firstSeen(name: string, nowMs: number): number;
  /** Newest first. */
  history(name: string, limit: number): JobRun[];
  /** Runs `fn` in one IMMEDIATE transaction (synchronous: never await inside). */
  transaction<T>(fn: () => T): T;
}

interface JobRunRow {
  name: string;
  slot_ms: number;
  local_slot: string;
  late: number;
  done_ms: number;
}

const toRun = (row: JobRunRow): JobRun => ({
  name: row.name,
  slotMs: row.slot_ms,
  localSlot: row.local_slot,
  late: row.late === 1,
  doneAtMs: row.done_ms,
});

export function createJobRunStore(db: Database): JobRunStore {
  const selectLast = db.prepare("SELECT * FROM job_run WHERE name = ? ORDER BY slot_ms DESC LIMIT 1");
  const selectHistory = db.prepare("SELECT * FROM job_run WHERE name = ? ORDER BY slot_ms DESC LIMIT ?");
  const insert = db.prepare(
    "INSERT OR IGNORE INTO job_run (name, slot_ms, local_slot, late, done_ms) VALUES (?, ?, ?, ?, ?)",
  );
  const selectFirstSeen = db.prepare("SELECT value FROM meta WHERE key = ?").pluck();
  const insertFirstSeen = db.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)");
  return {
    firstSeen: (name, nowMs) => {
      const key = `job.${name}.first_seen_ms`;
      insertFirstSeen.run(key, String(nowMs));
      return Number(selectFirstSeen.get(key));
    },
    last: (name) => {
      const row = selectLast.get(name) as JobRunRow | undefined;
      return row === undefined ? null : toRun(row);
    },
    record: (run) =>
      insert.run(run.name, run.slotMs, run.localSlot, run.late ? 1 : 0, run.doneAtMs).changes === 1,
    history: (name, limit) => (selectHistory.all(name, limit) as JobRunRow[]).map(toRun),
    transaction: (fn) => db.transaction(fn).immediate(),
  };
}
