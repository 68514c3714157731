import type { LintFinding } from "../domain/lint-finding.ts";
import type { Translator } from "../messages/translator.ts";

/** How `gpu-warden lint` prints its findings. */
export type LintFormat = "text" | "json" | "github";

/** The sentence for one finding, in the reader's language. */
export function lintMessage(tr: Translator, finding: LintFinding): string {
  switch (finding.rule) {
    case "unparsable":
      return tr.t("lint.unparsable", { detail: finding.detail });
    case "missing-requests":
      return tr.t("lint.missingRequests", { ...names(finding), missing: finding.missing.join(", ") });
    case "missing-limits":
      return tr.t("lint.missingLimits", { ...names(finding), missing: finding.missing.join(", ") });
    case "cpu-over-request":
      return tr.t("lint.cpuOverRequest", {
        ...names(finding),
        requested: finding.requestedCores,
        peak: finding.peakCores,
        suggested: finding.suggestedCores,
      });
    case "gpu-memory-over-request":
      return tr.t("lint.gpuMemoryOverRequest", {
        ...names(finding),
        requested: finding.requestedMiB,
        peak: finding.peakMiB,
        suggested: finding.suggestedMiB,
      });
    case "namespace-without-defaults":
      return tr.t("lint.namespaceWithoutDefaults", {
        namespace: finding.namespace,
        cpu: finding.cpuRequestCores,
        mib: String(finding.gpuMemoryMiB),
      });
    case "serving-priority":
      return servingMessage(tr, finding);
    case "gpu-memory-cap-high":
      return tr.t("lint.gpuMemoryCapHigh", {
        ...names(finding),
        capPct: finding.capPct,
        maxPct: finding.maxPct,
      });
    default:
      return finding satisfies never;
  }
}

function names(finding: { workload: string; container: string }) {
  return { workload: finding.workload, container: finding.container };
}

function servingMessage(tr: Translator, finding: Extract<LintFinding, { rule: "serving-priority" }>): string {
  // words-ok: the ICU select's key, not shown
  const experiments = finding.experimentsPriority === null ? "none" : String(finding.experimentsPriority);
  return finding.priorityClass === null
    ? tr.t("lint.servingNoPriority", { workload: finding.workload, experiments })
    : tr.t("lint.servingLowPriority", {
        workload: finding.workload,
        priorityClass: finding.priorityClass,
        experiments,
      });
}

/**
 * The findings as `format` shows them: one line each and a total (text), one JSON document, or
 * GitHub Actions workflow commands (`::error file=…,line=…::`) with the file as given.
 */
export function lintReport(
  tr: Translator,
  findings: readonly LintFinding[],
  files: number,
  format: LintFormat,
): string {
  switch (format) {
    case "json":
      return `${JSON.stringify({ files, findings: findings.map((f) => ({ ...f, message: lintMessage(tr, f) })) }, null, 2)}\n`;
    case "github":
      // words-ok: the annotation's title names the tool and the rule
      return findings
        .map(
          (f) =>
            `::error file=${property(f.file)},line=${f.line},title=${property(`gpu-warden ${f.rule}`)}::${data(lintMessage(tr, f))}\n`,
        )
        .join("");
    case "text": {
      const lines = findings.map((f) =>
        tr.t("lint.finding", {
          file: f.file,
          line: String(f.line),
          message: lintMessage(tr, f),
          rule: f.rule,
        }),
      );
      return [...lines, tr.t("lint.total", { count: findings.length, files })]
        .map((line) => `${line}\n`)
        .join("");
    }
    default:
      return format satisfies never;
  }
}

/** GitHub's escaping of a workflow command's message. */
function data(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** GitHub's escaping of a workflow command's property value. */
function property(text: string): string {
  return data(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}
