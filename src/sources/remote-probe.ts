import {
  COMPUTE_APPS_FIELDS,
  GPU_QUERY_FIELDS,
  NVIDIA_SMI_FORMAT,
  nvidiaSmiQueryArgs,
} from "./parse-nvidia-smi.ts";
import { MIG_XML_ARGS } from "./probe-readings.ts";

/** One command's output inside the probe: its exit status and what it printed (stdout and stderr). */
export interface ProbeSection {
  exitCode: number | null;
  text: string;
  /** The query fields this section's nvidia-smi call used (`gpus` and `apps` only). */
  fields: string[];
}

export type ProbeSectionName = "gpus" | "apps" | "mig" | "who" | "loadavg" | "owners";

const SECTION_NAMES: readonly ProbeSectionName[] = ["gpus", "apps", "mig", "who", "loadavg", "owners"];

/**
 * The POSIX sh script one ssh call runs (fed to `sh -s` on stdin, so the remote login shell does not
 * matter): nvidia-smi query-gpu and compute-apps (and `-q -x` when a GPU is in MIG mode), `who -u`
 * (or `who`), the load average, and `ps`
 * owners of the GPU pids, each framed by `<marker> begin <name> [fields]` and
 * `<marker> end <name> <exit code>` lines. Give each call a fresh random `marker`.
 */
export function remoteProbeScript(marker: string, nvidiaSmi: string): string {
  const withoutMig = GPU_QUERY_FIELDS.filter((field) => field !== "mig.mode.current");
  const format = shQuote(NVIDIA_SMI_FORMAT);
  const appArgs = nvidiaSmiQueryArgs("compute-apps", COMPUTE_APPS_FIELDS).map(shQuote).join(" ");
  return `{
M=${shQuote(marker)}
N=${shQuote(nvidiaSmi)}
F=${shQuote(GPU_QUERY_FIELDS.join(","))}
out=$("$N" --query-gpu="$F" ${format} 2>&1); rc=$?
case $out in *"is not a valid field to query"*)
  F=${shQuote(withoutMig.join(","))}
  out=$("$N" --query-gpu="$F" ${format} 2>&1); rc=$? ;;
esac
printf '%s begin gpus %s\\n%s\\n' "$M" "$F" "$out"; printf '\\n%s end gpus %s\\n' "$M" "$rc"
case $out in *Enabled*)
  printf '%s begin mig\\n' "$M"; "$N" ${MIG_XML_ARGS.join(" ")} 2>&1; printf '\\n%s end mig %s\\n' "$M" "$?" ;;
esac
apps=$("$N" ${appArgs} 2>&1); rc=$?
printf '%s begin apps %s\\n%s\\n' "$M" ${shQuote(COMPUTE_APPS_FIELDS.join(","))} "$apps"; printf '\\n%s end apps %s\\n' "$M" "$rc"
printf '%s begin who\\n' "$M"; (who -u 2>/dev/null || who) 2>&1; printf '\\n%s end who %s\\n' "$M" "$?"
printf '%s begin loadavg\\n' "$M"; (cat /proc/loadavg 2>/dev/null || sysctl -n vm.loadavg) 2>&1; printf '\\n%s end loadavg %s\\n' "$M" "$?"
pids=$(printf '%s\\n' "$apps" | awk -F', *' 'NR==1 { for (i = 1; i <= NF; i++) if ($i == "pid") c = i } { k = c ? c : 2; if ($k ~ /^[0-9]+$/) print $k }' | sort -un | paste -s -d, -)
printf '%s begin owners\\n' "$M"; rc=0; if [ -n "$pids" ]; then ps -o pid=,user= -p "$pids" 2>&1; rc=$?; fi; printf '\\n%s end owners %s\\n' "$M" "$rc"
} </dev/null
exit 0
`;
}

/**
 * `script` run under the remote host's `timeout` (coreutils or busybox) when it has one: a hung
 * nvidia-smi is killed there after `seconds` (and KILLed 2 s later), even though ssh without a tty
 * gives the remote side no hangup when the bot drops the connection. Without `timeout` the script
 * runs as before.
 */
export function withRemoteTimeout(script: string, seconds: number): string {
  const limit = Math.max(1, Math.ceil(seconds));
  return `B=${shQuote(script)}
if command -v timeout >/dev/null 2>&1; then exec timeout -k 2 ${limit} sh -c "$B"; fi
exec sh -c "$B"
`;
}

/**
 * Splits the probe's stdout into its sections. A section that did not finish (cut output, killed
 * shell) is absent.
 */
export function splitRemoteProbe(stdout: string, marker: string): Map<ProbeSectionName, ProbeSection> {
  const sections = new Map<ProbeSectionName, ProbeSection>();
  let open: { name: ProbeSectionName; fields: string[]; lines: string[] } | null = null;
  for (const line of stdout.split(/\r?\n/)) {
    if (line.startsWith(`${marker} `)) {
      const [verb, name, arg] = line.slice(marker.length + 1).split(" ");
      const known = SECTION_NAMES.find((n) => n === name);
      if (verb === "begin" && known) {
        open = { name: known, fields: arg ? arg.split(",") : [], lines: [] };
      } else if (verb === "end" && open && known === open.name) {
        const exitCode = /^\d+$/.test(arg ?? "") ? Number(arg) : null;
        sections.set(open.name, { exitCode, text: open.lines.join("\n").trim(), fields: open.fields });
        open = null;
      }
    } else if (open) {
      open.lines.push(line);
    }
  }
  return sections;
}

/** 1-minute load average from `/proc/loadavg` (`0.00 0.01 0.05 1/123 456`) or BSD `sysctl -n vm.loadavg` (`{ 0.86 0.45 0.37 }`). */
export function parseLoadAvg(text: string): number | null {
  const match = /^\s*\{?\s*(\d+(?:\.\d+)?)\s/.exec(text);
  return match?.[1] ? Number(match[1]) : null;
}

/** Quotes one word for POSIX sh. */
export function shQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
