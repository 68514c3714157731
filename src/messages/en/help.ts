/** `/gpu help`: one line per command form, the footer, and bare `/gpu`'s list of the asker's claims. */
export const help = {
  "help.title": "{command} commands",
  "help.command.help": "this help",
  "help.command.status": "fleet board: hosts, GPUs, utilisation, idle since; one host in detail",
  "help.command.claimHost":
    "claim a host or some of its GPUs (0 / 0,1 / 0-3; a MIG instance: 0.3); --wait and project=<name> as below",
  "help.command.claimCount":
    "claim any n free GPUs (of a model), packed onto one host where possible; --wait: join the line if none are free; project=<name>: wait with that project's priority",
  "help.command.claimPlaced":
    "claim the n free GPUs with at least that memory that cost least per GPU-hour, on one host where possible, with their price; --valley: only in the tariff's valley hours, saying what it saves",
  "help.command.queue": "the waiting list with each request's position; cancel: leave it",
  "help.command.release": "release your claim (the cost warden and admins may release anyone's)",
  "help.command.reserve":
    "hold GPUs for a window of team time; <day>: today, tomorrow, 2026-12-10, every weekday, every mon,wed; project=<name> lets its members claim too",
  "help.command.reserveList": "the reservations to come; cancel: drop one of yours",
  "help.command.extend": "hold your claim longer",
  "help.command.mine": "your claims, with Extend and Release buttons",
  "help.command.keep":
    "snooze idle alerts and auto-stop for a host (30m, 4h, 2d, or 'tomorrow' for 09:00 on the next working day)",
  "help.command.stop": "stop an idle host (owners, claimants, the cost warden and admins)",
  "help.command.start":
    "start a stopped host again (owners, claimants, project members, the cost warden and admins)",
  "help.command.heatmap":
    "the hour-of-week heatmap of the last 8 weeks as a PNG in your DM; project=<name>: only that project's GPU time",
  "help.command.report":
    "cost ledger of the last days (default 7): cost, idle cost, real usage rate; `project`: a month's cost per project; the CSV by DM",
  "help.command.warden":
    "this month's cost warden and the next; swap or skip a turn (the warden or an admin)",
  "help.command.request":
    "ask for more GPUs: a form with a plan for the next 3 months, decided by the cost warden or an admin",
  "help.footer": "Durations: {durations}. GPU lists: {gpuLists}.",
  "help.noClaims": "You hold no claims.",
  "help.yourClaims": "Your claims: {claims}.",
  "help.claimUntil": "{slots} until {until, date, time}",
  "help.claimUntilDay": "{slots} until {until, date, dayTime}",
} as const satisfies Record<string, string>;
