import type { HygieneCheck } from "../domain/hygiene.ts";
import { shQuote } from "./remote-probe.ts";

/** Where the scripts look; the defaults are the usual places. */
export interface HygieneScriptOptions {
  /** The sshd configuration file (`/etc/ssh/sshd_config`). */
  sshdConfig: string;
}

/** How deep `Include`s are followed. */
const INCLUDE_DEPTH = 4;

/**
 * The read-only `sh` script of each check. Sections start with `@@name` lines; nothing is written
 * on the host. sshd: `sshd -T` when it is on this user's PATH and may run (root, as a rule), else the configuration files with the
 * files each `Include` names (relative ones under /etc/ssh, as sshd reads them).
 */
export function hygieneScript(check: HygieneCheck, options: HygieneScriptOptions): string {
  switch (check) {
    case "sshd":
      return sshdScript(options.sshdConfig);
    case "disk":
      return "echo @@df\n{ df -P -k -x tmpfs -x devtmpfs -x squashfs -x overlay 2>/dev/null || df -P -k; } || exit 3\necho @@end\n";
    case "docker":
      return `${DOCKER_PRESENT}
echo @@system-df
docker system df --format '{{json .}}' || exit 3
echo @@images
docker image ls --no-trunc --format '{{json .}}' || exit 3
echo @@used
docker ps -aq --no-trunc | xargs -r docker inspect --format '{{.Image}}' || exit 3
echo @@end
`;
    case "sessions":
      return "echo @@who\nwho -u || exit 3\necho @@end\n";
    case "containers":
      return `${DOCKER_PRESENT}
echo @@containers
docker ps -q --no-trunc | xargs -r docker inspect --format '{{.Name}}|{{.Config.Image}}|{{.HostConfig.Memory}}' || exit 3
echo @@end
`;
    default:
      return check satisfies never;
  }
}

const DOCKER_PRESENT = "command -v docker >/dev/null 2>&1 || { echo @@no-docker; exit 0; }";

function sshdScript(config: string): string {
  return `CONF=${shQuote(config)}
if out=$(sshd -T -f "$CONF" 2>/dev/null); then
  echo "@@sshd-T $CONF"
  printf '%s\\n' "$out" | grep -i '^clientaliveinterval ' || true
  echo @@end
  exit 0
fi
[ -r "$CONF" ] || { echo "@@unreadable $CONF"; exit 3; }
walk() {
  echo "@@file $1"
  cat "$1" || exit 3
  echo
  [ "$2" -ge ${INCLUDE_DEPTH} ] && return 0
  awk 'tolower($1)=="include"{for(i=2;i<=NF;i++)print $i}' "$1" | while read -r pat; do
    case $pat in /*) abs=$pat ;; *) abs=/etc/ssh/$pat ;; esac
    for f in $abs; do
      [ -r "$f" ] || continue
      echo "@@glob $pat $f"
      walk "$f" $(($2 + 1))
    done
  done
}
walk "$CONF" 0
echo @@end
`;
}

/** The sections of a script's output by name (`@@name rest` starts one), and whether `@@end` came. */
export function splitSections(stdout: string): {
  sections: { name: string; arg: string; lines: string[] }[];
  ended: boolean;
} {
  const sections: { name: string; arg: string; lines: string[] }[] = [];
  let ended = false;
  for (const line of stdout.split(/\r?\n/)) {
    const marker = /^@@([a-zA-Z-]+)(?: (.*))?$/.exec(line);
    if (marker !== null) {
      if (marker[1] === "end") ended = true;
      else sections.push({ name: marker[1]!, arg: marker[2] ?? "", lines: [] });
    } else {
      sections.at(-1)?.lines.push(line);
    }
  }
  return { sections, ended };
}
