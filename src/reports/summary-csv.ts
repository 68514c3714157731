import { type CsvCell, toCsv } from "../shared/csv.ts";
import { slotLabel } from "../shared/gpu-slot.ts";
import { dayjs } from "../shared/time.ts";
import type { SummaryModel } from "./summary-model.ts";

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
export function summaryCsvFiles(model: SummaryModel, stem: string): CsvFile[] {
  const zone = model.timezone;
  const cur = model.currency.toLowerCase();
  const when = (ms: number | null) =>
    ms === null ? null : dayjs(ms).tz(zone).format("YYYY-MM-DDTHH:mm:ssZ");
  const dayHeaders = model.dayStartsMs.map((ms) => `util_pct_${dayjs(ms).tz(zone).format("YYYY-MM-DD")}`);
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
      title: "Hosts and GPUs",
      content: toCsv(
        [
          "level",
          "host",
          "gpu",
          "model",
          "util_mean_pct",
          "previous_util_mean_pct",
          "busy_gpu_hours",
          "idle_gpu_hours",
          "unknown_gpu_hours",
          `idle_cost_${cur}`,
          "reclaim",
          "do_not_renew",
          ...dayHeaders,
        ],
        hostRows,
      ),
    },
    {
      filename: `${stem}-people.csv`,
      title: "People: claims, stops and snoozes",
      content: toCsv(
        [
          "user",
          "claims",
          "claimed_gpu_hours",
          "busy_gpu_hours",
          "idle_gpu_hours",
          `claim_idle_cost_${cur}`,
          "stops",
          `saved_${cur}`,
          "keeps",
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
      title: "Stops and snoozes",
      content: toCsv(
        ["action", "host", "user", "at", "until", "hours", `saved_${cur}`, "forced"],
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
      title: "Containers: requests and use",
      content: toCsv(
        [
          "namespace",
          "workload",
          "container",
          "pods",
          "cpu_request_cores",
          "cpu_peak_cores",
          "cpu_mean_cores",
          "cpu_peak_ratio",
          "cpu_recommended_cores",
          "gpu_request",
          "gpu_mem_max_mib",
          "gpu_mem_total_mib",
          "gpu_mem_recommended_mib",
          "flagged",
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
