import type { Translator } from "../messages/translator.ts";
import { toCsv } from "../shared/csv.ts";
import { type CsvColumnId, hours, money } from "./summary-csv-cells.ts";
import type { SummaryModel } from "./summary-model.ts";

/** The summary's people CSV: claims, GPU-hours, idle cost, stops and keeps per person. */
export function peopleCsv(tr: Translator, model: SummaryModel): string {
  const col = (id: CsvColumnId) => tr.t(id);
  const currency = model.currency.toLowerCase();
  return toCsv(
    [
      col("csv.col.user"),
      col("csv.col.claims"),
      col("csv.col.claimedGpuHours"),
      col("csv.col.busyGpuHours"),
      col("csv.col.idleGpuHours"),
      tr.t("csv.col.claimIdleCost", { currency }),
      col("csv.col.stops"),
      tr.t("csv.col.saved", { currency }),
      col("csv.col.keeps"),
    ],
    model.people.map((p) => [
      p.user,
      p.claims,
      hours(p.claimedGpuHours),
      hours(p.busyGpuHours),
      hours(p.idleGpuHours),
      money(p.idleCost),
      p.stops,
      money(p.savedCost),
      p.keeps,
    ]),
  );
}
