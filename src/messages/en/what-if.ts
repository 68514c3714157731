/** `gpu-warden what-if`: the replay's table, its CSV columns and its problems. */
export const whatIf = {
  "whatIf.title":
    "what-if {from} … {to} ({zone}), {currency}: the fleet's history replayed under each policy, nobody answering",
  "whatIf.none": "no readings in the store or the time-series engine since {since}: nothing to replay",
  "whatIf.shorter":
    "the first reading since then is at {from} (the store keeps raw readings store.raw_retention_days, the engine its own retention): the replay starts there",
  "whatIf.fromEngine":
    "{hosts, plural, one {# host} other {# hosts}} from the time-series engine's history, a step every {seconds} s: per GPU its utilisation, memory, power and Kubernetes pods; the engine keeps no login sessions and no process owners, so the GPUs alone decide (as for the live bot), and a step without data is unknown, never idle",
  "whatIf.fromStore": "{hosts, plural, one {# host} other {# hosts}} from the store's raw readings",
  "whatIf.engineFailed":
    "the time-series engine did not answer ({error}): its hosts were replayed from the store, which keeps their raw readings only store.raw_retention_days (3 h by default)",
  "whatIf.header.policy": "policy",
  "whatIf.header.stops": "stops",
  "whatIf.header.offHours": "hours off",
  "whatIf.header.capacity": "capacity freed {currency}",
  "whatIf.header.saved": "saved {currency}",
  "whatIf.header.falseStops": "would-be false stops",
  "whatIf.stopsOf": "{policy}:",
  "whatIf.stopLine": "{host} stopped {at}, back {back}, {hours} h off, saves {saved}",
  "whatIf.notBack": "not before the end",
  "whatIf.falseStops.title":
    "would-be false stops (a GPU process or a login hit, or work on the host within {hours} h):",
  "whatIf.falseStop":
    "{policy}: {host} at {at}: {reason, select, process {a GPU process held memory} login {a login session was open} other {work showed at {when}}}; owner {owner}",
  "whatIf.ownerUnknown":
    "unknown (the store keeps the processes of the latest poll only; the time-series engine keeps no owners)",
  "whatIf.unpriced": "— no price for {hosts}: set cost_per_hour or purchase_price under hosts.<name>",
  "whatIf.seam":
    "autopilot: its empty-host and stale-session rules as specified (30 min + 30 min warning; 18 h, stopped in the evening after Mon–Fri 09:00–18:00, never on a day off)",
  "whatIf.badPolicy":
    "unknown policy {policy}: use autopilot, process-autostop-N, skypilot-autostop-N, nightly or nightly-smart",
  "whatIf.badSince": "--since {typed} is not a span or a date: use 30d, 12h or YYYY-MM-DD",
  "whatIf.col.policy": "policy",
  "whatIf.col.host": "host",
  "whatIf.col.stopAt": "stop_at",
  "whatIf.col.idleSince": "idle_since",
  "whatIf.col.backAt": "back_at",
  "whatIf.col.offHours": "off_hours",
  "whatIf.col.capacityFreed": "capacity_freed",
  "whatIf.col.moneySaved": "money_saved",
  "whatIf.col.currency": "currency",
  "whatIf.col.falseStop": "would_be_false_stop",
  "whatIf.col.falseAt": "false_stop_at",
  "whatIf.col.owners": "owners",
} as const;
