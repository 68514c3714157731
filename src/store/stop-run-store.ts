import type { Database } from "better-sqlite3";
import type { StopRun } from "../domain/stop-run.ts";

/**
 * Exactly-once stops: a key (one alert, or one host episode) can have at most one run that is
 * running or done. A failed run frees the key for another try, and so does one `interrupted` (still
 * running when the process died, ended at a later start).
 */
export interface StopRunStore {
  /** Starts a run, or returns the run that already holds the key (`started: false`). */
  begin(run: Omit<StopRun, "id" | "state" | "finishedAtMs">): { run: StopRun; started: boolean };
  finish(id: number, state: "done" | "failed", atMs: number): void;
  /** Ends a run that is still running as `interrupted` (freeing its key); false when it had ended. */
  interrupt(id: number, atMs: number): boolean;
  latestFor(host: string): StopRun | null;
  /** Every run still `running`, oldest first. */
  running(): StopRun[];
}

interface StopRunRow {
  id: number;
  key: string;
  host: string;
  alert_id: number | null;
  actor: string;
  state: StopRun["state"];
  forced: number;
  dry_run: number;
  started_ms: number;
  finished_ms: number | null;
}

const toRun = (row: StopRunRow): StopRun => ({
  id: row.id,
  key: row.key,
  host: row.host,
  alertId: row.alert_id,
  actor: row.actor,
  state: row.state,
  forced: row.forced === 1,
  dryRun: row.dry_run === 1,
  startedAtMs: row.started_ms,
  finishedAtMs: row.finished_ms,
});

export function createStopRunStore(db: Database): StopRunStore {
  const selectLive = db.prepare("SELECT * FROM stop_run WHERE key = ? AND state IN ('running', 'done')");
  const insert = db.prepare(
    `INSERT INTO stop_run (key, host, alert_id, actor, state, forced, dry_run, started_ms)
     VALUES (?, ?, ?, ?, 'running', ?, ?, ?)`,
  );
  const selectById = db.prepare("SELECT * FROM stop_run WHERE id = ?");
  const update = db.prepare("UPDATE stop_run SET state = ?, finished_ms = ? WHERE id = ?");
  const interrupt = db.prepare(
    "UPDATE stop_run SET state = 'interrupted', finished_ms = ? WHERE id = ? AND state = 'running'",
  );
  const selectRunning = db.prepare("SELECT * FROM stop_run WHERE state = 'running' ORDER BY id");
  const selectLatest = db.prepare("SELECT * FROM stop_run WHERE host = ? ORDER BY id DESC LIMIT 1");
  const begin = db.transaction((run: Parameters<StopRunStore["begin"]>[0]) => {
    const live = selectLive.get(run.key) as StopRunRow | undefined;
    if (live) return { run: toRun(live), started: false };
    const id = insert.run(
      run.key,
      run.host,
      run.alertId,
      run.actor,
      run.forced ? 1 : 0,
      run.dryRun ? 1 : 0,
      run.startedAtMs,
    ).lastInsertRowid;
    return { run: toRun(selectById.get(id) as StopRunRow), started: true };
  });
  const selectHost = db.prepare("SELECT host FROM stop_run WHERE id = ?").pluck();
  // NOTE: every poll asks for each host's latest run several times, and runs are rare: the answers
  // are kept until this store writes a run of that host (the store lock: one bot writes a database).
  // The first question reads every host's latest run at once (a sweep of 10,000 hosts asks them all);
  // a host missing then has none, until this store writes one of its runs.
  const latest = new Map<string, StopRun | null>();
  const written = new Set<string>();
  let loaded = false;
  const selectAllLatest = db.prepare(
    "SELECT * FROM stop_run WHERE id IN (SELECT max(id) FROM stop_run GROUP BY host)",
  );
  const forgetHost = (host: string) => {
    latest.delete(host);
    written.add(host);
  };
  const forget = (id: number) => forgetHost(selectHost.get(id) as string);
  const latestRow = (host: string): StopRun | null => {
    if (!loaded) {
      for (const row of selectAllLatest.all() as StopRunRow[])
        if (!written.has(row.host)) latest.set(row.host, toRun(row));
      loaded = true;
    }
    if (!written.has(host)) return latest.get(host) ?? null;
    const row = selectLatest.get(host) as StopRunRow | undefined;
    const run = row ? toRun(row) : null;
    latest.set(host, run);
    written.delete(host);
    return run;
  };
  return {
    begin: (run) => {
      forgetHost(run.host);
      return begin.immediate(run);
    },
    finish: (id, state, atMs) => {
      forget(id);
      update.run(state, atMs, id);
    },
    interrupt: (id, atMs) => {
      forget(id);
      return interrupt.run(atMs, id).changes === 1;
    },
    latestFor: (host) => {
      const run = latestRow(host);
      return run === null ? null : { ...run };
    },
    running: () => (selectRunning.all() as StopRunRow[]).map(toRun),
  };
}
