/** The summary's hour-of-week heatmap: title, legend, notes, alt text and the file's title. */
export const heatmap = {
  "heatmap.title": "GPU use by hour of the week, {from, date, day} – {to, date, dayYear}",
  "heatmap.subtitle":
    "Share of each host's GPUs busy in each hour ({zone}), from the last {weeks} weeks of hourly readings; grey: too few readings to say.",
  "heatmap.title.project": "{project}: GPU use by hour of the week, {from, date, day} – {to, date, dayYear}",
  "heatmap.subtitle.project":
    "Share of each host's GPUs busy for {project} in each hour ({zone}), from the last {weeks} weeks of hourly readings: its claims, then its namespaces, label and logins; grey: too few readings to say.",
  "heatmap.alt.project":
    "Heatmap of {project}'s GPU use by hour of the week on {hosts, plural, one {# host} other {# hosts}}, {from, date, day} to {to, date, dayYear}.",
  "heatmap.command.sent": "The heatmap *{title}* comes to you as a DM.",
  "heatmap.command.noUse":
    "{project} used no GPU time in the last 8 weeks that a claim, namespace, label or login ties to it: the heatmap in your DM is empty.",
  "heatmap.command.unknownProject": "There is no project `{project}`. Projects: {known}.",
  "heatmap.host": "{host} ({gpus, plural, one {# GPU} other {# GPUs}})",
  "heatmap.legend.idle": "idle",
  "heatmap.legend.busy": "busy",
  "heatmap.legend.unknown": "no readings",
  "heatmap.more": "{count, plural, one {# more host is} other {# more hosts are}} not drawn.",
  "heatmap.empty": "No host has enough hourly readings for an hour-of-week profile yet.",
  "heatmap.alt":
    "Heatmap of GPU use by hour of the week for {hosts, plural, one {# host} other {# hosts}}, {from, date, day} to {to, date, dayYear}.",
  "heatmap.file.title": "GPU use by hour of the week",
} as const satisfies Record<string, string>;
