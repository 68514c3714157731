/**
 * Claims: `/gpu claim`, `/gpu mine`, the conflict answer and its buttons, the claim DMs (reminder,
 * idle nudge, ended, free now), *Still using it*, *Notify me when free*, and the words every claim
 * message shares (when, lists, notes, who holds what). Slack mrkdwn (bold, code, mentions) is added by
 * the views around the arguments.
 */
export const claim = {
  "claim.when.today": "{at, date, time}",
  "claim.when.tomorrow": "tomorrow {at, date, time}",
  "claim.when.yesterday": "yesterday {at, date, time}",
  "claim.when.other": "{at, date, weekdayDay} {at, date, time}",
  "claim.list.separator": ", ",
  "claim.list.and": "{head} and {last}",
  "claim.list.or": "{head} or {last}",
  "claim.note": " ({note})",
  "claim.gpuList": "{count, plural, one {GPU {list}} other {GPUs {list}}}",

  "claim.holders": "{holders}.",
  "claim.holders.separator": "; ",
  "claim.holders.first": "{what} is claimed by {who} until {until}{note}",
  "claim.holders.next": "{what} by {who} until {until}{note}",

  "claim.claimed": "You hold {what}{models} until {until} ({duration}){note}.",
  "claim.claimed.models": " ({models})",
  "claim.claimed.alsoHeld": " You already held {what}; that claim ends when it did before.",
  "claim.claimed.replaces": " It replaces your claim on {what}.",
  "claim.claimed.busy":
    "{count, plural, one { Heads-up: {what} is in use right now without a claim{users}.} other { Heads-up: {what} are in use right now without a claim{users}.}}",
  "claim.claimed.busyUsers": " ({users})",
  "claim.alreadyYours": "You already hold {what} until {until}: {example} holds it longer.",
  "claim.alreadyYours.allOf": "You already hold all of {what} until {until}: {example} holds it longer.",
  "claim.short":
    "{free, plural, one {Only # of the {total}{models} GPUs is free; you asked for {count}.} other {Only # of the {total}{models} GPUs are free; you asked for {count}.}}",
  "claim.short.held": " Held: {holders}.",
  "claim.short.holder": "{what} by {who} until {until}",
  "claim.short.more": "; and {count} more",

  "claim.problem.tooLong": "A claim lasts at most {max}; you asked for {asked}.",
  "claim.problem.unknownHost.suggest": "no host {host}; did you mean {suggestion}?",
  "claim.problem.unknownHost.none": "no host {host}: the bot has not seen any host yet",
  "claim.problem.unknownHost.list": "no host {host}; the hosts are {hosts}",
  "claim.problem.unknownHost.many": "no host {host}; the status command lists the {count} hosts",
  "claim.problem.noGpusSeen":
    "No GPUs of {host} have been seen yet, so single GPUs cannot be named: use the whole host ({whole}).",
  "claim.problem.noSuchGpus": "{host} has {has}: there is no {missing}.",
  "claim.problem.noModel": "No GPU model matches {model}: the fleet has {models}.",
  "claim.problem.noModelKnown": "No GPU model matches {model}: no GPU models are known yet.",
  "claim.problem.nothingSeen": "No GPUs have been seen yet, so none can be claimed.",

  "claim.button.wait": "Wait for it",
  "claim.button.notify": "Notify me when free",
  "claim.button.force": "Release it (force)",
  "claim.button.extend4h": "Extend 4 h",
  "claim.button.release": "Release",
  "claim.button.stillUsing": "Still using it",
  "claim.force.title": "Release someone else's claim?",
  "claim.force.text": "{holders} The holder gets a DM saying you released it.",
  "claim.force.confirm": "Release it",
  "claim.force.deny": "Cancel",

  "claim.mine.none": "You hold no claims. {example} takes a GPU.",
  "claim.mine.title": "Your claims",
  "claim.mine.line": "{what}{note} until {until} ({left} left){util}",
  "claim.mine.util": " · now {utils} %",
  "claim.mine.more": "…and {count} more; {example} ends them all.",
  "claim.mine.fallback": "Your claims: {list}",
  "claim.mine.fallbackItem": "{what} until {until}",

  "claim.reminder":
    "⏳ Your claim on {what}{note} ends at {until} (in {left}). Extend it, or release it if you are done.",
  "claim.reminder.fallback": "Your claim on {what} ends at {until}",
  "claim.nudge":
    "💤 You hold {what}{note}, but it has been idle since {since} ({idleFor}). Still using it?{release}",
  "claim.nudge.release": " If it stays idle it is released at {at}.",
  "claim.nudge.fallback": "{what} is claimed by you but idle since {since}",
  "claim.ended.expired": "⌛ Your claim on {what}{note} ended at {at}.",
  "claim.ended.idle": "🔓 Released your claim on {what}{note}: idle since {since} ({idleFor}).",
  "claim.ended.forced": "🔓 {who} ({role}) released your claim on {what}{note}, which ran until {until}.",
  "claim.role.warden": "the cost warden",
  "claim.role.admin": "an admin",
  "claim.role.other": "someone",
  "claim.free": "🟢 {what} is free now. Claim it here, or with {example}.",
  "claim.free.fallback": "{what} is free now",
  "claim.free.button": "Claim {what}",
  "claim.thread.claimed": "{what} claimed by {who} until {until}{note}.",

  "claim.alreadyEnded": "That claim has already ended.",
  "claim.stillUsing.noted": "Noted: {what} stays yours. I'll ask again if it is idle for another {nudge}.",
  "claim.stillUsing.refused": "{holders} Only the holder can answer for it.",
  "claim.wait.free": "{what} is free now: {example} takes it.",
  "claim.wait.waiting": "I'll DM you when {what} is free.",
  "claim.badButton": "That button could not be read ({problem}); nothing was done.",
  "claim.reply.rightForm": "Right form: {form}",
} as const satisfies Record<string, string>;
