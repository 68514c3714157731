/** The summary's hour-of-week heatmap: title, legend, notes, alt text and the file's title. */
export const heatmap = {
  "heatmap.title": "GPU use by hour of the week, {from, date, day} – {to, date, dayYear}",
  "heatmap.subtitle":
    "Share of each host's GPUs busy in each hour ({zone}), from the last {weeks} weeks of hourly readings; grey: too few readings to say.",
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
