/** A host name the bot does not know. */
export const host = {
  "host.unknown.suggest": "no host {host}; did you mean {suggestion}?",
  "host.unknown.noneSeen": "no host {host}: the bot has not seen any host yet",
  "host.unknown.list": "no host {host}; the hosts are {hosts}",
  "host.unknown.many": "no host {host}; the status command lists the {count} hosts",
  "host.list": "{rest} and {last}",
  "host.list.separator": ", ",
} as const satisfies Record<string, string>;
