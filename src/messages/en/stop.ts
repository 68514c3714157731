/** `/gpu stop` and the Stop buttons: the preview, the forced stop, their buttons. */
export const stop = {
  "stop.preview.text": "Stop {host}?",
  "stop.preview.question": "Stop *{host}*? This runs {steps}.",
  "stop.preview.questionDryRun":
    "Stop *{host}*? This runs {steps} (dry run: it only shows what it would run).",
  "stop.preview.then": "{first} then {second}",
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
} as const satisfies Record<string, string>;
