import BetterSqlite3, { type Database } from "better-sqlite3";
import { DatabaseTooNewError, type Migration, migrate, migrations, userVersion } from "./migrations.ts";

export interface OpenDatabaseOptions {
  /** How long a statement waits for another connection's lock before failing. */
  busyTimeoutMs?: number;
  /** The schema steps to apply; the released list unless a test says otherwise. */
  migrations?: readonly Migration[];
}

/**
 * Opens (creating if needed) the SQLite file at `path`, sets the connection up and migrates it.
 * Throws `DatabaseTooNewError` for a file from a newer gpu-warden, leaving it untouched.
 */
export function openDatabase(path: string, options: OpenDatabaseOptions = {}): Database {
  const db = new BetterSqlite3(path);
  try {
    const steps = options.migrations ?? migrations;
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5_000}`);
    const found = userVersion(db);
    if (found > steps.length) throw new DatabaseTooNewError(path, found, steps.length);
    db.pragma("journal_mode = WAL");
    // NOTE: in WAL mode, synchronous=NORMAL fsyncs at checkpoints, not at every commit. A killed
    // process loses nothing committed and the file stays consistent after a power cut; only the
    // last commits before an OS crash may be lost. That trade is right for metrics written once a
    // minute, and it keeps one fsync off every poll cycle.
    db.pragma("synchronous = NORMAL");
    db.pragma("foreign_keys = ON");
    db.pragma("temp_store = MEMORY");
    db.pragma("cache_size = -8192");
    // NOTE: without a limit the -wal file keeps its largest size (after a big prune) forever.
    db.pragma("journal_size_limit = 67108864");
    migrate(db, steps);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
