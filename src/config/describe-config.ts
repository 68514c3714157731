import type { ConfigError } from "./load-config.ts";
import type { Config, SourceConfig } from "./schema.ts";

/** The short summary `check-config` prints for a valid configuration. */
export function describeConfig(config: Config, file: string | null, empty = false): string {
  const { policy, poll } = config;
  const lines = [
    `configuration OK: ${file ?? "embedded defaults (no gpu-warden.yaml)"}${empty ? " (empty: all defaults)" : ""}`,
    "sources:",
    ...(config.sources.length > 0
      ? config.sources.map((source) => `  - ${describeSource(source)}`)
      : ["  - none configured: the local GPUs when nvidia-smi is on the PATH, else a simulated fleet"]),
    `channel: ${config.slack.channel}${config.slack.admins.length > 0 ? ` (admins: ${config.slack.admins.join(", ")})` : ""}`,
    `team: ${config.team.name}, time zone ${config.team.timezone}, currency ${config.team.currency}`,
    `policy: a GPU is idle below ${policy.idle_util_pct} %; a host is idle after ${policy.idle_for_minutes} min ` +
      `with every GPU idle and nobody logged in; no stop within ${policy.protect_minutes} min of work starting; ` +
      `escalate after ${policy.escalate_after_minutes} min`,
    `poll: every ${poll.interval_seconds} s; raw samples kept ${config.store.raw_retention_days} days, ` +
      `hourly rollups ${config.store.rollup_retention_days} days in ${config.store.path}`,
  ];
  const hostNames = Object.keys(config.hosts);
  if (hostNames.length > 0) {
    lines.push(
      `host settings: ${hostNames.length} (${hostNames.slice(0, 8).join(", ")}${hostNames.length > 8 ? ", …" : ""})`,
    );
  }
  return `${lines.join("\n")}\n`;
}

export function describeSource(source: SourceConfig): string {
  switch (source.kind) {
    case "local":
      return `local nvidia-smi (${source.nvidia_smi}) as host ${source.host ?? "<this host's name>"}`;
    case "ssh": {
      const names = source.hosts.map((host) => (typeof host === "string" ? host : host.name));
      return `ssh to ${names.length} host(s): ${names.slice(0, 8).join(", ")}${names.length > 8 ? ", …" : ""} (concurrency ${source.concurrency}, deadline ${source.deadline_seconds} s)`;
    }
    case "prometheus":
      return `prometheus ${source.url} (host label ${source.host_label}${source.containers ? ", containers" : ""})`;
    case "simulated":
      return `simulated fleet: ${source.hosts} hosts × ${source.gpus_per_host} GPUs (seed ${source.seed})`;
    default:
      return source satisfies never;
  }
}

/** At most this many problems are shown; a junk file can have hundreds of thousands. */
export const MAX_PROBLEMS_SHOWN = 50;

/** The problems (the first {@link MAX_PROBLEMS_SHOWN}) with path, what was expected, what was found and a hint. */
export function describeConfigError(error: ConfigError): string {
  const count = error.problems.length;
  const lines = [`${error.file ?? "configuration"}: ${count} problem${count === 1 ? "" : "s"}`];
  for (const problem of error.problems.slice(0, MAX_PROBLEMS_SHOWN)) {
    lines.push(`  at ${problem.path === "" ? "(top)" : problem.path}`);
    lines.push(`    expected: ${problem.expected}`);
    lines.push(`    found:    ${problem.found}`);
    if (problem.hint) lines.push(`    hint:     ${problem.hint}`);
  }
  if (count > MAX_PROBLEMS_SHOWN) {
    lines.push(`  … and ${count - MAX_PROBLEMS_SHOWN} more (is this the right file?)`);
  }
  return `${lines.join("\n")}\n`;
}
