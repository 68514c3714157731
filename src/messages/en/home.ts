/** The App Home tab: your claims, the cost warden of the month, the fleet board's own words. */
export const home = {
  "home.mine.noneTitle": "Your claims:",
  "home.mine.none":
    "none. {claimHost} or {claimCount} takes GPUs; claims last {duration} unless you say otherwise.",
  "home.mine.more": "…and {count} more: {example} lists them all.",
  "home.warden.title": "Cost warden this month:",
  "home.warden.noneTitle": "Cost warden:",
  "home.warden.none": "nobody this month (set {key} in the config).",
  "home.fleet": "Fleet",
  "home.asOf": "As of {at} ({zone}) · {example} shows one host in detail",
  "home.board.util": "util {utils} %",
  "home.board.alertOpen": "alert open",
  "home.board.omitted": "{omitted}: {example} shows any of them.",
} as const satisfies Record<string, string>;
