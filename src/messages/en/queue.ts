/** The waiting list: `--wait`, *Wait for it*, `/gpu queue`, the grant and lapse DMs, *Confirm*. */
export const queue = {
  "queue.want.count": "{count, plural, one {# GPU} other {# GPUs}}",
  "queue.want.countModel": "{count, plural, one {# {model} GPU} other {# {model} GPUs}}",
  "queue.want.floor": "{what} with at least {gib} GiB",
  "queue.want.valley": "{what}, in the valley hours only",
  "queue.grant":
    "🎉 Your turn: {what} {count, plural, one {is yours} other {are yours}} until {until} ({duration}){note}.",
  "queue.grant.allGpus": "all GPUs",
  "queue.grant.gpus": "GPU {list}",
  "queue.grant.fallback": "{what} is yours until {until}",
  "queue.grant.confirmBy": "Confirm by {at}, or it passes to the next in line.",
  "queue.button.confirm": "Confirm",
  "queue.lapsed":
    "⌛ {what} was not confirmed by {at}, so it passed to the next in line. {example} queues you again.",
  "queue.joined":
    "You are in line for {what} ({duration}){note}: {position}. I'll DM you when it is yours; {example} leaves the line.",
  "queue.already":
    "You are already in line for {what} ({duration}){note}: {position}. I'll DM you when it is yours; {example} leaves the line.",
  "queue.position": "{position, plural, =1 {you are next} other {you are number #}}",
  "queue.granted": "{what} was free: it is yours, see the DM to confirm.",
  "queue.list.empty": "Nobody is waiting. {example} joins the line.",
  "queue.list.nobody": "Nobody is waiting.",
  "queue.list.waiting": "Waiting ({count})",
  "queue.list.line": "{position}. {who}: {what} for {duration}{note}, since {since}{mine}",
  "queue.list.you": " ← you",
  "queue.list.more": "… and {count} more",
  "queue.list.awaiting": "Granted, awaiting Confirm",
  "queue.list.granted": "{who}: {what}, granted, to confirm by {at}",
  "queue.list.cancelHint": "{example} takes you out of line.",
  "queue.cancel.none": "You are not in line.",
  "queue.cancel.done": "You left the line for {what}.",
  "queue.confirmed": "{what} is yours until {until}.",
  "queue.notYours": "That grant is someone else's.",
  "queue.alreadyConfirmed": "You have confirmed it already.",
  "queue.grantEnded": "That grant has ended.",
} as const satisfies Record<string, string>;
