/** Host hygiene: `gpu-warden hygiene`, the weekly checklist DM and the summary's section. */
export const hygiene = {
  "hygiene.check.sshd": "sshd",
  "hygiene.check.disk": "disks",
  "hygiene.check.docker": "Docker",
  "hygiene.check.sessions": "logins",
  "hygiene.check.containers": "containers",
  "hygiene.line": "{check}: {text}",
  "hygiene.sshdUnset":
    "ClientAliveInterval is not set, so dead SSH sessions never time out and make the host look in use: add the line ''{add}'' to {file}, above any Match block",
  "hygiene.sshdTooLong":
    "ClientAliveInterval is {seconds} s: put ''{add}'' in place of line {line} of {file}",
  "hygiene.sshdTooLongNoLine": "ClientAliveInterval is {seconds} s: set ''{add}'' in {file}",
  "hygiene.diskFull": "{mount} is {pct}% full ({gib, number, decimal1} GiB free)",
  "hygiene.dockerImages": "Docker could free {gib, number, decimal1} GB of unused images: {command}",
  "hygiene.dockerBuildCache": "Docker could free {gib, number, decimal1} GB of build cache: {command}",
  "hygiene.oldImages":
    "{count, plural, one {# image} other {# images}} no container has used, older than {days} days ({gib, number, decimal1} GB): {command}",
  "hygiene.idleSession":
    "{user} on {tty}{from, select, none {} other { from {from}}} idle for {days, plural, one {# day} other {# days}}: with a session like that the host never counts as idle; end it",
  "hygiene.noMemoryCap":
    "container {container} ({image}) runs without a memory cap: set one (docker run --memory, mem_limit in Compose)",
  "hygiene.nothingToFix": "nothing to fix",
  "hygiene.noDocker": "no Docker on this host",
  "hygiene.couldNotCheck.timeout": "could not check: no answer within {seconds} s",
  "hygiene.couldNotCheck.noAccess":
    "could not check: no shell access to this host (only ssh and local sources have one)",
  "hygiene.couldNotCheck.failed": "could not check: {detail}",
  "hygiene.unknownHost": "no host {host} with ssh or local access; these have: {hosts}",
  "hygiene.noHosts": "no host to check: hygiene reads the hosts of ssh and local sources",
  "hygiene.total":
    "{findings, plural, =0 {nothing to fix} one {# thing to fix} other {# things to fix}} on {hosts, plural, one {# host} other {# hosts}}{unchecked, plural, =0 {} other {; # checks could not run}}",
  "hygiene.checklistTitle": "Host hygiene: new or changed since last time",
  "hygiene.checklistIntro": "Found by the weekly check, read-only; each is shown once until it changes.",
  "hygiene.adviceTitle": "Cheaper ways to run the same work",
  "hygiene.adviceSpot":
    "{count, plural, one {# run} other {# runs}} of at most {hours} h ended cleanly: on spot instances they would have cost {saving, number, money} less ({discount}% off {cost, number, money})",
  "hygiene.adviceValley":
    "{count, plural, one {# batch run} other {# batch runs}} started in peak hours: waiting for the valley hours would have saved {saving, number, moneyCents} of electricity",
  "hygiene.adviceMixed": "{hosts} run both serving and experiments: split them into separate pools",
  "hygiene.summaryTitle": "Host hygiene",
} as const;
