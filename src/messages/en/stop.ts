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
} as const satisfies Record<string, string>;
