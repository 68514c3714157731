import { dirname } from "node:path";
import type { Translator } from "./messages/translator.ts";
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
 * `start`, `backup` and `restore` expect, in `tr`'s language; null for anything else (a bug: it keeps
 * its stack trace).
 */
export function describeCliProblem(tr: Translator, error: unknown): CliProblem | null {
  if (error instanceof StoreProblemError) return storeProblem(tr, error);
  if (error instanceof StoreLockedError) {
    const holder = error.holder
      ? tr.t("cli.store.holder", {
          pid: String(error.holder.pid),
          host: error.holder.host,
          since: new Date(error.holder.sinceMs).toISOString(),
        })
      : tr.t("cli.store.holderUnknown");
    return { line: tr.t("cli.store.inUse", { store: error.storePath, holder }), exitCode: 1 };
  }
  if (error instanceof NothingToWatchError) {
    const file = error.configFile ?? tr.t("cli.nothingToWatch.noFile");
    return { line: tr.t("cli.nothingToWatch", { file }), exitCode: 2 };
  }
  return null;
}

function storeProblem(tr: Translator, error: StoreProblemError): CliProblem {
  return error.role === "backup" ? backupProblem(tr, error) : storeFileProblem(tr, error);
}

function storeFileProblem(tr: Translator, error: StoreProblemError): CliProblem {
  const { path } = error;
  const folder = dirname(path);
  const versions = {
    path,
    found: String(error.versions?.found ?? "?"),
    known: String(error.versions?.known ?? "?"),
  };
  switch (error.reason) {
    case "missing-folder":
      return { line: tr.t("cli.store.missingFolder", { path, folder }), exitCode: 2 };
    case "not-a-folder":
      return { line: tr.t("cli.store.notAFolder", { path, folder }), exitCode: 2 };
    case "not-sqlite":
    case "not-a-store":
      return { line: tr.t("cli.store.notSqlite", { path }), exitCode: 1 };
    case "read-only":
      return { line: tr.t("cli.store.readOnly", { path, folder }), exitCode: 1 };
    case "disk-full":
      return { line: tr.t("cli.store.diskFull", { path }), exitCode: 1 };
    case "too-new":
      return { line: tr.t("cli.store.tooNew", versions), exitCode: 1 };
    case "missing-store":
      return { line: tr.t("cli.store.missing", { path }), exitCode: 1 };
    case "damaged":
    case "cannot-open":
    case "missing-backup":
    case "is-the-store":
      return { line: tr.t("cli.store.cannotOpen", { path, detail: error.detail }), exitCode: 1 };
    default:
      return error.reason satisfies never;
  }
}

function backupProblem(tr: Translator, error: StoreProblemError): CliProblem {
  const { path } = error;
  const folder = dirname(path);
  const versions = {
    path,
    found: String(error.versions?.found ?? "?"),
    known: String(error.versions?.known ?? "?"),
  };
  switch (error.reason) {
    case "missing-folder":
    case "not-a-folder":
      return { line: tr.t("cli.backup.notAFolder", { path, folder }), exitCode: 2 };
    case "read-only":
      return { line: tr.t("cli.backup.readOnly", { path, folder }), exitCode: 1 };
    case "disk-full":
      return { line: tr.t("cli.backup.diskFull", { path }), exitCode: 1 };
    case "missing-backup":
      return { line: tr.t("cli.backup.missing", { path }), exitCode: 2 };
    case "is-the-store":
      return { line: tr.t("cli.backup.isTheStore", { path }), exitCode: 2 };
    case "not-sqlite":
    case "not-a-store":
      return { line: tr.t("cli.backup.notAStore", { path }), exitCode: 1 };
    case "damaged":
      return { line: tr.t("cli.backup.damaged", { path, detail: error.detail }), exitCode: 1 };
    case "too-new":
      return { line: tr.t("cli.backup.tooNew", versions), exitCode: 1 };
    case "cannot-open":
    case "missing-store":
      return { line: tr.t("cli.backup.cannotOpen", { path, detail: error.detail }), exitCode: 1 };
    default:
      return error.reason satisfies never;
  }
}
