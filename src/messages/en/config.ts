/** `check-config`'s summary of a valid configuration. */
export const config = {
  "config.ok": "configuration OK: {file}",
  "config.okEmpty": "configuration OK: {file} (empty: all defaults)",
  "config.embedded": "embedded defaults (no gpu-warden.yaml)",
  "config.sources": "sources:",
  "config.noSources":
    "none configured: the local GPUs when nvidia-smi is on the PATH, else a simulated fleet",
  "config.channel": "channel: {channel}",
  "config.channelAdmins": "channel: {channel} (admins: {admins})",
  "config.team": "team: {name}, time zone {zone}, currency {currency}, language {language}",
  "config.policy":
    "policy: a GPU is idle below {idlePct} %; a host is idle after {idleMinutes} min with every GPU idle and nobody logged in; no stop within {protectMinutes} min of work starting; escalate after {escalateMinutes} min",
  "config.poll":
    "poll: every {seconds} s; raw samples kept {rawDays} days ({engineHours} h for hosts of a Prometheus-compatible source), hourly rollups {rollupDays} days in {path}",
  "config.secretMissing": "warning: {path} reads its secret from {source}, which cannot be read here now",
  "config.hostSettings": "host settings: {count} ({names})",
  "config.source.local": "local nvidia-smi ({command}) as host {host}",
  "config.source.localHost": "(this host's name)",
  "config.source.ssh": "ssh to {count} host(s): {names} (concurrency {concurrency}, deadline {deadline} s)",
  "config.source.prometheus": "prometheus {url} (host label {label})",
  "config.source.prometheusContainers": "prometheus {url} (host label {label}, containers)",
  "config.source.simulated": "simulated fleet: {hosts} hosts × {gpus} GPUs (seed {seed})",
  "config.error.count": "{file}: {count, plural, one {# problem} other {# problems}}",
  "config.error.anyFile": "configuration",
  "config.error.at": "at {path}",
  "config.error.top": "(top)",
  "config.error.expected": "expected: {text}",
  "config.error.found": "found:    {text}",
  "config.error.hint": "hint:     {text}",
  "config.error.more": "… and {count} more (is this the right file?)",
} as const satisfies Record<string, string>;
