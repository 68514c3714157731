import { accessSync, closeSync, constants, openSync, readSync, statfsSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { SqliteError } from "better-sqlite3";
import { DatabaseTooNewError } from "./migrations.ts";

/** Why a store could not be opened; the CLI turns each into one line saying what to do. */
export type StoreProblemReason =
  | "missing-folder"
  | "not-a-folder"
  | "not-sqlite"
  | "read-only"
  | "disk-full"
  | "too-new"
  | "cannot-open"
  /** `backup` with no store to copy. */
  | "missing-store"
  /** `restore` from a file that does not exist. */
  | "missing-backup"
  /** A backup file that is the store itself. */
  | "is-the-store"
  /** An SQLite file without gpu-warden's schema. */
  | "not-a-store"
  /** An SQLite file that fails SQLite's quick check. */
  | "damaged";

/** A store (or its lock file) that cannot be opened or written. Nothing was written to the store. */
export class StoreProblemError extends Error {
  override name = "StoreProblemError";
  constructor(
    /** The store file, as configured (`store.path`), made absolute. */
    readonly path: string,
    readonly reason: StoreProblemReason,
    /** What SQLite or the OS said, for the log. */
    readonly detail: string,
    /** Extra facts for the message: the schema versions for `too-new`. */
    readonly versions: { found: number; known: number } | null = null,
    /** Whether `path` is the store or a backup of it (`backup` and `restore`). */
    readonly role: "store" | "backup" = "store",
  ) {
    super(`${path}: ${reason}: ${detail}`);
  }
}

const SQLITE_HEADER = Buffer.from("SQLite format 3\0", "latin1");
/** Below this much free space an I/O error while writing is put down to a full disk. */
const NEARLY_FULL_BYTES = 1024 * 1024;

/**
 * Checks what can be checked without touching the store: its folder exists (and is writable, for
 * `write` access), and an existing non-empty file starts with SQLite's header. Throws
 * {@link StoreProblemError}.
 */
export function inspectStorePath(
  storePath: string,
  role: "store" | "backup" = "store",
  access: "write" | "read" = "write",
): void {
  const path = resolve(storePath);
  const folder = dirname(path);
  let folderStat: ReturnType<typeof statSync>;
  try {
    folderStat = statSync(folder);
  } catch (error) {
    throw new StoreProblemError(path, "missing-folder", errnoOf(error), null, role);
  }
  if (!folderStat.isDirectory()) {
    throw new StoreProblemError(path, "not-a-folder", `${folder} is a file`, null, role);
  }
  const header = readHeader(path, role);
  if (header !== null && header.length > 0 && !header.equals(SQLITE_HEADER.subarray(0, header.length))) {
    throw new StoreProblemError(
      path,
      "not-sqlite",
      "the file does not start with SQLite's header",
      null,
      role,
    );
  }
  if (access === "read") return;
  try {
    accessSync(folder, constants.W_OK);
  } catch (error) {
    throw new StoreProblemError(path, "read-only", errnoOf(error), null, role);
  }
}

/**
 * The {@link StoreProblemError} for what SQLite (or better-sqlite3) threw while opening, locking or
 * migrating the store at `storePath`; other errors come back unchanged.
 */
export function storeProblemOf(
  storePath: string,
  error: unknown,
  role: "store" | "backup" = "store",
): unknown {
  const path = resolve(storePath);
  if (error instanceof StoreProblemError) return error;
  if (error instanceof DatabaseTooNewError) {
    const versions = { found: error.foundVersion, known: error.knownVersion };
    return new StoreProblemError(path, "too-new", error.message, versions, role);
  }
  if (!(error instanceof SqliteError)) return error;
  const code = error.code;
  if (code === "SQLITE_NOTADB" || code === "SQLITE_CORRUPT") {
    return new StoreProblemError(path, "not-sqlite", `${code}: ${error.message}`, null, role);
  }
  if (code === "SQLITE_FULL" || (code.startsWith("SQLITE_IOERR") && nearlyFull(dirname(path)))) {
    return new StoreProblemError(path, "disk-full", `${code}: ${error.message}`, null, role);
  }
  if (code.startsWith("SQLITE_READONLY") || code === "SQLITE_PERM") {
    return new StoreProblemError(path, "read-only", `${code}: ${error.message}`, null, role);
  }
  if (code.startsWith("SQLITE_CANTOPEN") || code.startsWith("SQLITE_IOERR")) {
    return new StoreProblemError(path, "cannot-open", `${code}: ${error.message}`, null, role);
  }
  return error;
}

function readHeader(path: string, role: "store" | "backup"): Buffer | null {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new StoreProblemError(path, "cannot-open", errnoOf(error), null, role);
  }
  try {
    const buffer = Buffer.alloc(SQLITE_HEADER.length);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

function nearlyFull(folder: string): boolean {
  const stats = statfsSync(folder);
  return stats.bavail * stats.bsize < NEARLY_FULL_BYTES;
}

function errnoOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code ? `${code}: ${(error as Error).message}` : String(error);
}
