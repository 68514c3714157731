/** The autopilot: its warning DM and what it tells the alert's thread as it stops a host. */
export const autopilot = {
  "autopilot.empty.warning":
    "🤖 *{host}* has had nothing on it for {duration}; it stops at *{at}* unless you keep it.",
  "autopilot.empty.text": "{host} has had nothing on it for {duration}; it stops at {at} unless you keep it",
  "autopilot.empty.claims":
    "{claimants} claimed it before it emptied; outside working hours that claim no longer holds an empty host. The GPUs stay claimed, and `/gpu start {host}` brings it back.",
  "autopilot.stale.warning":
    "🤖 *{host}*: only {left} left, with no input for {duration}. It stops at *{at}*, outside working hours, unless you keep it{hook}.",
  "autopilot.stale.text":
    "{host}: only {left} left, with no input for {duration}; it stops at {at} unless you keep it",
  "autopilot.stale.hook": "; its pre-stop hook runs first",
  "autopilot.holder": "{name} (pid {pid}) of {user}, holding {memory}",
  "autopilot.holder.noPid": "{name} of {user}, holding {memory}",
  "autopilot.holder.unknownUser": "an unknown user",
  "autopilot.holder.unknownMemory": "memory of unknown size",
  "autopilot.list": "{first}; {rest}",
  "autopilot.memoryOnly": "GPU memory held by no listed process",
  "autopilot.session": "a login of {user} on {line}",
  "autopilot.dryRun": "Dry run: the stop only shows what it would run.",
  "autopilot.button.keep": "Keep",
  "autopilot.button.keepTomorrow": "Keep until tomorrow {at}",
  "autopilot.button.keepUntil": "Keep until {day}",
  "autopilot.button.stopNow": "Stop now",
  "autopilot.stopping.empty":
    "🤖 Autopilot: nothing on {host} since {since} ({duration}): no GPU process, no memory held, no login, no claim, no reservation within the hour; nobody kept it.",
  "autopilot.stopping.emptyClaimed":
    "🤖 Autopilot: nothing on {host} since {since} ({duration}): no GPU process, no memory held, no login, no reservation within the hour; the claim of {claimants} is older than that, and it is outside working hours; nobody kept it.",
  "autopilot.keepEnded":
    "🤖 Your Keep of *{host}* (until {until}) has ended: nothing has been on it since {since}, and outside working hours an empty host is stopped after the autopilot's warning. `/gpu keep {host} tomorrow` keeps it again.",
  "autopilot.stopping.stale":
    "🤖 Autopilot: GPUs on {host} idle since {since} ({duration}), only {left} left with no input, outside working hours; nobody kept it.",
} as const;
