import type { MessageId } from "../messages/catalog.ts";
import type { Translator } from "../messages/translator.ts";
import { type CsvCell, toCsv } from "../shared/csv.ts";
import { slotLabel } from "../shared/gpu-slot.ts";
import { dayjs } from "../shared/time.ts";
import type { SummaryModel } from "./summary-model.ts";

type CsvColumnId = Exclude<
  Extract<MessageId, `csv.col.${string}`>,
  "csv.col.idleCost" | "csv.col.claimIdleCost" | "csv.col.saved" | "csv.col.dayUtilPct"
>;

/** One CSV file of the summary. */
export interface CsvFile {
  filename: string;
  title: string;
  content: string;
}

/**
 * The summary's full tables as CSV (RFC 4180, `\r\n`, a header row): hosts and GPUs, people, stops
 * and snoozes, and containers when Prometheus answered. Numbers are plain (no thousands separators);
 * unknown values are empty cells. Times are local ISO 8601 with the offset.
 */
export function summaryCsvFiles(tr: Translator, model: SummaryModel, stem: string): CsvFile[] {
  const zone = model.timezone;
  const currency = model.currency.toLowerCase();
  const col = (id: CsvColumnId) => tr.t(id);
  const when = (ms: number | null) =>
    ms === null ? null : dayjs(ms).tz(zone).format("YYYY-MM-DDTHH:mm:ssZ");
  const dayHeaders = model.dayStartsMs.map((ms) =>
    tr.t("csv.col.dayUtilPct", { day: dayjs(ms).tz(zone).format("YYYY-MM-DD") }),
  );
  const reclaim = new Map(model.reclaim.map((entry) => [entry.host, entry]));
  const renew = new Set(model.doNotRenew.map((flag) => flag.host));

  const hostRows: CsvCell[][] = [];
  for (const host of [...model.hosts].sort((a, b) => compare(a.host, b.host))) {
    hostRows.push([
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
    ]);
    for (const gpu of model.gpus.filter((g) => g.host === host.host)) {
      hostRows.push([
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
      ]);
    }
  }
  const files: CsvFile[] = [
    {
      filename: `${stem}-hosts.csv`,
      title: tr.t("csv.hosts.title"),
      content: toCsv(
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
          tr.t("csv.col.idleCost", { currency }),
          col("csv.col.reclaim"),
          col("csv.col.doNotRenew"),
          ...dayHeaders,
        ],
        hostRows,
      ),
    },
    {
      filename: `${stem}-people.csv`,
      title: tr.t("csv.people.title"),
      content: toCsv(
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
      ),
    },
    {
      filename: `${stem}-actions.csv`,
      title: tr.t("csv.actions.title"),
      content: toCsv(
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
        ].sort((a, b) => compare(String(a[3]), String(b[3]))),
      ),
    },
  ];
  if (model.containers.status === "ok") {
    files.push({
      filename: `${stem}-containers.csv`,
      title: tr.t("csv.containers.title"),
      content: toCsv(
        [
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
        ],
        model.containers.advice.map((a) => [
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
        ]),
      ),
    });
  }
  return files;
}

function pct(value: number | null): number | null {
  return round(value, 1);
}

function hours(value: number): number {
  return round(value, 2)!;
}

function money(value: number | null): number | null {
  return round(value, 2);
}

function round(value: number | null, digits: number): number | null {
  if (value === null) return null;
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
