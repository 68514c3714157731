/** Estimated times from the hour-of-week usage profile: the waiting list, `/gpu status`, App Home. */
export const eta = {
  "eta.around": "around {at, date, weekday} {at, date, time}",
  "eta.tooLittle":
    "no estimate yet: {days, number, decimal1} of the {needed} days of usage history an estimate needs",
  "eta.none": "no estimate: the last weeks' usage never shows it free within {days} days",
  "eta.queue.title": "Estimated times, from the hour-of-week usage of the last {weeks} weeks",
  "eta.queue.line": "{position}. {estimate}",
  "eta.queued": "Place in line: {position}. Estimated: {estimate}.",
  "eta.status.title":
    "When busy hosts are usually free, from the hour-of-week usage of the last {weeks} weeks",
  "eta.status.line": "{host}: {estimate}",
  "eta.home.title": "Your place in line",
  "eta.home.line": "{position}. {want}: {estimate}",
  "eta.home.empty": "You are not waiting for GPUs.",
  "eta.home.models": "GPU models",
  "eta.home.model": "{model} ({gpus, plural, one {# GPU} other {# GPUs}}), the next one free: {estimate}",
  "eta.want.any": "{count, plural, one {# GPU} other {# GPUs}}",
  "eta.want.model": "{count, plural, one {# {model} GPU} other {# {model} GPUs}}",
} as const satisfies Record<string, string>;
