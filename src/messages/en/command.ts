/** `/gpu` command errors: what was wrong with the text typed, then the command's right form. */
export const command = {
  "command.needsHostAndDuration": "`{command}` needs a host and a duration.",
  "command.needsHost": "`{command}` needs a host.",
  "command.needsClaimAndDuration": "`{command}` needs a claim and a duration.",
  "command.needsTarget": "`{command}` needs a host (gpu-a, gpu-a:0,1) or a number of GPUs (2, or 2 a100).",
  "command.needsPerson": "`{command}` needs the person who takes this month: @someone.",
  "command.needsDuration": "`{typed}` needs a duration.",
  "command.whichHost": "`{typed}`: which host? Name it first: `{example}`.",
  "command.whichClaim": "`{typed}`: which claim? Name its host first: `{example}` (or {host}:0).",
  "command.notKeepSpan": "`{text}` is not a duration: use `30m`, `4h`, `2d` or `tomorrow`.",
  "command.notDuration": "`{text}` is not a duration: use `30m`, `4h` or `2d`.",
  "command.placementNeedsCount":
    "A memory floor (gpus>=40g) or --valley goes with a number of GPUs: {example}.",
  "command.forNeedsDuration": "`{word}` needs a duration: `30m`, `4h` or `2d`.",
  "command.unexpected": "Unexpected `{extra}` after `{after}`.",
  "command.unknown": "Unknown command `{typed}`.",
  "command.unknownGuess": "Unknown command `{typed}`; did you mean `{guess}`?",
  "command.countRange": "`{typed}` GPUs: the count goes from 1 to {max}.",
  "command.noteTooLong": "The note is {length} characters long; the limit is {max}.",
  "command.notHostName": "`{text}` is not a host name: letters, digits, '.', '_' or '-'.",
  "command.notGpuList":
    "`{text}` is not a GPU list: use {host}:0, {host}:0,1 or {host}:0-3 (GPUs 0 to 255), or {host}:0.3 for MIG instance 3 of GPU 0.",
  "command.notDays": "`{text}` is not a number of days: use `1d` to `{max}d`, e.g. `30d`.",
  "command.unknownPerson":
    "I cannot tell who `{text}` is: mention them (`@name`, picked from Slack's list) or give their member ID (profile → ⋮ → Copy member ID), e.g. `U024BE7LH`.",
  "command.wardenVerb": "`{typed}`: use {forms}.",
  "command.rightForm": "Right form: {forms}",
  "command.formExample": "{form} — e.g. {example}",
  "command.or": "{first} or {second}",
  "command.seeHelp": "{help} lists the commands.",
  "command.failed": "Something went wrong on the bot's side; it is logged.",
} as const satisfies Record<string, string>;
