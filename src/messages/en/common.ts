/** Counts, money, percentages and durations used everywhere. */
export const common = {
  "common.period": "{from, date, day} – {to, date, dayYear}",
  "common.hosts": "{count, plural, one {# host} other {# hosts}}",
  "common.gpus": "{count, plural, one {# GPU} other {# GPUs}}",
  "common.days": "{count, plural, one {# day} other {# days}}",
  "common.money": "{amount, number, money}",
  "common.moneyCents": "{amount, number, moneyCents}",
  "common.pct": "{ratio, number, pct}",
  "common.gpuHours": "{hours, plural, one {# GPU-hour} other {# GPU-hours}}",
  "common.badButton": "That button could not be read ({problem}); nothing was done.",

  "duration.minutes": "{minutes} min",
  "duration.hours": "{hours} h",
  "duration.hoursMinutes": "{hours} h {minutes} min",
  "duration.days": "{days} d",
  "duration.daysHours": "{days} d {hours} h",
  "duration.long": "{hours, plural, one {# hour} other {# hours}}",
  "common.progress.thread": "the alert's thread",
} as const satisfies Record<string, string>;
