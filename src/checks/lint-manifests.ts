import type { LintFinding } from "../domain/lint-finding.ts";
import type { ManifestContainer, ManifestFile, ManifestWorkload } from "../domain/manifest.ts";
import { cpuCores, gpuMemoryMiB } from "./quantity.ts";
import type { ContainerGroupUsage } from "./rightsizing.ts";

/** The team's rules for resource files. */
export interface LintPolicy {
  /** A CPU request above this × the 14-day peak is flagged. */
  cpuHeadroom: number;
  /** A GPU memory request above this × the 14-day maximum is flagged. */
  gpuMemHeadroom: number;
  /** The namespace default CPU request the team asks for, cores. */
  defaultCpuRequestCores: number;
  /** The namespace default GPU memory the team asks for, MiB. */
  defaultGpuMemoryMiB: number;
  /** A per-container GPU memory cap above this share of the card is flagged, percent. */
  gpuMemoryCapPct: number;
  /** The card's memory when Prometheus does not know it, MiB. */
  cardMemoryMiB: number;
}

/** What a GPU container must set: requests, then limits. */
const REQUIRED_REQUESTS = ["cpu", "memory"];
const REQUIRED_LIMITS = ["memory"];
/** HAMi's per-container GPU memory (MiB) and share of the card (percent). */
const GPU_MEM = "nvidia.com/gpumem";
const GPU_MEM_PCT = "nvidia.com/gpumem-percentage";
const WHOLE_GPU = "nvidia.com/gpu";

/**
 * The findings for a set of files read together (a namespace's defaults or a priority class may be
 * in another file than the workloads), in file and line order. `usage` is the 14-day container usage
 * from Prometheus; an empty list skips the usage rules. Pure.
 */
export function lintManifests(
  files: readonly ManifestFile[],
  usage: readonly ContainerGroupUsage[],
  policy: LintPolicy,
): LintFinding[] {
  const findings: LintFinding[] = [];
  for (const file of files) {
    for (const error of file.errors)
      findings.push({ rule: "unparsable", file: file.file, line: error.line, detail: error.value });
    for (const workload of file.workloads) {
      for (const container of workload.containers.filter((c) => c.gpu)) {
        findings.push(...containerFindings(file.file, workload, container, usage, policy));
      }
    }
  }
  findings.push(...namespaceFindings(files, policy), ...priorityFindings(files));
  const order = new Map(files.map((file, i) => [file.file, i]));
  return findings.sort((a, b) => (order.get(a.file) ?? 0) - (order.get(b.file) ?? 0) || a.line - b.line);
}

function containerFindings(
  file: string,
  workload: ManifestWorkload,
  container: ManifestContainer,
  usage: readonly ContainerGroupUsage[],
  policy: LintPolicy,
): LintFinding[] {
  const where = { file, line: container.resourcesLine, workload: workload.name, container: container.name };
  const out: LintFinding[] = [];
  const missingRequests = REQUIRED_REQUESTS.filter((name) => container.requests[name] === undefined);
  if (missingRequests.length > 0) out.push({ rule: "missing-requests", ...where, missing: missingRequests });
  const missingLimits = REQUIRED_LIMITS.filter((name) => container.limits[name] === undefined);
  if (missingLimits.length > 0) out.push({ rule: "missing-limits", ...where, missing: missingLimits });
  const used = usageOf(workload, container, usage);
  const cardMiB = used?.gpuMemTotalMiB ?? policy.cardMemoryMiB;
  const cap = capFinding(container, cardMiB, policy);
  if (cap !== null) out.push({ ...where, ...cap });
  if (used !== null) out.push(...usageFindings(where, container, used, cardMiB, policy));
  return out;
}

function capFinding(
  container: ManifestContainer,
  cardMiB: number,
  policy: LintPolicy,
): { rule: "gpu-memory-cap-high"; line: number; capPct: number; maxPct: number } | null {
  const pct = container.limits[GPU_MEM_PCT];
  const mem = container.limits[GPU_MEM];
  const capPct =
    pct !== undefined
      ? Number(pct.value)
      : mem !== undefined && cardMiB > 0
        ? ((gpuMemoryMiB(mem.value) ?? 0) / cardMiB) * 100
        : null;
  const line = (pct ?? mem)?.line;
  if (capPct === null || line === undefined || !(capPct > policy.gpuMemoryCapPct)) return null;
  return { rule: "gpu-memory-cap-high", line, capPct: Math.round(capPct), maxPct: policy.gpuMemoryCapPct };
}

function usageFindings(
  where: { file: string; line: number; workload: string; container: string },
  container: ManifestContainer,
  used: ContainerGroupUsage,
  cardMiB: number,
  policy: LintPolicy,
): LintFinding[] {
  const out: LintFinding[] = [];
  const cpu = container.requests.cpu;
  const requestedCores = cpu === undefined ? null : cpuCores(cpu.value);
  if (cpu !== undefined && requestedCores !== null && used.cpuPeakCores !== null) {
    const suggestedCores = Math.ceil(used.cpuPeakCores * policy.cpuHeadroom * 100) / 100;
    if (requestedCores > suggestedCores) {
      out.push({
        rule: "cpu-over-request",
        ...where,
        line: cpu.line,
        requestedCores,
        peakCores: used.cpuPeakCores,
        suggestedCores,
      });
    }
  }
  const requested = gpuMemoryRequest(container, cardMiB);
  if (requested !== null && used.gpuMemMaxMiB !== null) {
    const suggestedMiB = Math.ceil(used.gpuMemMaxMiB * policy.gpuMemHeadroom);
    if (requested.mib > suggestedMiB) {
      out.push({
        rule: "gpu-memory-over-request",
        ...where,
        line: requested.line,
        requestedMiB: requested.mib,
        peakMiB: used.gpuMemMaxMiB,
        suggestedMiB,
      });
    }
  }
  return out;
}

/** The GPU memory a container holds: its `nvidia.com/gpumem`, else its whole GPUs × the card. */
function gpuMemoryRequest(
  container: ManifestContainer,
  cardMiB: number,
): { mib: number; line: number } | null {
  const mem = container.requests[GPU_MEM] ?? container.limits[GPU_MEM];
  const mib = mem === undefined ? null : gpuMemoryMiB(mem.value);
  if (mem !== undefined && mib !== null) return { mib, line: mem.line };
  const whole = container.requests[WHOLE_GPU] ?? container.limits[WHOLE_GPU];
  const count = whole === undefined ? Number.NaN : Number(whole.value);
  return whole !== undefined && count > 0 && cardMiB > 0 ? { mib: count * cardMiB, line: whole.line } : null;
}

/** The usage Prometheus knows for a container: by namespace, workload and container (a CronJob's jobs add `-<n>`). */
function usageOf(
  workload: ManifestWorkload,
  container: ManifestContainer,
  usage: readonly ContainerGroupUsage[],
): ContainerGroupUsage | null {
  const matches = usage.filter(
    (group) =>
      group.namespace === workload.namespace &&
      group.container === container.name &&
      (group.workload === workload.name ||
        (workload.kind === "CronJob" &&
          new RegExp(`^${escapeRegExp(workload.name)}-\\d+$`).test(group.workload))),
  );
  if (matches.length === 0) return null;
  const merged = { ...matches[0]! };
  for (const group of matches) {
    merged.cpuPeakCores = maxOf(merged.cpuPeakCores, group.cpuPeakCores);
    merged.gpuMemMaxMiB = maxOf(merged.gpuMemMaxMiB, group.gpuMemMaxMiB);
    merged.gpuMemTotalMiB = maxOf(merged.gpuMemTotalMiB, group.gpuMemTotalMiB);
  }
  return merged;
}

function maxOf(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : Math.max(a, b);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** One finding per namespace with GPU workloads and no ResourceQuota or LimitRange with defaults, at its first workload. */
function namespaceFindings(files: readonly ManifestFile[], policy: LintPolicy): LintFinding[] {
  const covered = new Set(files.flatMap((file) => file.namespacesWithDefaults));
  const seen = new Set<string>();
  const out: LintFinding[] = [];
  for (const file of files) {
    for (const workload of file.workloads) {
      const ns = workload.namespace;
      if (ns === null || covered.has(ns) || seen.has(ns) || !workload.containers.some((c) => c.gpu)) continue;
      seen.add(ns);
      out.push({
        rule: "namespace-without-defaults",
        file: file.file,
        line: workload.namespaceLine,
        namespace: ns,
        cpuRequestCores: policy.defaultCpuRequestCores,
        gpuMemoryMiB: policy.defaultGpuMemoryMiB,
      });
    }
  }
  return out;
}

/** GPU serving workloads whose priority class is missing or not above every experiment's. */
function priorityFindings(files: readonly ManifestFile[]): LintFinding[] {
  const classes: Record<string, number> = Object.assign({}, ...files.map((file) => file.priorityClasses));
  const all = files.flatMap((file) => file.workloads.map((workload) => ({ file: file.file, workload })));
  const experimentValues = all
    .filter(({ workload }) => workload.role === "experiment")
    .map(({ workload }) => (workload.priorityClass === null ? 0 : classes[workload.priorityClass.value]))
    .filter((value): value is number => value !== undefined);
  const experimentsPriority = experimentValues.length === 0 ? null : Math.max(...experimentValues);
  const out: LintFinding[] = [];
  for (const { file, workload } of all) {
    if (workload.role !== "serving" || !workload.containers.some((c) => c.gpu)) continue;
    const own = workload.priorityClass === null ? undefined : classes[workload.priorityClass.value];
    const below = own !== undefined && experimentsPriority !== null && own <= experimentsPriority;
    if (workload.priorityClass !== null && !below) continue;
    out.push({
      rule: "serving-priority",
      file,
      line: workload.priorityClass?.line ?? workload.line,
      workload: workload.name,
      priorityClass: workload.priorityClass?.value ?? null,
      experimentsPriority,
    });
  }
  return out;
}
