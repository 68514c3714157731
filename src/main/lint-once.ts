import { type LintPolicy, lintManifests } from "../checks/lint-manifests.ts";
import { DEFAULT_RIGHTSIZING } from "../checks/rightsizing.ts";
import type { Config } from "../config/schema.ts";
import type { LintFinding } from "../domain/lint-finding.ts";
import { parseManifests } from "../sources/parse-manifests.ts";
import { summaryPrometheus } from "../sources/summary-prometheus.ts";
import { readClustersContainerUsage } from "../usecases/ledger/summary-containers.ts";

const WINDOW_MS = 14 * 24 * 3600_000;
const MIB_PER_GIB = 1024;

/** What `lint` checked and found; `usage` says whether the 14-day usage rules could run. */
export interface LintOutcome {
  findings: LintFinding[];
  usage: "checked" | "no-prometheus" | { failed: string };
}

/** The team's lint rules from the configuration. */
export function lintPolicy(config: Pick<Config, "lint">): LintPolicy {
  return {
    cpuHeadroom: DEFAULT_RIGHTSIZING.cpuHeadroom,
    gpuMemHeadroom: DEFAULT_RIGHTSIZING.gpuMemHeadroom,
    defaultCpuRequestCores: config.lint.default_cpu_request_cores,
    defaultGpuMemoryMiB: config.lint.default_gpu_memory_gib * MIB_PER_GIB,
    gpuMemoryCapPct: config.lint.gpu_memory_cap_pct,
    cardMemoryMiB: config.lint.card_memory_gib * MIB_PER_GIB,
  };
}

/**
 * Lints resource files read together, with the last 14 days of container usage when Prometheus
 * sources know the containers (every cluster's; one that fails leaves its usage out and says why).
 */
export async function lintOnce(
  files: readonly { name: string; text: string }[],
  config: Pick<Config, "lint" | "sources">,
  nowMs: number,
): Promise<LintOutcome> {
  const parsed = files.map((file) => parseManifests(file.name, file.text));
  const sources = summaryPrometheus(config);
  if (sources.length === 0)
    return { findings: lintManifests(parsed, [], lintPolicy(config)), usage: "no-prometheus" };
  const { groups, failures } = await readClustersContainerUsage(sources, {
    fromMs: nowMs - WINDOW_MS,
    toMs: nowMs,
  });
  const usage: LintOutcome["usage"] =
    failures.length === 0
      ? "checked"
      : {
          failed: failures
            .map((f) => (f.cluster === null ? f.message : `${f.cluster}: ${f.message}`))
            .join("; "),
        };
  return { findings: lintManifests(parsed, groups, lintPolicy(config)), usage };
}
