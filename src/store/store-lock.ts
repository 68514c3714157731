import { hostname } from "node:os";
import BetterSqlite3, { type Database, SqliteError } from "better-sqlite3";

/** Who holds a store's lock, as that instance wrote it down. */
export interface LockHolder {
  pid: number;
  host: string;
  sinceMs: number;
}

/** Another gpu-warden (or a restore) holds the store. */
export class StoreLockedError extends Error {
  override name = "StoreLockedError";
  constructor(
    readonly storePath: string,
    /** Null in the instant between another instance taking the lock and naming itself. */
    readonly holder: LockHolder | null,
  ) {
    super(`${storePath} is locked by ${holder ? `pid ${holder.pid} on ${holder.host}` : "another process"}`);
  }
}

export interface StoreLock {
  /** The lock file beside the store. */
  path: string;
  release(): void;
}

/** The lock file of a store: `<store>.lock`, itself a small SQLite file. */
export function lockPathOf(storePath: string): string {
  return `${storePath}.lock`;
}

/**
 * Takes the exclusive lock on a store, or throws {@link StoreLockedError} at once (no waiting).
 *
 * The lock is SQLite's RESERVED lock on `<store>.lock`, held by a transaction that stays open for
 * the life of the instance: a POSIX record lock, so the kernel drops it when the process dies
 * (kill -9 and power cuts leave nothing stale), and other processes can still read the holder's
 * pid, written just before the lock was taken for good. The store itself stays readable, so
 * `backup` and `report` run beside a live instance. The lock file is never deleted: unlinking a
 * lock file lets two processes hold locks on two different files.
 */
export function lockStore(storePath: string, sinceMs: number): StoreLock {
  const self: LockHolder = { pid: process.pid, host: hostname(), sinceMs };
  const path = lockPathOf(storePath);
  const db = new BetterSqlite3(path, { timeout: 0 });
  try {
    take(db, storePath);
    db.exec(
      "CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL, host TEXT NOT NULL, since_ms INTEGER NOT NULL)",
    );
    db.exec("DELETE FROM holder");
    db.prepare("INSERT INTO holder (pid, host, since_ms) VALUES (?, ?, ?)").run(
      self.pid,
      self.host,
      self.sinceMs,
    );
    db.exec("COMMIT");
    // NOTE: between that COMMIT and this BEGIN another process may take the lock; it then writes
    // its own pid and this call refuses, naming it. At most one process ever holds the lock.
    take(db, storePath);
  } catch (error) {
    db.close();
    throw error;
  }
  let held = true;
  return {
    path,
    release() {
      if (!held) return;
      held = false;
      db.exec("ROLLBACK");
      db.close();
    },
  };
}

function take(db: Database, storePath: string): void {
  try {
    db.exec("BEGIN IMMEDIATE");
  } catch (error) {
    if (error instanceof SqliteError && error.code === "SQLITE_BUSY") {
      throw new StoreLockedError(storePath, readHolder(db));
    }
    throw error;
  }
}

/** How long a refused process lets a starting holder finish writing its name (microseconds, normally). */
const HOLDER_SETTLE_MS = 100;
const HOLDER_WAIT_MS = 1_000;

/**
 * The holder's row. NOTE: a holder that has just taken the lock has not written its row yet (its
 * first phase, a few microseconds): read after a short pause, so the row is not a previous holder's.
 */
function readHolder(db: Database): LockHolder | null {
  db.pragma(`busy_timeout = ${HOLDER_WAIT_MS}`);
  try {
    pause(HOLDER_SETTLE_MS);
    for (let waited = HOLDER_SETTLE_MS; ; waited += HOLDER_SETTLE_MS) {
      const row = holderRow(db);
      if (row !== null || waited >= HOLDER_WAIT_MS) return row;
      pause(HOLDER_SETTLE_MS);
    }
  } finally {
    db.pragma("busy_timeout = 0");
  }
}

function holderRow(db: Database): LockHolder | null {
  try {
    const row = db.prepare("SELECT pid, host, since_ms AS sinceMs FROM holder LIMIT 1").get();
    return (row as LockHolder | undefined) ?? null;
  } catch (error) {
    if (error instanceof SqliteError && /no such table/.test(error.message)) return null;
    throw error;
  }
}

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
