/** `/gpu release` and the *Release* buttons: what was released, refusals, who may force a release. */
export const release = {
  "release.released": "Released {what}.",
  "release.forced": "Released {what}, claimed by {who}; they have been told.",
  "release.none.mine": "You hold no claims.",
  "release.none.slots": "Nobody holds {what}.",
  "release.refused": "{holders} Only {names}, {forcers} can release it.",
  "release.forcers.warden": "the cost warden ({who})",
  "release.forcers.admins": "an admin ({who})",
  "release.forcers.nobody": "nobody else (no cost warden or admin is configured)",
  "release.sayWhich": "You hold {count} claims ({what}): say which, or {all}.",
  "release.wholeHost": "You hold all of {host}, not single GPUs of it: release it whole ({whole}).",
} as const satisfies Record<string, string>;
