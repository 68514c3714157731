/** `/gpu start`, the *Start* buttons and the starts a claim, grant or reservation makes: thread notes, DMs, refusals. */
export const start = {
  "start.button": "Start",
  "start.button.host": "Start {host}",
  "start.someone": "someone",
  "start.thread.running": "{user} is starting {host}: running {steps}.",
  "start.thread.runningFor":
    "{trigger, select, claim {Starting {host} for the claim of {user}: running {steps}.} grant {Starting {host} for {user}, whose turn in the queue came: running {steps}.} reservation {Starting {host} before the reservation of {user}: running {steps}.} usual {Starting {host} before working hours: it was busy on each of the last working days. Running {steps}.} morning {Starting {host} before working hours, for the team's first work of the day: GPUs were busy on each of the last working days, no host has a free GPU, and {host} is the cheapest to run. Running {steps}.} other {Starting {host} for {user}: running {steps}.}}",
  "start.thread.started": "{host}: {step} {end}. It has {grace} min to report again.",
  "start.thread.failed":
    "Starting {host} failed: {step} {end}. It is still off; `/gpu start {host}` tries again.",
  "start.thread.up": "{host} is up again and reporting (started {at}).",
  "start.thread.unconfirmed":
    "{host} was started {at} but has not reported within {grace} min: the start may not have worked. `/gpu start {host}` tries again; its owners can check it.",
  "start.thread.dryRun": "Dry run: would run {steps} to start {host} (asked by {user}); nothing was changed.",
  "start.reply.begun":
    "Starting {host}: its progress is in {place}. I'll send you a message when it reports again.",
  "start.reply.joined":
    "{host} is already being started (since {at}). I'll send you a message when it reports again.",
  "start.reply.dryRun": "Dry run for {host}: what it would run is in {place}.",
  "start.refused.noAction":
    "{host} has no start action. Add one under `hosts.{host}.start` in the config, e.g. `start: '{' command: [ipmitool, -H, {host}-bmc, chassis, power, on] '}'` or `start: '{' webhook: https://… '}'`.",
  "start.refused.only": "Only {who} can start {host}.",
  "start.refused.onlyProjects": "Only {who}, or a member of a project ({projects}), can start {host}.",
  "start.refused.nobody":
    "Nobody can start {host} yet: add its owners under `hosts.{host}.owners`, admins under `slack.admins` or projects under `projects` in the config.",
  "start.refused.up": "{host} is up: it reported {at}. Nothing to start.",
  "start.status.stoppedBy": "stopped since {at} by {user}",
  "start.status.stoppedAuto": "stopped since {at} automatically",
} as const satisfies Record<string, string>;
