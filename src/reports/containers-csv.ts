import type { Translator } from "../messages/translator.ts";
import { toCsv } from "../shared/csv.ts";
import { type CsvColumnId, round } from "./summary-csv-cells.ts";
import type { SummaryModel } from "./summary-model.ts";

/**
 * The summary's containers CSV: requests against peaks and the right-sizing advice per container, the
 * cluster first when groups are named by cluster.
 */
export function containersCsv(
  tr: Translator,
  advice: Extract<SummaryModel["containers"], { status: "ok" }>["advice"],
): string {
  const col = (id: CsvColumnId) => tr.t(id);
  const clusters = advice.some((a) => a.usage.cluster !== undefined);
  const rows = advice.map((a) => [
    a.usage.namespace,
    a.usage.workload,
    a.usage.container,
    a.usage.pods,
    round(a.usage.cpuRequestCores, 3),
    round(a.usage.cpuPeakCores, 3),
    round(a.usage.cpuMeanCores, 3),
    round(a.cpu?.peakRatio ?? null, 3),
    round(a.cpu?.recommendedCores ?? null, 3),
    a.usage.gpuRequest,
    round(a.usage.gpuMemMaxMiB, 0),
    round(a.usage.gpuMemTotalMiB, 0),
    round(a.gpuMem?.recommendedMiB ?? null, 0),
    a.flagged,
  ]);
  const header = [
    col("csv.col.namespace"),
    col("csv.col.workload"),
    col("csv.col.container"),
    col("csv.col.pods"),
    col("csv.col.cpuRequestCores"),
    col("csv.col.cpuPeakCores"),
    col("csv.col.cpuMeanCores"),
    col("csv.col.cpuPeakRatio"),
    col("csv.col.cpuRecommendedCores"),
    col("csv.col.gpuRequest"),
    col("csv.col.gpuMemMaxMib"),
    col("csv.col.gpuMemTotalMib"),
    col("csv.col.gpuMemRecommendedMib"),
    col("csv.col.flagged"),
  ];
  if (!clusters) return toCsv(header, rows);
  return toCsv(
    [col("csv.col.cluster"), ...header],
    rows.map((row, i) => [advice[i]!.usage.cluster ?? "", ...row]),
  );
}
