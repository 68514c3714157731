/** `/gpu stop` and the Stop buttons: the preview, the forced stop, their buttons. */
export const stop = {
  "stop.preview.text": "Stop {host}?",
  "stop.preview.question": "Stop *{host}*? This runs {steps}.",
  "stop.preview.questionDryRun":
    "Stop *{host}*? This runs {steps} (dry run: it only shows what it would run).",
  "stop.preview.then": "{first} then {second}",
  "stop.ack.begun": "Stopping {host}: its progress and outcome are in {place}.",
  "stop.ack.dryRun": "Dry run for {host}: what it would run is in {place}.",
  "stop.recent":
    "⚠️ Recent input on {host}: {people}. A stop ends their sessions, which the autopilot leaves alone.",
  "stop.recent.person": "{user} {ago} ago{held}",
  "stop.recent.held": " ({what})",
  "stop.recent.more": "{count} more",
  "stop.button.now": "Stop now",
  "stop.button.cancel": "Cancel",
  "stop.button.anyway": "Stop anyway",
  "stop.force.body": "{refusal}.\nAs an admin you can stop it anyway; it is recorded as forced.",
  "stop.force.title": "Stop anyway?",
  "stop.force.confirm": "{refusal}. Stop {host} anyway? This is recorded as forced.",
  "stop.refused.nobody":
    "Nobody can stop {host} yet: add its owners under `hosts.{host}.owners` or admins under `slack.admins` in the config.",
  "stop.refused.only": "Only {who} can stop it.",
  "stop.refused.neverStop": "{host} is marked `never_stop` in the config: it is never stopped.",
  "stop.refused.noAction":
    "{host} has no stop action. Add one under `hosts.{host}.stop` in the config, e.g. `stop: '{' command: [ssh, {host}, sudo, poweroff] '}'` or `stop: '{' webhook: https://… '}'`.",
  "stop.refused.running": "{host} is already being stopped by {user} since {at}.",
  "stop.refused.stopped": "{host} was already stopped by {user} at {at}.",
  "stop.refused.kept": "{host} is kept by {user} until {until}.",
  "stop.refused.claimed": "{host} is claimed by {user} until {until}.",
  "stop.refused.notIdle": "{host} is no longer in an idle episode ({status}).",
  "stop.refused.noState": "no state",
  "stop.done.note":
    "{user} is done with their work on {host}. It stops once the bot hears the same from {others}.",
  "stop.done.noted": "Noted: your work on {host} may go. It stops once the bot hears the same from {others}.",
  "stop.done.login": "the login {login}",
  "stop.done.unknownNote":
    "{user} is done with their work on {host}. A GPU process of unknown owner is on it too, so it does not stop on this.",
  "stop.done.unknownNoted":
    "Noted: your work on {host} may go. A GPU process of unknown owner is on it too, so it does not stop on this.",
  "stop.done.noAlert": "The alert on {host} is closed: there is nothing to say done to.",
  "stop.done.nothingOfYours":
    "Nothing on {host} is yours: no process or session of your logins (`team.logins` in the config), so there is nothing to let go.",
  "stop.now.busy": "{host} is busy now: {gpus}",
  "stop.now.busyGpu": "GPU {slot} at {pct} %",
  "stop.now.busyMore": "{count} more",
  "stop.now.inUse":
    "{host} is in use now: {count, plural, one {{who} is logged in ({lines})} other {{who} are logged in ({lines})}}",
  "stop.now.someone": "someone",
  "stop.now.noDataYet": "no data from {host} yet: not stopping a host I can't see",
  "stop.now.noDataSince": "no data from {host} since {since}: not stopping a host I can't see",
  "stop.now.noDataYetCause": "no data from {host} yet ({cause}): not stopping a host I can't see",
  "stop.now.noDataSinceCause": "no data from {host} since {since} ({cause}): not stopping a host I can't see",
  "stop.now.noGpus": "{host} reports no GPUs: not stopping a host I can't see",
  "stop.now.noReading":
    "{count, plural, one {{host} GPU {slots} has no utilisation reading: not stopping a host I can't see} other {{host} GPUs {slots} have no utilisation reading: not stopping a host I can't see}}",
  "stop.now.suspect":
    "{count, plural, one {{host} GPU {slots} reports full utilisation with no memory held at idle power (a known driver fault): not stopping on suspect data} other {{host} GPUs {slots} report full utilisation with no memory held at idle power (a known driver fault): not stopping on suspect data}}",
  "stop.thread.running": "{user} is stopping {host}: running {steps}.",
  "stop.thread.runningForced": "{user} is stopping {host}: running {steps} (forced by an admin: {overrode}).",
  "stop.thread.runningAuto":
    "Stopping {host} automatically (auto-stop: nobody kept the host): running {steps}.",
  "stop.thread.cancelledAuto": "Automatic stop of {host} cancelled: {refusal}",
  "stop.thread.stopped": "{host} stopped by {user}: {step} {end}.",
  "stop.thread.stoppedForced": "{host} stopped by {user} (forced): {step} {end}.",
  "stop.thread.stoppedAuto": "{host} stopped automatically: {step} {end}.",
  "stop.thread.preStopFailed":
    "Stop of {host} cancelled: the pre-stop step {step} {end}. Nothing was stopped.",
  "stop.thread.failed":
    "Stopping {host} failed: {step} {end}. {host} may still be running; Stop can be tried again.",
  "stop.thread.dryRun": "Dry run: would run {steps} to stop {host} (asked by {user}); nothing was changed.",
  "stop.thread.dryRunForced":
    "Dry run: would run {steps} to stop {host} (asked by {user}, forced); nothing was changed.",
  "stop.thread.interrupted":
    "The stop of {host} by {user} was interrupted: gpu-warden restarted before it finished, so it may or may not have run. {recheck} Stop can be tried again.",
  "stop.thread.interruptedAuto":
    "The automatic stop of {host} was interrupted: gpu-warden restarted before it finished, so it may or may not have run. {recheck} Stop can be tried again.",
  "stop.thread.recheckAnswering": "{host} still reports, so it most likely did not stop.",
  "stop.thread.recheckSilent": "{host} has not reported since, so it may have stopped.",
  "stop.end.killed": "was killed after {seconds} s (timeout)",
  "stop.end.noAnswer": "got no answer within {seconds} s",
  "stop.end.notRun": "could not run",
  "stop.end.exited": "exited {code}",
  "stop.end.http": "answered HTTP {status}",
} as const satisfies Record<string, string>;
