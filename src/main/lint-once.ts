import { type LintPolicy, lintManifests } from "../checks/lint-manifests.ts";
import { DEFAULT_RIGHTSIZING } from "../checks/rightsizing.ts";
import type { Config } from "../config/schema.ts";
import type { LintFinding } from "../domain/lint-finding.ts";
import { parseManifests } from "../sources/parse-manifests.ts";
import { summaryPrometheus } from "../sources/summary-prometheus.ts";
import { readContainerUsage } from "../usecases/ledger/summary-containers.ts";

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
 * Lints resource files read together, with the last 14 days of container usage when a Prometheus
 * source knows the containers (a query that fails leaves the usage rules out and says why).
 */
export async function lintOnce(
  files: readonly { name: string; text: string }[],
  config: Pick<Config, "lint" | "sources">,
  nowMs: number,
): Promise<LintOutcome> {
  const parsed = files.map((file) => parseManifests(file.name, file.text));
  const client = summaryPrometheus(config);
  let usage: LintOutcome["usage"] = "no-prometheus";
  let groups: Awaited<ReturnType<typeof readContainerUsage>> = [];
  if (client !== null) {
    try {
      groups = await readContainerUsage(client, { fromMs: nowMs - WINDOW_MS, toMs: nowMs });
      usage = "checked";
    } catch (error) {
      usage = { failed: error instanceof Error ? error.message : String(error) };
    }
  }
  return { findings: lintManifests(parsed, groups, lintPolicy(config)), usage };
}
