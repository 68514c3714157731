/** The Keep buttons and `/gpu keep`: the answer, the thread note and the refusals. */
export const keep = {
  "keep.kept": "Kept {host} until {until} ({duration}): no idle alerts or automatic stop until then.",
  "keep.keptCapped":
    "Kept {host} until {until} ({duration}); capped at {max}, the longest keep allowed: no idle alerts or automatic stop until then.",
  "keep.already":
    "{host} is already kept until {until} (by {user}): no idle alerts or automatic stop until then.",
  "keep.alreadyYou":
    "{host} is already kept until {until} (by you): no idle alerts or automatic stop until then.",
  "keep.neverStop":
    "{host} is marked `never_stop`: it is never alerted or stopped, so there is nothing to keep.",
  "keep.note": "{host} kept by {user} until {until} ({duration}).",
  "keep.noteCapped":
    "{host} kept by {user} until {until} ({duration}); capped at {max}, the longest keep allowed.",
  "keep.refused.nobody":
    "Nobody can keep {host} yet: add its owners under `hosts.{host}.owners` or admins under `slack.admins` in the config.",
  "keep.refused.only": "Only {who} can keep it.",
} as const satisfies Record<string, string>;
