import { randomBytes } from "node:crypto";
import type { SourceConfig } from "../config/schema.ts";
import { type FailureCause, failed, type HostObservation } from "../domain/observation.ts";
import type { Source } from "../domain/source.ts";
import type { Clock } from "../shared/clock.ts";
import type { Logger } from "../shared/logger.ts";
import { mapWithConcurrency } from "../shared/map-with-concurrency.ts";
import { NvidiaSmiError } from "./parse-nvidia-smi.ts";
import { type ProbeOutputs, probeReadings } from "./probe-readings.ts";
import { parseLoadAvg, remoteProbeScript, splitRemoteProbe, withRemoteTimeout } from "./remote-probe.ts";
import { runCommand } from "./run-command.ts";

export type SshSourceConfig = Extract<SourceConfig, { kind: "ssh" }>;

export interface SshSourceDeps {
  clock: Clock;
  logger: Logger;
}

/**
 * Hosts read over the system `ssh` (so `~/.ssh/config`, agents and ProxyJump work): one ssh call per
 * host runs a fixed sh script (see `remoteProbeScript`) with BatchMode on, so a host that wants a
 * password fails at once instead of prompting. Each host has its own deadline, after which its ssh
 * is killed and the host is failed with cause `timeout`; the remote script runs under the host's
 * `timeout` with the same deadline, so a hung nvidia-smi does not outlive the poll there either. At
 * most `concurrency` hosts are read at once.
 */
export function createSshSource(config: SshSourceConfig, deps: SshSourceDeps): Source {
  const hosts = config.hosts.map((entry) =>
    typeof entry === "string"
      ? { name: entry, target: entry }
      : { name: entry.name, target: entry.target ?? entry.name },
  );
  const connectTimeout = Math.max(1, Math.ceil(config.connect_timeout_seconds));

  const observe = async (
    host: { name: string; target: string },
    atMs: number,
    signal: AbortSignal,
  ): Promise<HostObservation> => {
    const fail = (cause: FailureCause, detail: string): HostObservation => {
      const message = `${host.name}: ${cause}: ${detail}`;
      deps.logger.warn({ host: host.name, source: "ssh", cause }, message);
      return failed(host.name, "ssh", atMs, cause, message);
    };
    if (signal.aborted) return fail("timeout", "poll cancelled before the host was read");

    const marker = `@@gpu-warden:${randomBytes(8).toString("hex")}@@`;
    const argv = [
      config.ssh,
      "-o",
      "BatchMode=yes",
      "-o",
      `ConnectTimeout=${connectTimeout}`,
      "-T",
      ...config.ssh_args,
      "--",
      host.target,
      "sh",
      "-s",
    ];
    const result = await runCommand(argv, {
      timeoutMs: config.deadline_seconds * 1000,
      signal,
      input: withRemoteTimeout(remoteProbeScript(marker, config.nvidia_smi), config.deadline_seconds),
    });
    if (result.aborted) return fail("timeout", "poll cancelled before the host answered");
    if (result.timedOut) return fail("timeout", `no answer over ssh within ${config.deadline_seconds} s`);
    if (result.spawnError) {
      return result.spawnError.startsWith("ENOENT")
        ? fail("command-not-found", `${config.ssh}: command not found`)
        : fail("error", `cannot run ${config.ssh}: ${result.spawnError}`);
    }
    if (result.exitCode === 255) {
      const { cause, detail } = classifySshFailure(result.stderr);
      return fail(cause, detail);
    }

    const sections = splitRemoteProbe(result.stdout, marker);
    const gpus = sections.get("gpus");
    const apps = sections.get("apps");
    if (!gpus || !apps) {
      const why = result.truncated
        ? "more output than we read"
        : lastLine(result.stderr) || "no probe output";
      return fail("parse-error", `the remote script did not finish (${clip(why)})`);
    }
    const who = sections.get("who");
    const loadavg = sections.get("loadavg");
    const outputs: ProbeOutputs = {
      gpus: { exitCode: gpus.exitCode, text: gpus.text, fields: gpus.fields },
      apps: { exitCode: apps.exitCode, text: apps.text, fields: apps.fields },
      who: who ?? null,
      owners: sections.get("owners") ?? null,
      mig: sections.get("mig") ?? null,
      cpuLoad1: loadavg?.exitCode === 0 ? parseLoadAvg(loadavg.text) : null,
    };
    try {
      const { unattached, ...readings } = probeReadings(outputs);
      if (unattached.length > 0) {
        deps.logger.debug(
          { host: host.name, unattached },
          `${host.name}: ${unattached.length} GPU process(es) on no listed GPU`,
        );
      }
      return { host: host.name, source: "ssh", atMs, ok: true, ...readings };
    } catch (error) {
      if (error instanceof NvidiaSmiError) return fail(error.reason, error.message);
      throw error;
    }
  };

  return {
    kind: "ssh",
    hosts: hosts.map((host) => host.name),
    poll: async (signal) => {
      const atMs = deps.clock.now();
      return mapWithConcurrency(hosts, config.concurrency, (host) => observe(host, atMs, signal));
    },
  };
}

const SSH_FAILURES: ReadonlyArray<readonly [RegExp, FailureCause]> = [
  [/Permission denied|Too many authentication failures|No more authentication methods/i, "auth"],
  [/Host key verification failed|REMOTE HOST IDENTIFICATION HAS CHANGED/i, "auth"],
  [/timed out|Operation timed out/i, "timeout"],
  [
    /Connection refused|No route to host|Network is unreachable|Could not resolve hostname|Name or service not known|nodename nor servname|Connection closed|Connection reset|kex_exchange_identification|Broken pipe/i,
    "unreachable",
  ],
];

/** Cause and one-line detail of an ssh that exited 255 (its own failure, not the remote command's). */
export function classifySshFailure(stderr: string): { cause: FailureCause; detail: string } {
  const lines = stderr
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("Warning: Permanently added"));
  for (const [pattern, cause] of SSH_FAILURES) {
    const line = lines.find((l) => pattern.test(l));
    if (line) return { cause, detail: clip(line) };
  }
  return { cause: "error", detail: clip(lines.at(-1) ?? "ssh failed with exit code 255 and said nothing") };
}

function lastLine(text: string): string {
  return (
    text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== "")
      .at(-1) ?? ""
  );
}

function clip(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
