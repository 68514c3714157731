/** Projects and money: quotas, budgets, the allocation of the fleet's cost to projects. */
export const money = {
  "money.overQuota":
    "Project `{project}` may hold at most {max} GPUs at once: it holds {held} and this asks for {asked}. Release some, or add `--wait` to join the waiting list.",
  "money.overQuota.waiting":
    "Project `{project}` may hold at most {max} GPUs at once and holds {held}: this waits until it may hold {asked} more.",
  "money.title": "cost by project, {month} ({from} … {to}, {zone}), {currency}",
  "money.noDay": "The ledger has no complete day of {month} yet.",
  "money.header.project": "project",
  "money.header.claimed": "claimed GPU-h",
  "money.header.busy": "busy GPU-h",
  "money.header.usedCost": "used {currency}",
  "money.header.idleCost": "idle held {currency}",
  "money.header.cost": "cost {currency}",
  "money.header.share": "share",
  "money.header.waited": "waited h",
  "money.unattributed": "unattributed",
  "money.total": "total (ledger)",
  "money.note.unattributed":
    "Unattributed: GPU time no claim, namespace, label or login ties to a project, with the idle and unknown time nobody held.",
  "money.note.ends": "The month's ledger ends on {day} (the last complete day).",
  "money.col.project": "project",
  "money.col.claimedGpuHours": "claimed_gpu_hours",
  "money.col.busyGpuHours": "busy_gpu_hours",
  "money.col.usedCost": "used_cost",
  "money.col.idleCost": "idle_cost",
  "money.col.cost": "cost",
  "money.col.share": "share",
  "money.col.waitedHours": "waited_hours",
  "money.col.currency": "currency",
  "money.cli.byProject": "--by takes ''project'' (the report per project), not ''{typed}''",
  "money.cli.notMonth": "--month takes a month as YYYY-MM, such as 2026-11, not ''{typed}''",
  "money.monthly.intro":
    "📊 {month} is over: its cost split among projects, with the new cost warden's hand-over. The CSV with every project is attached.",
  "money.slack.title": "Cost by project, {month}",
  "money.slack.range": "{from} to {to}, {zone}; the ledger: {total}",
  "money.slack.line":
    "• {name}: {cost} ({share}): used {used}, idle GPUs held {idle}; {claimed} GPU-hours claimed, {busy} busy; waited {waited} h in the queue",
  "money.slack.csvInDm": "The CSV is in your DM with the bot.",
  "money.csv.title": "GPU cost by project, {month} ({currency})",
  "money.csv.comment": "{title}: one row per project, {columns} columns.",
  "money.command.notMonth": "`{text}` is not a month: use YYYY-MM, e.g. `report project 2026-11`.",
  "money.budget.near":
    "💸 Project `{project}` has spent {spent} of its {budget} budget for {month} ({level} %).",
  "money.budget.reached":
    "🛑 Project `{project}` has spent {spent} of its {budget} budget for {month}: the budget is used up.",
  "money.budget.burning":
    "Claimed GPU-hours by host: {hosts}. By person: {people}. Idle GPUs it held: {idle} of its cost.",
  "money.budget.none": "none",
  "money.home.project":
    "({project, select, other {project {project}} _none {no project}}, priority {priority})",
  "money.usedBy": "Claimed in the last 30 days by: {list}.",
  "money.usedBy.entry": "{project} ({hours} GPU-hours)",
  "money.usedBy.nobody": "Nobody claimed it in the last 30 days.",
  "money.usedBy.separator": ", ",
  "money.summary.title": "Cost by project, {from} to {to} (complete days):",
  "money.summary.line":
    "• {name}: {cost} ({share}), idle GPUs held {idle}; {busy} busy GPU-hours; waited {waited} h in the queue",
} as const satisfies Record<string, string>;
