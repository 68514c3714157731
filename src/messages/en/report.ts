/** `/gpu report`: the cost ledger of the last days, and its CSV. */
export const report = {
  "report.title": "{days, plural, one {Cost ledger, last # day} other {Cost ledger, last # days}}",
  "report.empty":
    "{title}: no complete day in the ledger yet. It is written from the hourly rollups once a day (in {zone}) is over.",
  "report.outOfRange": "{title}: no ledger day in that range. The ledger has {first} – {last}.",
  "report.range": "{from} – {to}, {zone}",
  "report.overview":
    "Cost {cost}, idle cost {idleCost}. Real usage rate {rate}: {busy} busy of {on} GPU-hours on; {unknown} GPU-hours without data.",
  "report.overviewShare":
    "Cost {cost}, idle cost {idleCost} ({share} of it). Real usage rate {rate}: {busy} busy of {on} GPU-hours on; {unknown} GPU-hours without data.",
  "report.energy": "Energy {kwh} kWh.",
  "report.saving":
    "Stopping the idle hours would have saved {saving} (power, cloud price, upkeep per hour on; the write-off runs on).",
  "report.top.title": "Most idle cost",
  "report.top.line": "{host}: {idleCost} idle of {cost}, {rate} used",
  "report.months.title": "Real usage rate by month",
  "report.months.line": "{month}: {rate} ({busy} of {on} GPU-hours on)",
  "report.note.ends": "The ledger ends {day}.",
  "report.note.starts": "It starts {day}.",
  "report.note.unpriced": "Hosts without `cost_per_hour` or `purchase_price` have no cost (—).",
  "report.note.suspect":
    "❔ Suspect readings (100 % with no memory at idle power, a known driver fault) are counted busy here: {spans}.",
  "report.note.suspectSpan": "{host} GPU {gpu} {hours} h",
  "report.note.suspectMore": "{count} more",
  "report.note.csvDm": "The CSV with every host and day comes to you as a DM.",
  "report.text":
    "{days, plural, one {Cost ledger, last # day: cost {cost}, idle cost {idleCost}, real usage rate {rate}} other {Cost ledger, last # days: cost {cost}, idle cost {idleCost}, real usage rate {rate}}}",
  "report.day": "{at, date, weekdayDay}, {year}",
  "report.csv.title": "GPU cost ledger {from} to {to} ({zone}, {currency})",
  "report.csv.comment": "{title}: one row per host and day.",
  "report.csv.failed": "The CSV could not be sent to you; the error is logged for the bot's operator.",
  "report.csv.failedCode":
    "The CSV could not be sent to you ({code}); the error is logged for the bot's operator.",
} as const satisfies Record<string, string>;
