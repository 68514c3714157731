import type { Translator } from "../messages/translator.ts";
import { actionsCsv } from "./actions-csv.ts";
import { containersCsv } from "./containers-csv.ts";
import { hostsCsv } from "./hosts-csv.ts";
import { peopleCsv } from "./people-csv.ts";
import type { SummaryModel } from "./summary-model.ts";

/** One CSV file of the summary. */
export interface CsvFile {
  filename: string;
  title: string;
  content: string;
}

/**
 * The summary's full tables as CSV (RFC 4180, `\r\n`, a header row): hosts and GPUs, people, stops
 * and snoozes, and containers when Prometheus answered (some cluster's, with several). Numbers are plain (no thousands separators);
 * unknown values are empty cells. Times are local ISO 8601 with the offset.
 */
export function summaryCsvFiles(tr: Translator, model: SummaryModel, stem: string): CsvFile[] {
  const files: CsvFile[] = [
    { filename: `${stem}-hosts.csv`, title: tr.t("csv.hosts.title"), content: hostsCsv(tr, model) },
    { filename: `${stem}-people.csv`, title: tr.t("csv.people.title"), content: peopleCsv(tr, model) },
    { filename: `${stem}-actions.csv`, title: tr.t("csv.actions.title"), content: actionsCsv(tr, model) },
  ];
  const { containers } = model;
  if (containers.status === "ok" && (containers.advice.length > 0 || !containers.failures?.length)) {
    files.push({
      filename: `${stem}-containers.csv`,
      title: tr.t("csv.containers.title"),
      content: containersCsv(tr, containers.advice),
    });
  }
  return files;
}
