/** The summary chart: titles, axes, legend, notes and its alt text. */
export const chart = {
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
  "chart.file.title.hours": "Idle GPU-hours per day by host",
} as const satisfies Record<string, string>;
