/** A host name the bot does not know. */
export const host = {
  "host.unknown.suggest": "no host {host}; did you mean {suggestion}?",
  "host.unknown.noneSeen": "no host {host}: the bot has not seen any host yet",
  "host.unknown.list": "no host {host}; the hosts are {hosts}",
  "host.unknown.many": "no host {host}; the status command lists the {count} hosts",
  "host.list": "{rest} and {last}",
  "host.list.or": "{rest} or {last}",
  "host.who.owners":
    "{count, plural, one {the owner of {host} ({names})} other {the owners of {host} ({names})}}",
  "host.who.claimants": "{count, plural, one {its claimant ({names})} other {its claimants ({names})}}",
  "host.who.warden": "the cost warden ({user})",
  "host.who.admins": "an admin ({names})",
  "host.list.separator": ", ",
} as const satisfies Record<string, string>;
