import type { RightsizingAdvice } from "../../../checks/rightsizing.ts";
import type { Translator } from "../../../messages/translator.ts";
import { formatPct } from "../../../reports/summary-format.ts";
import type { SummaryModel } from "../../../reports/summary-model.ts";
import { escapeMrkdwn, formatGiB } from "../alerts/alert-format.ts";
import { summaryRows } from "./summary-message-format.ts";

/**
 * The containers section: off, failed, or how many were looked at, the clusters whose engine did not
 * answer, and the flagged ones' advice.
 */
export function summaryContainersText(
  tr: Translator,
  model: SummaryModel,
  maxRows: number,
  more: (left: number) => string,
): string {
  const containers = model.containers;
  switch (containers.status) {
    case "off":
      return tr.t("summary.containers.off");
    case "failed":
      return tr.t("summary.containers.failed", { message: escapeMrkdwn(containers.message) });
    case "ok": {
      const flagged = containers.advice.filter((a) => a.flagged);
      const failed = (containers.failures ?? []).map(({ cluster, message }) =>
        cluster === null
          ? tr.t("summary.containers.failed", { message: escapeMrkdwn(message) })
          : tr.t("summary.containers.clusterFailed", { cluster, message: escapeMrkdwn(message) }),
      );
      const head =
        containers.advice.length === 0
          ? failed.length === 0
            ? [tr.t("summary.containers.none")]
            : []
          : [tr.t("summary.containers.head", { count: containers.advice.length, flagged: flagged.length })];
      const lines = flagged.map((advice) => adviceLine(tr, advice));
      const text = [...head, ...failed].join("\n");
      return flagged.length === 0 ? text : `${text}\n${summaryRows(lines, maxRows, more)}`;
    }
    default:
      return containers satisfies never;
  }
}

/** `• ml/trainer/main: CPU peak 1.2 of 8 cores (15 %) → request 1.44; GPU memory max 9.8 GiB of 80 GiB → 13 GiB`. */
export function adviceLine(tr: Translator, advice: RightsizingAdvice): string {
  const parts: string[] = [];
  const { usage, cpu, gpuMem } = advice;
  if (cpu !== null && usage.cpuRequestCores !== null && usage.cpuPeakCores !== null) {
    const facts = {
      peak: cores(usage.cpuPeakCores),
      request: cores(usage.cpuRequestCores),
      pct: formatPct(100 * cpu.peakRatio),
    };
    parts.push(
      cpu.direction === "ok"
        ? tr.t("summary.advice.cpu", facts)
        : tr.t("summary.advice.cpuChange", { ...facts, recommended: cores(cpu.recommendedCores) }),
    );
  }
  if (gpuMem !== null && usage.gpuMemMaxMiB !== null && usage.gpuMemTotalMiB !== null) {
    const facts = {
      max: formatGiB(usage.gpuMemMaxMiB),
      total: formatGiB(usage.gpuMemTotalMiB),
      pct: formatPct(100 * gpuMem.maxRatio),
    };
    parts.push(
      gpuMem.direction === "lower"
        ? tr.t("summary.advice.gpuMemChange", { ...facts, recommended: formatGiB(gpuMem.recommendedMiB) })
        : tr.t("summary.advice.gpuMem", facts),
    );
  }
  return `• ${escapeMrkdwn(usage.group)}: ${parts.join("; ")}`;
}

/** Cores with up to two decimals: `1.44`, `8`. */
function cores(value: number): string {
  return String(Math.round(value * 100) / 100);
}
