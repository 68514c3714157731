import { existsSync, renameSync, rmSync, statSync } from "node:fs";
import { resolve } from "node:path";
import BetterSqlite3, { type Database } from "better-sqlite3";
import { migrations, userVersion } from "./migrations.ts";
import { openDatabase } from "./open-database.ts";
import { lockStore } from "./store-lock.ts";
import { inspectStorePath, StoreProblemError, storeProblemOf } from "./store-problem.ts";

/** What a backup wrote. */
export interface BackupResult {
  store: string;
  file: string;
  bytes: number;
  schemaVersion: number;
}

/** What a restore did. */
export interface RestoreResult {
  store: string;
  file: string;
  /** The schema version of the backup, before it was brought up to date. */
  fromVersion: number;
  schemaVersion: number;
  /** Where the store that was replaced was kept; null when there was none. */
  keptAs: string | null;
}

/** Every page in one step: the copy is one consistent snapshot and never restarts. */
const ALL_PAGES = 0x7fffffff;

/**
 * Copies the store at `storePath` to `file` with SQLite's online backup, safe while an instance
 * writes it: the copy is one consistent snapshot, checked, in rollback-journal mode (a single
 * file), and written under a temporary name then renamed, so `file` is never half-written. Throws
 * `StoreProblemError` (reason `missing-store` when there is no store).
 */
export async function backupStore(storePath: string, file: string): Promise<BackupResult> {
  const store = resolve(storePath);
  const target = resolve(file);
  if (!existsSync(store)) throw new StoreProblemError(store, "missing-store", "no such file");
  if (target === store) {
    throw new StoreProblemError(
      target,
      "is-the-store",
      "the backup would overwrite the store",
      null,
      "backup",
    );
  }
  inspectStorePath(store, "store", "read");
  inspectStorePath(target, "backup");
  const partial = `${target}.partial-${process.pid}`;
  let source: Database;
  try {
    source = new BetterSqlite3(store, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw storeProblemOf(store, error);
  }
  try {
    await source.backup(partial, { progress: () => ALL_PAGES });
  } catch (error) {
    rmSync(partial, { force: true });
    throw storeProblemOf(target, error, "backup");
  } finally {
    source.close();
  }
  try {
    const schemaVersion = checkCopy(partial, target, "finish");
    renameSync(partial, target);
    return { store, file: target, bytes: statSync(target).size, schemaVersion };
  } catch (error) {
    rmSync(partial, { force: true });
    throw storeProblemOf(target, error, "backup");
  }
}

/**
 * Replaces the store with the backup in `file`, then brings it up to this version's schema. Refuses
 * (`StoreLockedError`) while an instance holds the store; keeps the store it replaces as
 * `<store>.before-restore`. Throws `StoreProblemError` for a backup that is missing, not a
 * gpu-warden store, damaged or from a newer version.
 */
export async function restoreStore(storePath: string, file: string, nowMs: number): Promise<RestoreResult> {
  const store = resolve(storePath);
  const backup = resolve(file);
  if (!existsSync(backup))
    throw new StoreProblemError(backup, "missing-backup", "no such file", null, "backup");
  if (backup === store) {
    throw new StoreProblemError(backup, "is-the-store", "the backup is the store itself", null, "backup");
  }
  inspectStorePath(backup, "backup", "read");
  inspectStorePath(store);
  const fromVersion = checkCopy(backup, backup, "inspect");
  let lock: ReturnType<typeof lockStore>;
  try {
    lock = lockStore(store, nowMs);
  } catch (error) {
    throw storeProblemOf(store, error);
  }
  try {
    const keptAs = existsSync(store) ? `${store}.before-restore` : null;
    if (keptAs !== null) await backupStore(store, keptAs);
    const source = new BetterSqlite3(backup, { readonly: true, fileMustExist: true });
    try {
      await source.backup(store, { progress: () => ALL_PAGES });
    } finally {
      source.close();
    }
    const db = openDatabase(store);
    const schemaVersion = userVersion(db);
    db.close();
    return { store, file: backup, fromVersion, schemaVersion, keptAs };
  } catch (error) {
    throw storeProblemOf(store, error);
  } finally {
    lock.release();
  }
}

/**
 * Checks a copy (`path`) reported as `shownAs`: SQLite's quick check passes and it is a gpu-warden
 * store this version can read. `finish` also makes a fresh copy a single file (rollback journal);
 * `inspect` only reads. Returns its schema version.
 */
function checkCopy(path: string, shownAs: string, mode: "finish" | "inspect"): number {
  let db: Database;
  try {
    db = new BetterSqlite3(path, { fileMustExist: true, readonly: mode === "inspect" });
  } catch (error) {
    throw storeProblemOf(shownAs, error, "backup");
  }
  try {
    const check = db.pragma("quick_check", { simple: true });
    if (check !== "ok") throw new StoreProblemError(shownAs, "damaged", String(check), null, "backup");
    const version = userVersion(db);
    if (version === 0) {
      throw new StoreProblemError(shownAs, "not-a-store", "no gpu-warden schema in it", null, "backup");
    }
    if (version > migrations.length) {
      const versions = { found: version, known: migrations.length };
      throw new StoreProblemError(shownAs, "too-new", `schema version ${version}`, versions, "backup");
    }
    if (mode === "finish") db.pragma("journal_mode = DELETE");
    return version;
  } catch (error) {
    throw storeProblemOf(shownAs, error, "backup");
  } finally {
    db.close();
  }
}
