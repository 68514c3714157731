/** The cost warden: the monthly announcement, the checklist DM, `/gpu warden` and its swaps and skips. */
export const warden = {
  "warden.month":
    "{month, select, 1 {January {year}} 2 {February {year}} 3 {March {year}} 4 {April {year}} 5 {May {year}} 6 {June {year}} 7 {July {year}} 8 {August {year}} 9 {September {year}} 10 {October {year}} 11 {November {year}} other {December {year}}}",
  "warden.announcement": "{warden} is the cost warden for {month}.",
  "warden.announcement.next": "Next: {user} ({month}).",
  "warden.announcement.duty": "Idle-machine escalations and reclaim decisions go to the warden this month.",
  "warden.announcement.late": "(Announced late: the bot was not running on the 1st.)",
  "warden.announcement.hint": "`/gpu warden` shows the roster; `/gpu warden skip` if you are away.",
  "warden.checklist.title": "You are the cost warden for {month}",
  "warden.checklist.intro":
    "This month the idle-machine escalations and reclaim decisions come to you. Your checklist:",
  "warden.checklist.idle": "1. Idle hosts now",
  "warden.checklist.reclaims": "2. Pending reclaim decisions",
  "warden.checklist.top": "3. Top idle cost in {month}",
  "warden.checklist.noData": "4. Hosts with no data",
  "warden.checklist.idleSince": "{host} — idle since {since}",
  "warden.checklist.idleNone": "None right now.",
  "warden.checklist.none": "None.",
  "warden.checklist.reclaimOff": "The reclaim workflow is not set up.",
  "warden.checklist.reclaim": "{host} — pending since {since}; {due}",
  "warden.checklist.reclaimUtil": "{host} — pending since {since}, {util} mean utilisation; {due}",
  "warden.checklist.decideNow": "decision due now",
  "warden.checklist.decideBy": "decide by {at}",
  "warden.checklist.topLine": "{host} — {cost} ({hours} idle GPU-hours)",
  "warden.checklist.noPrice":
    "No host has a price: set `cost_per_hour` or `purchase_price` under `hosts.<name>`.",
  "warden.checklist.noIdleCost": "No idle cost.",
  "warden.checklist.total":
    "Fleet idle cost: {cost} over {days, plural, one {# day} other {# days}} in the ledger.",
  "warden.checklist.neverSeen": "{host} — never seen",
  "warden.checklist.noDataSince": "{host} — no data since {at}",
  "warden.checklist.footer":
    "`/gpu status` for the fleet, `/gpu report 30d` for the ledger, `/gpu warden skip` if you are away. Times in {zone}.",
  "warden.checklist.text":
    "You are the cost warden for {month}: {idle, plural, one {# idle host} other {# idle hosts}} now, {reclaims, plural, one {# pending reclaim decision} other {# pending reclaim decisions}}, {noData, plural, one {# host} other {# hosts}} without data.",
  "warden.more": "…and {count} more",
  "warden.noRoster":
    "There is no cost warden roster: add Slack user ids under `warden.roster` in the config.",
  "warden.status": "Cost warden for {month}: {user}.",
  "warden.roster.order": "Roster, in order:",
  "warden.roster.coming": "Coming months:",
  "warden.roster.changed": "(swapped or skipped)",
  "warden.roster.text": "Cost warden roster: {count, plural, one {# person} other {# people}}",
  "warden.change.skip": "{from} is away this month",
  "warden.change.handedOver": "{actor} handed over their turn",
  "warden.change.tookOver": "{actor} took over {from}'s turn",
  "warden.change.swapped": "{actor} swapped {from}'s turn",
  "warden.change.announcement": "{to} is the cost warden for {month} ({why}).",
  "warden.change.later": "{user} takes {month} instead.",
  "warden.change.done": "Done: {to} is the cost warden for {month}.",
  "warden.change.doneAfter": "The channel is told, and the new warden gets the checklist.",
  "warden.refused.notAllowed":
    "Only this month's cost warden ({warden}) can {kind, select, swap {swap the turn} other {skip the turn}}.",
  "warden.refused.notAllowedAdmins":
    "Only this month's cost warden ({warden}) or an admin ({admins}) can {kind, select, swap {swap the turn} other {skip the turn}}.",
  "warden.refused.alreadyWarden":
    "{kind, select, swap {Cannot swap: they are already this month's cost warden.} other {Cannot skip: they are already this month's cost warden.}}",
  "warden.refused.nobodyElse":
    "{kind, select, swap {Cannot swap: nobody else is on the roster to take over.} other {Cannot skip: nobody else is on the roster to take over.}}",
} as const satisfies Record<string, string>;
