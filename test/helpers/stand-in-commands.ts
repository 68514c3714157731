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
 * A stand-in nvidia-smi that prints `gpus` for `--query-gpu`, `apps` for `--query-compute-apps` and
 * `xml` (when given) for `-q -x` (file contents, verbatim) and appends each argument list to `log`.
 */
export function nvidiaSmiScript(files: { gpus: string; apps: string; log: string; xml?: string }): string {
  return [
    `echo "$*" >> ${shQuote(files.log)}`,
    `case "$*" in`,
    `  *--query-gpu=*) cat ${shQuote(files.gpus)} ;;`,
    `  *--query-compute-apps=*) cat ${shQuote(files.apps)} ;;`,
    ...(files.xml === undefined ? [] : [`  "-q -x") cat ${shQuote(files.xml)} ;;`]),
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
    const code = (error as NodeJS.ErrnoException).code;
    // NOTE: ESRCH: the process ended between the file's opening and its reading.
    if (code === "ENOENT" || code === "ESRCH") return true;
    throw error;
  }
}

/** The A100 in MIG mode of `nvidia-smi-xml/telegraf__a100-sxm4-v12.xml` (4 GPU instances). */
export const A100_MIG_XML = "nvidia-smi-xml/telegraf__a100-sxm4-v12.xml";

/**
 * The `--query-gpu` line (noheader, nounits) of the GPU in {@link A100_MIG_XML}, its values copied
 * from that XML (uuid, name, memory, power, temperature, MIG mode), for a stand-in nvidia-smi whose
 * `-q -x` prints that file.
 */
export const A100_MIG_QUERY_GPU =
  "0, GPU-513536b6-7d19-9063-b049-1e69664bb298, NVIDIA A100-SXM4-80GB, [N/A], 50, 81920, 67.03, 27, Enabled\n";
