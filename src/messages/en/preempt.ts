/** Preemption: a waiting request of higher priority asks a running claim to make room. */
export const preempt = {
  "preempt.ask":
    "🙏 {who} is waiting for {want} ({project}, priority {priority}). Please make room: your claim on *{what}* is released at *{when}* unless you release it sooner. Nothing running is stopped, but the GPUs go to them.",
  "preempt.askText": "Please make room on {what} by {when}",
  "preempt.releaseNow": "Release now",
  "preempt.moreTime": "I need 30 more minutes",
  "preempt.waiting":
    "⏳ Nothing that fits is free, so I asked {holders} to make room for your request for {want} (priority {priority}). Their GPUs are released by *{when}* at the latest; then they are granted in line.",
  "preempt.waitingText": "Asked {holders} to make room by {when}",
  "preempt.released":
    "⏏️ *{what}* was released to make room for {who} ({project}, priority {priority}). Your processes were not stopped: please move off these GPUs.",
  "preempt.releasedText": "{what} was released to make room",
  "preempt.deferred": "⏳ You have until *{when}* to finish on {what}; then it is released.",
  "preempt.already": "You have had your extra time already: the claim is released at *{when}*.",
  "preempt.notYours": "That request to make room is someone else's.",
  "preempt.void": "✅ You can keep *{what}*: the request that needed it no longer waits.",
  "preempt.gone": "That request to make room has ended.",
  "preempt.gpus": "{count, plural, one {# GPU} other {# GPUs}}",
  "preempt.modelGpus": "{count, plural, one {# {model} GPU} other {# {model} GPUs}}",
} as const satisfies Record<string, string>;
