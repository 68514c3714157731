import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { shQuote } from "../../src/sources/remote-probe.ts";

/** Writes an executable `#!/bin/sh` script `dir/name` and returns its path. */
export function writeScript(dir: string, name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

/**
 * A stand-in nvidia-smi that prints `gpus` for `--query-gpu` and `apps` for `--query-compute-apps`
 * (file contents, verbatim) and appends each argument list to `log`.
 */
export function nvidiaSmiScript(files: { gpus: string; apps: string; log: string }): string {
  return [
    `echo "$*" >> ${shQuote(files.log)}`,
    `case "$*" in`,
    `  *--query-gpu=*) cat ${shQuote(files.gpus)} ;;`,
    `  *--query-compute-apps=*) cat ${shQuote(files.apps)} ;;`,
    `  *) echo "stand-in nvidia-smi: unexpected arguments: $*" >&2; exit 2 ;;`,
    "esac",
  ].join("\n");
}

/** A stand-in `ps -o pid=,user= -p LIST` that knows the owners in `owners` and no other pid. */
export function psScript(owners: Record<number, string>): string {
  const cases = Object.entries(owners)
    .map(([pid, user]) => `    ${pid}) printf '%7s %s\\n' ${pid} ${shQuote(user)} ;;`)
    .join("\n");
  return [
    'for last in "$@"; do :; done',
    `for pid in $(echo "$last" | tr ',' ' '); do`,
    '  case "$pid" in',
    cases,
    "  esac",
    "done",
  ].join("\n");
}

/** Lines of a stand-in's argument log; empty when it never ran. */
export function readLog(path: string): string[] {
  return existsSync(path) ? readFileSync(path, "utf8").split("\n").filter(Boolean) : [];
}

/** True when `pid` is gone or a zombie. */
export function isDead(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return true;
    throw error;
  }
}
