import type { Config } from "../config/schema.ts";
import type { ProbeFailure } from "../domain/hygiene.ts";
import { withRemoteTimeout } from "./remote-probe.ts";
import { runCommand } from "./run-command.ts";
import { classifySshFailure } from "./ssh-source.ts";

/** What a read-only script on a host printed, or why it could not run to the end. */
export type ShellAnswer =
  | { ok: true; stdout: string; stderr: string; exitCode: number | null }
  | { ok: false; why: ProbeFailure };

/** Runs a read-only `sh` script on a watched host, over the same access its source uses. */
export interface HostShell {
  /** The hosts it can reach, by the names the fleet uses. */
  hosts: string[];
  run(host: string, script: string, timeoutMs: number, signal?: AbortSignal): Promise<ShellAnswer>;
}

interface Access {
  name: string;
  argv: string[];
}

/**
 * The hosts of the `ssh` sources (the system ssh, BatchMode, the source's `ssh_args`) and of the
 * `local` source (this machine's `sh`); Prometheus and simulated hosts have no shell. Each script
 * runs under the host's `timeout` with the same limit, and its ssh is killed when the limit passes.
 */
export function createHostShell(config: Pick<Config, "sources">, localHostName: string): HostShell {
  const access = new Map<string, Access>();
  for (const source of config.sources) {
    if (source.kind === "local") {
      const name = source.host ?? localHostName;
      access.set(name, { name, argv: ["sh", "-s"] });
    } else if (source.kind === "ssh") {
      const connect = String(Math.max(1, Math.ceil(source.connect_timeout_seconds)));
      for (const entry of source.hosts) {
        const { name, target } =
          typeof entry === "string"
            ? { name: entry, target: entry }
            : { name: entry.name, target: entry.target ?? entry.name };
        const argv = [
          source.ssh,
          "-o",
          "BatchMode=yes",
          "-o",
          `ConnectTimeout=${connect}`,
          "-T",
          ...source.ssh_args,
          "--",
          target,
          "sh",
          "-s",
        ];
        access.set(name, { name, argv });
      }
    }
  }
  return {
    hosts: [...access.keys()],
    run: async (host, script, timeoutMs, signal) => {
      const how = access.get(host);
      if (how === undefined) return { ok: false, why: { cause: "no-access" } };
      const late = { ok: false, why: { cause: "timeout", seconds: Math.round(timeoutMs / 1000) } } as const;
      const result = await runCommand(how.argv, {
        timeoutMs,
        ...(signal === undefined ? {} : { signal }),
        input: withRemoteTimeout(script, timeoutMs / 1000),
      });
      if (result.timedOut || result.aborted) return late;
      if (result.spawnError)
        return { ok: false, why: { cause: "failed", detail: `${how.argv[0]}: ${result.spawnError}` } };
      if (how.argv[0] !== "sh" && result.exitCode === 255) {
        const ssh = classifySshFailure(result.stderr);
        return ssh.cause === "timeout" ? late : { ok: false, why: { cause: "failed", detail: ssh.detail } };
      }
      if (result.exitCode === 124 || result.exitCode === 137) return late;
      return { ok: true, stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode };
    },
  };
}
