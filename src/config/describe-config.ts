import { ENGLISH, type Translator } from "../messages/translator.ts";
import type { ConfigError } from "./load-config.ts";
import { engineRawRetentionDays, rawRetentionDays } from "./raw-retention.ts";
import { isSecretRef, readSecret } from "./read-secret.ts";
import type { Config, SourceConfig } from "./schema.ts";

/** The short summary `check-config` prints for a valid configuration, in `tr`'s language. */
export function describeConfig(tr: Translator, config: Config, file: string | null, empty = false): string {
  const { policy, poll, slack, team, store } = config;
  const shownFile = file ?? tr.t("config.embedded");
  const lines = [
    tr.t(empty ? "config.okEmpty" : "config.ok", { file: shownFile }),
    tr.t("config.sources"),
    ...(config.sources.length > 0
      ? config.sources.map((source) => `  - ${describeSource(tr, source)}`)
      : [`  - ${tr.t("config.noSources")}`]),
    slack.admins.length > 0
      ? tr.t("config.channelAdmins", { channel: slack.channel, admins: slack.admins.join(", ") })
      : tr.t("config.channel", { channel: slack.channel }),
    tr.t("config.team", {
      name: team.name,
      zone: team.timezone,
      currency: team.currency,
      language: team.language,
    }),
    tr.t("config.policy", {
      idlePct: policy.idle_util_pct,
      idleMinutes: policy.idle_for_minutes,
      protectMinutes: policy.protect_minutes,
      escalateMinutes: policy.escalate_after_minutes,
    }),
    tr.t("config.poll", {
      seconds: poll.interval_seconds,
      rawDays: rawRetentionDays(config),
      engineHours: Math.round(engineRawRetentionDays(config) * 240) / 10,
      rollupDays: store.rollup_retention_days,
      path: store.path,
    }),
  ];
  const hostNames = Object.keys(config.hosts);
  if (hostNames.length > 0) {
    lines.push(tr.t("config.hostSettings", { count: hostNames.length, names: firstNames(hostNames) }));
  }
  lines.push(...secretWarnings(tr, config));
  return `${lines.join("\n")}\n`;
}

/** A line for each webhook secret that cannot be read here and now (never its value). */
function secretWarnings(tr: Translator, config: Config): string[] {
  const lines: string[] = [];
  for (const [host, settings] of Object.entries(config.hosts)) {
    for (const step of ["pre_stop", "stop", "start"] as const) {
      const action = settings[step];
      if (action === undefined || !("webhook" in action)) continue;
      for (const [where, values] of [
        ["headers", action.headers],
        ["body", action.body],
      ] as const) {
        for (const [name, value] of Object.entries(values)) {
          if (!isSecretRef(value) || readSecret(value).ok) continue;
          const source = "env" in value ? `$${value.env}` : value.file;
          lines.push(
            tr.t("config.secretMissing", { path: `hosts.${host}.${step}.${where}.${name}`, source }),
          );
        }
      }
    }
  }
  return lines;
}

/** One source as `check-config` lists it. */
export function describeSource(tr: Translator, source: SourceConfig): string {
  switch (source.kind) {
    case "local":
      return tr.t("config.source.local", {
        command: source.nvidia_smi,
        host: source.host ?? tr.t("config.source.localHost"),
      });
    case "ssh": {
      const names = source.hosts.map((host) => (typeof host === "string" ? host : host.name));
      return tr.t("config.source.ssh", {
        count: names.length,
        names: firstNames(names),
        concurrency: source.concurrency,
        deadline: source.deadline_seconds,
      });
    }
    case "prometheus":
      return tr.t(source.containers ? "config.source.prometheusContainers" : "config.source.prometheus", {
        url: source.url,
        label: source.host_label,
      });
    case "simulated":
      return tr.t("config.source.simulated", {
        hosts: source.hosts,
        gpus: source.gpus_per_host,
        seed: String(source.seed),
      });
    default:
      return source satisfies never;
  }
}

function firstNames(names: readonly string[]): string {
  return `${names.slice(0, 8).join(", ")}${names.length > 8 ? ", …" : ""}`;
}

/** At most this many problems are shown; a junk file can have hundreds of thousands. */
export const MAX_PROBLEMS_SHOWN = 50;

/**
 * The problems (the first {@link MAX_PROBLEMS_SHOWN}) with path, what was expected, what was found and
 * a hint; in English, since the configuration (and with it the team's language) could not be read.
 */
export function describeConfigError(error: ConfigError): string {
  const tr = ENGLISH;
  const count = error.problems.length;
  const lines = [tr.t("config.error.count", { file: error.file ?? tr.t("config.error.anyFile"), count })];
  for (const problem of error.problems.slice(0, MAX_PROBLEMS_SHOWN)) {
    lines.push(
      `  ${tr.t("config.error.at", { path: problem.path === "" ? tr.t("config.error.top") : problem.path })}`,
    );
    lines.push(`    ${tr.t("config.error.expected", { text: problem.expected })}`);
    lines.push(`    ${tr.t("config.error.found", { text: problem.found })}`);
    if (problem.hint) lines.push(`    ${tr.t("config.error.hint", { text: problem.hint })}`);
  }
  if (count > MAX_PROBLEMS_SHOWN) {
    lines.push(`  ${tr.t("config.error.more", { count: count - MAX_PROBLEMS_SHOWN })}`);
  }
  return `${lines.join("\n")}\n`;
}
