import { dirname } from "node:path";
import { NothingToWatchError } from "./sources/nothing-to-watch.ts";
import { StoreLockedError } from "./store/store-lock.ts";
import { StoreProblemError } from "./store/store-problem.ts";

/** What the CLI prints (one line) and the exit code it returns for a problem it can explain. */
export interface CliProblem {
  line: string;
  /** 2 for a mistake in the configuration, 1 otherwise. */
  exitCode: 1 | 2;
}

/**
 * One line saying what is wrong with the store (or the sources) and what to do, for the errors
 * `start`, `backup` and `restore` expect; null for anything else (a bug: it keeps its stack trace).
 */
export function describeCliProblem(error: unknown): CliProblem | null {
  if (error instanceof StoreProblemError) return storeProblem(error);
  if (error instanceof StoreLockedError) {
    const holder = error.holder
      ? `PID ${error.holder.pid} on ${error.holder.host}, since ${new Date(error.holder.sinceMs).toISOString()}`
      : "PID not known yet";
    return {
      line:
        `store ${error.storePath} is in use by another gpu-warden (${holder}): stop that one first, ` +
        "or give this one its own store.path (two instances on one store would post everything twice)",
      exitCode: 1,
    };
  }
  if (error instanceof NothingToWatchError) {
    return {
      line:
        `nothing to watch: no sources: in ${error.configFile ?? "the configuration (no gpu-warden.yaml)"} ` +
        "and no nvidia-smi on the PATH; with Slack tokens set gpu-warden will not post a simulated fleet " +
        "to the team channel: add a sources: list (kind: local, ssh or prometheus, or kind: simulated to try it out)",
      exitCode: 2,
    };
  }
  return null;
}

function storeProblem(error: StoreProblemError): CliProblem {
  return error.role === "backup" ? backupProblem(error) : storeFileProblem(error);
}

function storeFileProblem(error: StoreProblemError): CliProblem {
  const { path } = error;
  const folder = dirname(path);
  switch (error.reason) {
    case "missing-folder":
      return {
        line: `store ${path}: the folder ${folder} does not exist: create it, or set store.path to a file in an existing folder`,
        exitCode: 2,
      };
    case "not-a-folder":
      return {
        line: `store ${path}: ${folder} is not a folder: set store.path to a file in a folder`,
        exitCode: 2,
      };
    case "not-sqlite":
    case "not-a-store":
      return {
        line: `store ${path} is not an SQLite database (left untouched): set store.path to another file, or move this one away`,
        exitCode: 1,
      };
    case "read-only":
      return {
        line: `store ${path}: cannot write in ${folder} (read-only): make it writable for this user, or set store.path to a writable folder`,
        exitCode: 1,
      };
    case "disk-full":
      return {
        line: `store ${path}: the disk is full: free some space there (or set store.path on another disk) and start again`,
        exitCode: 1,
      };
    case "too-new":
      return {
        line:
          `store ${path} has schema version ${error.versions?.found ?? "?"}, but this gpu-warden knows versions up to ` +
          `${error.versions?.known ?? "?"}: upgrade gpu-warden, or set store.path to another file`,
        exitCode: 1,
      };
    case "missing-store":
      return {
        line: `no store at ${path}: it is written by 'gpu-warden start' (store.path in the config)`,
        exitCode: 1,
      };
    case "damaged":
    case "cannot-open":
    case "missing-backup":
    case "is-the-store":
      return {
        line: `store ${path}: cannot open it (${error.detail}): check the file and its folder, and store.path`,
        exitCode: 1,
      };
    default:
      return error.reason satisfies never;
  }
}

function backupProblem(error: StoreProblemError): CliProblem {
  const { path } = error;
  const folder = dirname(path);
  switch (error.reason) {
    case "missing-folder":
    case "not-a-folder":
      return {
        line: `backup ${path}: ${folder} is not an existing folder: create it or choose another path`,
        exitCode: 2,
      };
    case "read-only":
      return {
        line: `backup ${path}: cannot write in ${folder} (read-only): choose a writable folder`,
        exitCode: 1,
      };
    case "disk-full":
      return {
        line: `backup ${path}: the disk is full: free some space there or choose another disk`,
        exitCode: 1,
      };
    case "missing-backup":
      return {
        line: `no backup at ${path}: give the path of a file written by 'gpu-warden backup'`,
        exitCode: 2,
      };
    case "is-the-store":
      return { line: `${path} is the store itself (store.path): give the backup another path`, exitCode: 2 };
    case "not-sqlite":
    case "not-a-store":
      return {
        line: `${path} is not a gpu-warden store: give a file written by 'gpu-warden backup'`,
        exitCode: 1,
      };
    case "damaged":
      return {
        line: `${path} is damaged (SQLite's quick check: ${error.detail}): use another backup`,
        exitCode: 1,
      };
    case "too-new":
      return {
        line:
          `${path} has schema version ${error.versions?.found ?? "?"}, but this gpu-warden knows versions up to ` +
          `${error.versions?.known ?? "?"}: restore it with a newer gpu-warden`,
        exitCode: 1,
      };
    case "cannot-open":
    case "missing-store":
      return { line: `backup ${path}: cannot open it (${error.detail})`, exitCode: 1 };
    default:
      return error.reason satisfies never;
  }
}
