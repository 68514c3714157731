import type { Translator } from "../messages/translator.ts";
import { type CsvCell, toCsv } from "../shared/csv.ts";
import { dayjs } from "../shared/time.ts";
import { type CsvColumnId, compareText, hours, money } from "./summary-csv-cells.ts";
import type { SummaryModel } from "./summary-model.ts";

/** The summary's actions CSV: stops and keeps (snoozes) in time order, times local ISO 8601. */
export function actionsCsv(tr: Translator, model: SummaryModel): string {
  const col = (id: CsvColumnId) => tr.t(id);
  const currency = model.currency.toLowerCase();
  const when = (ms: number | null) =>
    ms === null ? null : dayjs(ms).tz(model.timezone).format("YYYY-MM-DDTHH:mm:ssZ");
  return toCsv(
    [
      col("csv.col.action"),
      col("csv.col.host"),
      col("csv.col.user"),
      col("csv.col.at"),
      col("csv.col.until"),
      col("csv.col.hours"),
      tr.t("csv.col.saved", { currency }),
      col("csv.col.forced"),
    ],
    [
      ...model.stops.map((s): CsvCell[] => [
        "stop",
        s.host,
        s.actor,
        when(s.atMs),
        when(s.nextUseMs),
        hours(s.offHours),
        money(s.savedCost),
        s.forced,
      ]),
      ...model.keeps.map((k): CsvCell[] => [
        "keep",
        k.host,
        k.actor,
        when(k.atMs),
        when(k.untilMs),
        hours(k.keptHours),
        null,
        null,
      ]),
    ].sort((a, b) => compareText(String(a[3]), String(b[3]))),
  );
}
