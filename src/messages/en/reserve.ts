/** Reservations: `/gpu reserve`, their effect on claims, and their lines in status, App Home and alerts. */
export const reserve = {
  "reserve.made.once": "Reserved {gpus} on {day, date, weekdayDay}, {from}–{to} ({zone}) as #{id}{note}.",
  "reserve.made.weekly": "Reserved {gpus} every {days}, {from}–{to} ({zone}) as #{id}{note}.",
  "reserve.every.weekdays": "weekday",
  "reserve.every.weekends": "weekend day",
  "reserve.every.daily": "day",
  "reserve.overlap":
    "{gpus} is already reserved by {who} {window} (#{id}): pick another window, or ask them.",
  "reserve.past": "That window ended {until, date, dayTime}: pick one to come.",
  "reserve.notMember": "You are not a member of project {project}, so you cannot reserve for it.",
  "reserve.cancelled": "Cancelled reservation #{id}: {gpus} {window}.",
  "reserve.notFound": "There is no reservation #{id} to cancel: `{command} reserve list` shows them.",
  "reserve.notYours": "Reservation #{id} is {who}'s: only they or an admin may cancel it.",
  "reserve.fromConfig": "Reservation #{id} is set in the config (`reservations:`): change it there.",
  "reserve.list.title": "Reservations ({count})",
  "reserve.list.empty": "No reservations. `{command} reserve gpu-a:0-3 tomorrow 09:00-18:00 demo` makes one.",
  "reserve.list.footer": "`{command} reserve cancel <id>` cancels one of yours.",
  "reserve.window.once": "on {day, date, weekdayDay}, {from}–{to}",
  "reserve.window.weekly": "every {days}, {from}–{to}",
  "reserve.window.now": "now until {until, date, time}",
  "reserve.window.next": "next {from, date, dayTime}",
  "reserve.claim.refused":
    "{gpus} is reserved for {who} until {until, date, time} (#{id}): only they can claim it now.",
  "reserve.claim.cut": "Cut to end at {until, date, time}: {gpus} is reserved from then by {who} (#{id}).",
  "reserve.status.title": "Reservations",
  "reserve.status.now": "reserved now by {who} until {until, date, time}",
  "reserve.status.next": "reserved from {from, date, dayTime} by {who}",
  "reserve.home.title": "Your reservations ({count})",
  "reserve.home.none": "Your reservations: none.",
  "reserve.alert.soon": "Reserved from {from, date, time} by {who}: this host is not stopped automatically.",
  "reserve.problem.missing":
    "`reserve` needs GPUs, a day and hours: `reserve gpu-a:0-3 tomorrow 09:00-18:00 demo`.",
  "reserve.problem.slots": "`{text}` is not a host or GPU list: use gpu-a, gpu-a:0,1 or gpu-a:0-3.",
  "reserve.problem.when":
    "`{text}` is not a day: use `today`, `tomorrow`, `2026-12-10`, `every weekday`, `every day` or `every mon,wed`.",
  "reserve.problem.hours":
    "`{text}` are not hours: use 09:00-18:00 (the end after the start, at most 24:00).",
  "reserve.problem.cancelId": "`reserve cancel` needs the reservation's number: `reserve cancel 12`.",
  "reserve.problem.noteLong": "The note is {length} characters long; keep it to 200.",
} as const satisfies Record<string, string>;
