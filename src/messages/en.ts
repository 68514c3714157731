/**
 * The English catalog: every message id with its ICU MessageFormat text. It defines the ids (the
 * other languages must have the same ids with the same arguments); `zh-cn.ts` follows it and the
 * glossary (`glossary.md`).
 *
 * Named formats the translator provides (see `translator.ts`): numbers `money` (team currency, whole
 * units), `moneyCents` (with cents), `pct` (a fraction: 0.42 → `42%`), `decimal1`; dates and times in the team
 * zone `day`, `dayYear`, `weekdayDay`, `weekday`, `month`, `time`, `dayTime`.
 *
 * A plural or select branch is never a single word (`one {is}`): the type-level argument finder
 * (`ArgNames` in `catalog.ts`) would read it as an argument; the catalog test checks this.
 */
export const en = {
  "common.period": "{from, date, day} – {to, date, dayYear}",
  "common.hosts": "{count, plural, one {# host} other {# hosts}}",
  "common.gpus": "{count, plural, one {# GPU} other {# GPUs}}",
  "common.days": "{count, plural, one {# day} other {# days}}",
  "common.money": "{amount, number, money}",
  "common.moneyCents": "{amount, number, moneyCents}",
  "common.pct": "{ratio, number, pct}",
  "common.gpuHours": "{hours, plural, one {# GPU-hour} other {# GPU-hours}}",

  "duration.minutes": "{minutes} min",
  "duration.hours": "{hours} h",
  "duration.hoursMinutes": "{hours} h {minutes} min",
  "duration.days": "{days} d",
  "duration.daysHours": "{days} d {hours} h",
  "duration.long": "{hours, plural, one {# hour} other {# hours}}",

  "chart.title.cost": "Idle cost per day by host, {from, date, day} – {to, date, dayYear} ({currency})",
  "chart.title.hours": "Idle GPU-hours per day by host, {from, date, day} – {to, date, dayYear}",
  "chart.subtitle.cost":
    "{total, number, money} of idle cost in {days, plural, one {# day} other {# days}} on {hosts, plural, one {# host} other {# hosts}} ({gpus, plural, one {# GPU} other {# GPUs}}); GPU time without readings is never counted as idle.",
  "chart.subtitle.hours":
    "{total, number, decimal1} idle GPU-hours in {days, plural, one {# day} other {# days}} on {hosts, plural, one {# host} other {# hosts}} ({gpus, plural, one {# GPU} other {# GPUs}}); GPU time without readings is never counted as idle.",
  "chart.axis.cost": "idle cost ({currency})",
  "chart.axis.hours": "idle GPU-hours",
  "chart.legend.title.cost": "Idle cost, {count, plural, one {# day} other {# days}}",
  "chart.legend.title.hours": "Idle GPU-hours, {count, plural, one {# day} other {# days}}",
  "chart.legend.others": "{count, plural, one {# other host} other {# other hosts}}",
  "chart.weekend": "weekend",
  "chart.empty": "No idle GPU time in this period.",
  "chart.note.unpriced":
    "{count, plural, one {# GPU has no price for some idle hours and is} other {# GPUs have no price for some idle hours and are}} left out of the cost.",
  "chart.note.noPrice":
    "No host has a price, so the chart counts idle GPU-hours: set cost_per_hour or purchase_price under hosts.",
  "chart.alt.cost":
    "Stacked bars of idle cost per day, {from, date, day} to {to, date, dayYear}, by host ({shown, plural, one {# host} other {# hosts}}{others, plural, =0 {} other { and # others}}): {total, number, money} in all.",
  "chart.alt.hours":
    "Stacked bars of idle GPU-hours per day, {from, date, day} to {to, date, dayYear}, by host ({shown, plural, one {# host} other {# hosts}}{others, plural, =0 {} other { and # others}}): {total, number, decimal1} GPU-hours in all.",
  "chart.file.title": "Idle cost per day by host",
} as const satisfies Record<string, string>;
