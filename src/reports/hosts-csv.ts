import type { Translator } from "../messages/translator.ts";
import { type CsvCell, toCsv } from "../shared/csv.ts";
import { slotLabel } from "../shared/gpu-slot.ts";
import { dayjs } from "../shared/time.ts";
import { type CsvColumnId, compareText, hours, money, pct } from "./summary-csv-cells.ts";
import type { SummaryModel } from "./summary-model.ts";

/** The summary's hosts CSV: one row per host (with a column per day), then one per GPU of it. */
export function hostsCsv(tr: Translator, model: SummaryModel): string {
  const col = (id: CsvColumnId) => tr.t(id);
  const dayHeaders = model.dayStartsMs.map((ms) =>
    tr.t("csv.col.dayUtilPct", { day: dayjs(ms).tz(model.timezone).format("YYYY-MM-DD") }),
  );
  return toCsv(
    [
      col("csv.col.level"),
      col("csv.col.host"),
      col("csv.col.gpu"),
      col("csv.col.model"),
      col("csv.col.utilMeanPct"),
      col("csv.col.previousUtilMeanPct"),
      col("csv.col.busyGpuHours"),
      col("csv.col.idleGpuHours"),
      col("csv.col.unknownGpuHours"),
      tr.t("csv.col.idleCost", { currency: model.currency.toLowerCase() }),
      col("csv.col.reclaim"),
      col("csv.col.doNotRenew"),
      ...dayHeaders,
    ],
    hostRows(model),
  );
}

/** The rows, made as they are written (a large fleet's rows are never all held at once). */
function* hostRows(model: SummaryModel): Generator<CsvCell[]> {
  const reclaim = new Map(model.reclaim.map((entry) => [entry.host, entry]));
  const renew = new Set(model.doNotRenew.map((flag) => flag.host));
  const gpusOf = new Map<string, SummaryModel["gpus"]>();
  for (const gpu of model.gpus) {
    const list = gpusOf.get(gpu.host);
    if (list === undefined) gpusOf.set(gpu.host, [gpu]);
    else list.push(gpu);
  }
  for (const host of [...model.hosts].sort((a, b) => compareText(a.host, b.host))) {
    yield [
      "host",
      host.host,
      null,
      null,
      pct(host.utilMeanPct),
      pct(host.previousUtilMeanPct),
      hours(host.busyGpuHours),
      hours(host.idleGpuHours),
      hours(host.unknownGpuHours),
      money(host.idleCost),
      reclaim.get(host.host)?.state ?? null,
      renew.has(host.host),
      ...host.dailyUtilPct.map(pct),
    ];
    for (const gpu of gpusOf.get(host.host) ?? []) {
      yield [
        "gpu",
        gpu.host,
        slotLabel(gpu.index),
        gpu.model,
        pct(gpu.utilMeanPct),
        null,
        hours(gpu.busyHours),
        hours(gpu.idleHours),
        hours(gpu.unknownHours),
        money(gpu.idleCost),
        null,
        null,
        ...model.dayStartsMs.map(() => null),
      ];
    }
  }
}
