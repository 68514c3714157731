import type { Database } from "better-sqlite3";
import { openDatabase } from "./open-database.ts";
import { lockStore, type StoreLock } from "./store-lock.ts";
import { inspectStorePath, storeProblemOf } from "./store-problem.ts";

export interface OwnedStore {
  db: Database;
  lock: StoreLock;
  /** Closes the database, then lets the next instance in. */
  close(): void;
}

/**
 * Opens the store for the one instance that may write it: checks the path, takes the store's lock
 * (see `lockStore`), then opens and migrates the database. Throws `StoreProblemError` (the store is
 * left as it was) or `StoreLockedError`.
 */
export function openOwnedStore(path: string, nowMs: number): OwnedStore {
  if (path === ":memory:") {
    // NOTE: an in-memory store (the playground) belongs to this process alone: nothing to lock.
    const db = openDatabase(path);
    return { db, lock: { path: "", release() {} }, close: () => db.close() };
  }
  inspectStorePath(path);
  let lock: StoreLock;
  try {
    lock = lockStore(path, nowMs);
  } catch (error) {
    throw storeProblemOf(path, error);
  }
  let db: Database;
  try {
    db = openDatabase(path);
  } catch (error) {
    lock.release();
    throw storeProblemOf(path, error);
  }
  return {
    db,
    lock,
    close() {
      db.close();
      lock.release();
    },
  };
}
